/**
 * C `printf` formatting of the values a kernel recorded (each a 32-bit word, with the type the
 * argument had after C's default promotions: `int`, `unsigned int` or `float` shown as `double`).
 * Follows glibc for the conversions kernels print: `%d %i %u %x %X %o %c %f %F %e %E %g %G %%`,
 * flags `-+ #0`, width and precision.
 */
export function formatPrintf(format: string, types: readonly ('int' | 'unsigned int' | 'float')[], words: readonly number[]): string {
  let k = 0;
  return format.replace(/%([-+ #0]*)(\d+)?(?:\.(\d+))?(?:hh|h|ll|l|z)?([diuxXofFeEgGc%])/g, (_m, flags: string, w?: string, p?: string, conv?: string) => {
    if (conv === '%') return '%';
    const word = words[k] ?? 0;
    const type = types[k++] ?? 'int';
    const f = new Set(flags);
    const width = w ? Number(w) : 0;
    const prec = p === undefined ? undefined : Number(p);
    let sign = '';
    let body: string;
    const asFloat = type === 'float' ? new Float32Array(new Uint32Array([word]).buffer)[0]! : type === 'int' ? word | 0 : word >>> 0;
    const asInt = type === 'float' ? Math.trunc(asFloat) : type === 'int' ? word | 0 : word >>> 0;
    switch (conv) {
      case 'd':
      case 'i': {
        const v = asInt;
        sign = v < 0 ? '-' : f.has('+') ? '+' : f.has(' ') ? ' ' : '';
        body = Math.abs(v).toString();
        if (prec !== undefined) body = prec === 0 && v === 0 ? '' : body.padStart(prec, '0');
        break;
      }
      case 'u':
      case 'x':
      case 'X':
      case 'o': {
        const v = asInt >>> 0;
        body = v.toString(conv === 'u' ? 10 : conv === 'o' ? 8 : 16);
        if (conv === 'X') body = body.toUpperCase();
        if (prec !== undefined) body = prec === 0 && v === 0 ? '' : body.padStart(prec, '0');
        if (f.has('#') && v !== 0) body = conv === 'o' ? `0${body}` : conv === 'x' ? `0x${body}` : conv === 'X' ? `0X${body}` : body;
        break;
      }
      case 'c':
        body = String.fromCharCode(asInt & 0xff);
        break;
      default: {
        const v = asFloat;
        sign = v < 0 || Object.is(v, -0) ? '-' : f.has('+') ? '+' : f.has(' ') ? ' ' : '';
        body = floatBody(Math.abs(v), conv!, prec ?? 6, f.has('#'));
      }
    }
    const zero = f.has('0') && !f.has('-') && (prec === undefined || 'fFeEgG'.includes(conv!)) && !/^(nan|inf)$/i.test(body) && conv !== 'c';
    const len = sign.length + body.length;
    if (len >= width) return sign + body;
    if (f.has('-')) return sign + body + ' '.repeat(width - len);
    if (zero) return sign + '0'.repeat(width - len) + body;
    return ' '.repeat(width - len) + sign + body;
  });
}

function floatBody(v: number, conv: string, prec: number, alt: boolean): string {
  if (!Number.isFinite(v)) {
    const s = Number.isNaN(v) ? 'nan' : 'inf';
    return conv === conv.toUpperCase() ? s.toUpperCase() : s;
  }
  const exp = (x: number, p: number): string => {
    const [m, e] = x.toExponential(p).split('e') as [string, string];
    const n = Number(e);
    return `${m}${alt && p === 0 ? '.' : ''}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  };
  switch (conv) {
    case 'f':
    case 'F':
      return fixed(v, prec) + (alt && prec === 0 ? '.' : '');
    case 'e':
      return exp(v, prec);
    case 'E':
      return exp(v, prec).toUpperCase();
    default: {
      // %g: precision P (0 → 1); exponent X; use %e if X < -4 or X >= P, else %f with P-1-X.
      const P = prec === 0 ? 1 : prec;
      const X = v === 0 ? 0 : Number(v.toExponential(P - 1).split('e')[1]);
      let s = X < -4 || X >= P ? exp(v, P - 1) : fixed(v, Math.max(0, P - 1 - X));
      if (!alt) s = s.replace(/\.?0+(?=e|$)/, (m) => (m.startsWith('.') || s.includes('.') ? '' : m));
      if (!alt && s.includes('.')) s = s.replace(/(\.\d*?)0+(?=e|$)/, '$1').replace(/\.(?=e|$)/, '');
      return conv === 'G' ? s.toUpperCase() : s;
    }
  }
}

/**
 * `v` with `prec` decimals, rounding an exact tie (the binary value halfway) to even as glibc
 * does; JavaScript's toFixed rounds such ties up (2.5 → "3", glibc "2").
 */
function fixed(v: number, prec: number): string {
  const plain = v.toFixed(prec);
  if (prec > 60 || v >= 1e21) return plain;
  const exact = v.toFixed(Math.min(100, prec + 40));
  const dot = exact.indexOf('.');
  const tail = exact.slice(dot + 1 + prec);
  if (!/^50*$/.test(tail)) return plain;
  const kept = exact.slice(0, dot + 1 + prec).replace(/\.$/, '');
  const last = Number(kept[kept.length - 1]);
  return last % 2 === 0 ? kept : plain;
}
