/** Sorted inputs for the merge lab: random keys, many equal keys, disjoint ranges, one array empty. */
import type { BindingData } from '../../kernel/types.ts';
import { arrayFor, type ElementType } from '../../workbench/labTypes.ts';

export const MERGE_INPUTS = ['random', 'duplicates', 'disjoint', 'a-empty', 'b-empty'] as const;
export type MergeInput = (typeof MERGE_INPUTS)[number];

export const isMergeInput = (s: string): s is MergeInput => (MERGE_INPUTS as readonly string[]).includes(s);

function sortedKeys(rng: () => number, count: number, type: ElementType, lo: number, span: number): BindingData {
  const out = arrayFor(type, count);
  // Whole numbers (exact in f32), or quarters for f32 so fractions show up too.
  for (let i = 0; i < count; i++) {
    const v = lo + Math.floor(rng() * span);
    out[i] = type === 'f32' ? v + Math.floor(rng() * 4) / 4 : v;
  }
  return out.sort();
}

/**
 * A and B of the given kind, each sorted ascending, at least one element long (WebGPU binds no
 * empty buffer): `m` and `n` say how many count. Keys stay below 2^24 so f32 holds them exactly.
 */
export function mergeInputs(rng: () => number, kind: MergeInput, m: number, n: number, type: ElementType): { a: BindingData; b: BindingData; m: number; n: number } {
  const mm = kind === 'a-empty' ? 0 : m;
  const nn = kind === 'b-empty' ? 0 : n;
  const span = kind === 'duplicates' ? 4 : Math.max(8, 2 * (m + n));
  const signed = type !== 'u32' ? -Math.floor(span / 2) : 0;
  const a = sortedKeys(rng, mm, type, signed, span);
  const b = kind === 'disjoint' ? sortedKeys(rng, nn, type, signed + span, span) : sortedKeys(rng, nn, type, signed, span);
  return { a: atLeastOne(a, type), b: atLeastOne(b, type), m: mm, n: nn };
}

function atLeastOne(data: BindingData, type: ElementType): BindingData {
  if (data.length > 0) return data;
  return arrayFor(type, 1);
}
