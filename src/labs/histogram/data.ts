/**
 * The histogram's input distributions, seeded: uniform bytes, a skewed spread, one value
 * throughout, English-like letter text (the seed's example counts letters of a long text), and the
 * seed's own test buffer, the alphabet over and over (byte i is 'a' + i mod 26).
 */
import { seededRandom } from '../../util/random.ts';
import { BYTE_RANGE, LETTER_RANGE, type BinRange } from './kernel.ts';

export const DISTRIBUTIONS = ['letters', 'alphabet', 'uniform', 'skewed', 'one-value'] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];

export const isDistribution = (s: string): s is Distribution => (DISTRIBUTIONS as readonly string[]).includes(s);

/** The byte range a distribution is counted over: letters over 'a' … 'z', the others over all bytes. */
export const rangeOf = (d: Distribution): BinRange => (d === 'letters' || d === 'alphabet' ? LETTER_RANGE : BYTE_RANGE);

/**
 * Rough relative frequencies of a … z in English prose (per mille), so the letter bins are unequal
 * the way a real text makes them: e–h and m–p heavy, y–z nearly empty.
 */
const LETTER_WEIGHTS = [82, 15, 28, 43, 127, 22, 20, 61, 70, 2, 8, 40, 24, 67, 75, 19, 1, 60, 63, 91, 28, 10, 24, 2, 20, 1];
const LETTER_CUMULATIVE = LETTER_WEIGHTS.reduce<number[]>((acc, w) => [...acc, (acc.at(-1) ?? 0) + w], []);

function letter(rng: () => number): number {
  const total = LETTER_CUMULATIVE.at(-1)!;
  const x = rng() * total;
  let k = 0;
  while (LETTER_CUMULATIVE[k]! <= x) k++;
  return 97 + k;
}

/** The byte every element holds under `one-value`: 0, the first bin of any byte histogram. */
export const ONE_VALUE = 0;

/** `n` seeded bytes of a distribution. */
export function generateBytes(d: Distribution, n: number, seed: number): Uint8Array {
  const rng = seededRandom(seed);
  const out = new Uint8Array(n);
  switch (d) {
    case 'uniform':
      for (let i = 0; i < n; i++) out[i] = Math.floor(rng() * 256);
      break;
    case 'skewed':
      // The cube of a uniform number: half the bytes fall below 32.
      for (let i = 0; i < n; i++) out[i] = Math.floor(256 * rng() ** 3);
      break;
    case 'one-value':
      out.fill(ONE_VALUE);
      break;
    case 'alphabet':
      for (let i = 0; i < n; i++) out[i] = 97 + (i % 26);
      break;
    case 'letters': {
      // Words of 1 to 9 letters separated by single spaces (spaces count in no bin).
      let i = 0;
      while (i < n) {
        const len = 1 + Math.floor(rng() * 9);
        for (let k = 0; k < len && i < n; k++) out[i++] = letter(rng);
        if (i < n) out[i++] = 32;
      }
      break;
    }
  }
  return out;
}

/** A bin's name: the letters it counts (`a–d`) or its byte values (`0–2`, `7`). */
export function binLabel(bin: number, bins: number, range: { readonly lo: number; readonly span: number }): string {
  // Bytes b with ⌊(b − lo)·bins/span⌋ = bin: from ⌈bin·span/bins⌉ to ⌈(bin+1)·span/bins⌉ − 1.
  const first = range.lo + Math.ceil((bin * range.span) / bins);
  const last = range.lo + Math.ceil(((bin + 1) * range.span) / bins) - 1;
  const name = (b: number) => (range.lo === 97 ? String.fromCharCode(Math.min(b, 122)) : String(b));
  if (range.lo === 97 && first > 122) return '—';
  const end = range.lo === 97 ? Math.min(last, 122) : last;
  return end <= first ? name(first) : `${name(first)}–${name(end)}`;
}
