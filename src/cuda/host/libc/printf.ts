/**
 * `printf` formatting exactly as glibc does it on x86-64: every conversion of C99 except `%n`,
 * with the flags `- + space # 0`, widths and precisions (also `*`), and the length modifiers
 * `hh h l ll z j t L`. Floating conversions round the double's exact binary value (its full decimal
 * expansion, computed with BigInt) half to even, as glibc does in the default rounding mode, so
 * `printf("%.2f", 1.005)` prints `1.00` and `printf("%.0f", 2.5)` prints `2`.
 *
 * Arguments arrive as C passes them through `...`: integers as `number` (at most 32 bits) or
 * `bigint` (64-bit), doubles as `number` (a `float` is promoted by the caller), strings as `string`
 * or as an address that `readString` resolves, pointers as `number`/`bigint` addresses.
 */
import { byteText } from './bytes.ts';

export type PrintfArg = number | bigint | string;

export interface PrintfOptions {
  /** Resolves a `%s` argument given as an address (a `char*` in the interpreter's memory). */
  readonly readString?: (address: number) => string;
}

/** Thrown when a conversion has no argument left (a C program would print garbage or crash). */
export class PrintfError extends Error {}

interface Spec {
  minus: boolean;
  plus: boolean;
  space: boolean;
  hash: boolean;
  zero: boolean;
  width: number;
  /** -1 when absent. */
  precision: number;
  length: string;
  conv: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bytes a string takes in UTF-8: glibc counts widths and `%s` precisions in bytes. */
function byteLength(s: string): number {
  // ASCII fast path: every code unit below 0x80 is one byte.
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return encoder.encode(s).length;
  return s.length;
}

function pad(body: string, spec: Spec, zeroAfter = 0): string {
  const len = byteLength(body);
  if (len >= spec.width) return body;
  const fill = spec.width - len;
  if (spec.minus) return body + ' '.repeat(fill);
  if (spec.zero) return body.slice(0, zeroAfter) + '0'.repeat(fill) + body.slice(zeroAfter);
  return ' '.repeat(fill) + body;
}

/** Formats `format` with `args` as glibc's `printf` would print it. */
export function formatPrintf(format: string, args: readonly PrintfArg[], options: PrintfOptions = {}): string {
  let out = '';
  let argi = 0;
  const next = (what: string): PrintfArg => {
    if (argi >= args.length) throw new PrintfError(`printf: the format has more conversions than arguments (no argument for ${what})`);
    return args[argi++]!;
  };
  let i = 0;
  const n = format.length;
  while (i < n) {
    const pct = format.indexOf('%', i);
    if (pct < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, pct);
    let j = pct + 1;
    const spec: Spec = { minus: false, plus: false, space: false, hash: false, zero: false, width: 0, precision: -1, length: '', conv: '' };
    for (; j < n; j++) {
      const c = format[j];
      if (c === '-') spec.minus = true;
      else if (c === '+') spec.plus = true;
      else if (c === ' ') spec.space = true;
      else if (c === '#') spec.hash = true;
      else if (c === '0') spec.zero = true;
      else if (c === "'") continue; // thousands grouping: the C locale has none
      else break;
    }
    if (format[j] === '*') {
      const w = Number(toBig(next('*'), 32, true));
      if (w < 0) {
        spec.minus = true;
        spec.width = -w;
      } else spec.width = w;
      j++;
    } else {
      while (j < n && format[j]! >= '0' && format[j]! <= '9') spec.width = spec.width * 10 + (format.charCodeAt(j++) - 48);
    }
    if (format[j] === '.') {
      j++;
      if (format[j] === '*') {
        const p = Number(toBig(next('.*'), 32, true));
        spec.precision = p < 0 ? -1 : p;
        j++;
      } else {
        spec.precision = 0;
        while (j < n && format[j]! >= '0' && format[j]! <= '9') spec.precision = spec.precision * 10 + (format.charCodeAt(j++) - 48);
      }
    }
    const lm = /^(hh|h|ll|l|L|q|j|z|Z|t)/.exec(format.slice(j, j + 2));
    if (lm) {
      spec.length = lm[1]!;
      j += lm[1]!.length;
    }
    if (j >= n) {
      // A lone `%` at the end: glibc prints it as written.
      out += format.slice(pct);
      break;
    }
    spec.conv = format[j]!;
    j++;
    if (spec.minus) spec.zero = false;
    switch (spec.conv) {
      case '%':
        out += '%';
        break;
      case 'd':
      case 'i':
      case 'u':
      case 'x':
      case 'X':
      case 'o':
        out += formatInt(next(`%${spec.conv}`), spec);
        break;
      case 'c': {
        const v = next('%c');
        const code = typeof v === 'string' ? v.charCodeAt(0) : Number(BigInt.asUintN(8, BigInt(v)));
        spec.zero = false;
        out += pad(byteText(code), spec);
        break;
      }
      case 's': {
        const v = next('%s');
        let s = typeof v === 'string' ? v : v === 0 || v === 0n ? '(null)' : readAddress(v, options);
        if (spec.precision >= 0 && byteLength(s) > spec.precision) {
          s = decoder.decode(encoder.encode(s).slice(0, spec.precision));
        }
        spec.zero = false;
        out += pad(s, spec);
        break;
      }
      case 'p': {
        const v = next('%p');
        const addr = typeof v === 'string' ? 0n : BigInt.asUintN(64, BigInt(v));
        if (addr === 0n) {
          spec.zero = false;
          out += pad('(nil)', spec);
        } else {
          out += formatInt(addr, { ...spec, conv: 'x', hash: true, length: 'l' });
        }
        break;
      }
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        const v = next(`%${spec.conv}`);
        out += formatFloat(typeof v === 'number' ? v : Number(v), spec);
        break;
      }
      default:
        // An unknown conversion: glibc prints the directive as written.
        out += format.slice(pct, j);
    }
    i = j;
  }
  return out;
}

function readAddress(v: number | bigint, options: PrintfOptions): string {
  if (!options.readString) throw new PrintfError('printf: %s was given an address and no memory to read it from');
  return options.readString(Number(v));
}

function bitsFor(length: string): number {
  switch (length) {
    case 'hh':
      return 8;
    case 'h':
      return 16;
    case 'l':
    case 'll':
    case 'q':
    case 'L':
    case 'j':
    case 'z':
    case 'Z':
    case 't':
      return 64;
    default:
      return 32;
  }
}

function toBig(v: PrintfArg, bits: number, signed: boolean): bigint {
  const b = typeof v === 'string' ? BigInt(v.charCodeAt(0) || 0) : typeof v === 'bigint' ? v : BigInt(Math.trunc(v));
  return signed ? BigInt.asIntN(bits, b) : BigInt.asUintN(bits, b);
}

function formatInt(arg: PrintfArg, spec: Spec): string {
  const signed = spec.conv === 'd' || spec.conv === 'i';
  const v = toBig(arg, bitsFor(spec.length), signed);
  const neg = v < 0n;
  const mag = neg ? -v : v;
  const base = spec.conv === 'o' ? 8 : spec.conv === 'x' || spec.conv === 'X' ? 16 : 10;
  let digits = mag === 0n && spec.precision === 0 ? '' : mag.toString(base);
  if (spec.conv === 'X') digits = digits.toUpperCase();
  if (spec.precision > digits.length) digits = '0'.repeat(spec.precision - digits.length) + digits;
  if (spec.conv === 'o' && spec.hash && !digits.startsWith('0')) digits = '0' + digits;
  let prefix = '';
  if (signed) prefix = neg ? '-' : spec.plus ? '+' : spec.space ? ' ' : '';
  else if (spec.hash && mag !== 0n && base === 16) prefix = spec.conv === 'X' ? '0X' : '0x';
  // With a precision the `0` flag is ignored for integers (C11 7.21.6.1).
  const zero = spec.zero && spec.precision < 0;
  return pad(prefix + digits, { ...spec, zero }, prefix.length);
}

// ---- floating point ------------------------------------------------------------------------

const view = new DataView(new ArrayBuffer(8));

/** A finite double as sign · mant · 2^exp, mant and exp integers. */
function decompose(x: number): { neg: boolean; mant: bigint; exp: number } {
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const neg = hi >>> 31 === 1;
  const bexp = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (bexp === 0) return { neg, mant: frac, exp: -1074 };
  return { neg, mant: frac | (1n << 52n), exp: bexp - 1075 };
}

const POW10: bigint[] = [1n];
function pow10(k: number): bigint {
  while (POW10.length <= k) POW10.push(POW10[POW10.length - 1]! * 10n);
  return POW10[k]!;
}

/** round(num / den), halves to even. */
function roundDiv(num: bigint, den: bigint): bigint {
  const q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && (q & 1n) === 1n)) return q + 1n;
  return q;
}

/** The exact value mant·2^exp as a fraction num/den. */
function fraction(mant: bigint, exp: number): [bigint, bigint] {
  return exp >= 0 ? [mant << BigInt(exp), 1n] : [mant, 1n << BigInt(-exp)];
}

/** %f digits: the value rounded to `prec` decimals, as an integer string with the point implied. */
function fixedDigits(mant: bigint, exp: number, prec: number): string {
  const [num, den] = fraction(mant, exp);
  const s = roundDiv(num * pow10(prec), den).toString();
  return s.length <= prec ? '0'.repeat(prec + 1 - s.length) + s : s;
}

/** %e: `prec + 1` significant digits and the decimal exponent, after rounding. */
function expDigits(x: number, mant: bigint, exp: number, prec: number): { digits: string; e10: number; carried: boolean } {
  if (mant === 0n) return { digits: '0'.repeat(prec + 1), e10: 0, carried: false };
  const [num, den] = fraction(mant, exp);
  // An estimate of floor(log10 |x|), corrected below with exact comparisons.
  let e10 = Math.floor(Math.log10(Math.abs(x)));
  const atLeast = (k: number): boolean => (k >= 0 ? num >= den * pow10(k) : num * pow10(-k) >= den);
  while (!atLeast(e10)) e10--;
  while (atLeast(e10 + 1)) e10++;
  const shift = prec - e10;
  let q = shift >= 0 ? roundDiv(num * pow10(shift), den) : roundDiv(num, den * pow10(-shift));
  const carried = q === pow10(prec + 1);
  if (carried) {
    q = pow10(prec);
    e10++;
  }
  return { digits: q.toString(), e10, carried };
}

function expText(e10: number, upper: boolean): string {
  const a = Math.abs(e10);
  return (upper ? 'E' : 'e') + (e10 < 0 ? '-' : '+') + (a < 10 ? '0' + a : String(a));
}

function withPoint(intPart: string, frac: string, hash: boolean): string {
  return frac.length > 0 || hash ? `${intPart}.${frac}` : intPart;
}

function formatFloat(x: number, spec: Spec): string {
  const conv = spec.conv;
  const upper = conv === 'F' || conv === 'E' || conv === 'G' || conv === 'A';
  view.setFloat64(0, x);
  const signBit = view.getUint32(0) >>> 31 === 1;
  const sign = signBit ? '-' : spec.plus ? '+' : spec.space ? ' ' : '';
  if (!Number.isFinite(x)) {
    const word = Number.isNaN(x) ? 'nan' : 'inf';
    return pad(sign + (upper ? word.toUpperCase() : word), { ...spec, zero: false });
  }
  const { mant, exp } = decompose(x);
  let body: string;
  let prefixLen = sign.length;
  switch (conv) {
    case 'f':
    case 'F': {
      const prec = spec.precision < 0 ? 6 : spec.precision;
      const d = fixedDigits(mant, exp, prec);
      body = withPoint(d.slice(0, d.length - prec), d.slice(d.length - prec), spec.hash);
      break;
    }
    case 'e':
    case 'E': {
      const prec = spec.precision < 0 ? 6 : spec.precision;
      const { digits, e10 } = expDigits(x, mant, exp, prec);
      body = withPoint(digits[0]!, digits.slice(1), spec.hash) + expText(e10, upper);
      break;
    }
    case 'g':
    case 'G': {
      const p = spec.precision < 0 ? 6 : spec.precision === 0 ? 1 : spec.precision;
      const { digits, e10, carried } = expDigits(x, mant, exp, p - 1);
      if (carried && e10 === p) {
        // glibc picks the style from the unrounded exponent (p - 1: fixed, no fraction digits),
        // then finds p + 1 digits and switches to exponent style keeping no fraction digits:
        // printf("%#g", 999999.5) prints "1.e+06".
        body = withPoint(digits[0]!, '', spec.hash) + expText(e10, upper);
      } else if (p > e10 && e10 >= -4) {
        const prec = p - 1 - e10;
        const d = fixedDigits(mant, exp, prec);
        let frac = d.slice(d.length - prec);
        if (!spec.hash) frac = frac.replace(/0+$/, '');
        body = withPoint(d.slice(0, d.length - prec), frac, spec.hash);
      } else {
        let frac = digits.slice(1);
        if (!spec.hash) frac = frac.replace(/0+$/, '');
        body = withPoint(digits[0]!, frac, spec.hash) + expText(e10, upper);
      }
      break;
    }
    default: {
      body = hexFloat(mant, exp, spec.precision, spec.hash, upper);
      prefixLen += 2;
    }
  }
  return pad(sign + body, spec, prefixLen);
}

/** %a: glibc prints a normal double as 0x1.hhhp±d and a subnormal as 0x0.hhhp-1022. */
function hexFloat(mant: bigint, exp: number, precision: number, hash: boolean, upper: boolean): string {
  let lead: bigint;
  let frac: bigint; // 52 bits
  let e2: number;
  if (mant === 0n) {
    lead = 0n;
    frac = 0n;
    e2 = 0;
  } else if (mant < 1n << 52n) {
    lead = 0n;
    frac = mant;
    e2 = -1022;
  } else {
    lead = 1n;
    frac = mant - (1n << 52n);
    e2 = exp + 52;
  }
  let hex = frac.toString(16).padStart(13, '0');
  if (precision < 0) hex = hex.replace(/0+$/, '');
  else if (precision < 13) {
    const drop = BigInt((13 - precision) * 4);
    let kept = roundDiv(frac, 1n << drop);
    if (kept >> BigInt(precision * 4) !== 0n) {
      // The rounding carried into the leading digit.
      lead += 1n;
      kept -= 1n << BigInt(precision * 4);
    }
    hex = precision === 0 ? '' : kept.toString(16).padStart(precision, '0');
  } else hex = hex.padEnd(precision, '0');
  const text = `0x${lead.toString(16)}${hex.length > 0 || hash ? '.' : ''}${hex}p${e2 < 0 ? '-' : '+'}${Math.abs(e2)}`;
  return upper ? text.toUpperCase() : text;
}
