/**
 * Reads the oracle outputs that scripts/cuda-host-oracle.sh stores beside the C programs here:
 * tab-separated fields, each escaped by oracle.h's put_escaped (\\, \t, \n, \xHH).
 */
import { readFileSync } from 'node:fs';

export function unescapeField(s: string): string {
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\') {
      bytes.push(...enc.encode(c));
      continue;
    }
    const d = s[++i];
    if (d === 't') bytes.push(9);
    else if (d === 'n') bytes.push(10);
    else if (d === 'x') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(92);
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The double whose IEEE bits are these 16 hex digits. */
export function doubleFromBits(hex: string): number {
  const v = new DataView(new ArrayBuffer(8));
  v.setBigUint64(0, BigInt(`0x${hex}`));
  return v.getFloat64(0);
}

/** The lines of `oracle/<name>.out` whose first field is `tag`, split into unescaped fields. */
export function oracleRecords(name: string, tag: string): string[][] {
  const text = readFileSync(new URL(`./${name}.out`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${tag}\t`))
    .map((l) => l.split('\t').map(unescapeField));
}

/** A C99 hexadecimal floating literal as printf's %a writes it (`-0x1.8p+1`, `0x0p+0`). */
export function parseHexFloat(s: string): number {
  if (/^-?inf$/.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^-?nan$/.test(s)) return Number.NaN;
  const m = /^(-?)0x([0-9a-f]+)(?:\.([0-9a-f]*))?p([+-]\d+)$/i.exec(s);
  if (!m) return Number.NaN;
  const frac = m[3] ?? '';
  const mant = parseInt(m[2]! + frac, 16) * 2 ** (-4 * frac.length);
  const v = mant * 2 ** Number(m[4]);
  return m[1] === '-' ? -v : v;
}
