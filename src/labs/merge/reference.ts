/**
 * CPU references of the merge lab: the co-rank binary search the kernels run (with the probes it
 * makes), the stable sequential merge, and the bound on co-rank iterations.
 */
import type { BindingData } from '../../kernel/types.ts';
import { arrayFor, elementTypeOf } from '../../workbench/labTypes.ts';

/** The merge's one rule: A's element goes first when it is ≤ B's, so equal keys take A first. */
export const takesA = (av: number, bv: number): boolean => av <= bv;

/** One probe of the co-rank search: A[i] compared with B[j], with j = k − 1 − i. */
export interface Probe {
  readonly i: number;
  readonly j: number;
  /** Whether A[i] goes first, so the search continues above i. */
  readonly a: boolean;
}

/**
 * How many of the first `k` outputs of the stable merge come from A, by the binary search on
 * cross-diagonal k the kernels use, and the probes it made on the way.
 */
export function coRank(k: number, a: ArrayLike<number>, m: number, b: ArrayLike<number>, n: number): { i: number; probes: Probe[] } {
  if (k < 0 || k > m + n) throw new RangeError(`co-rank of output ${k}: the merge has outputs 0…${m + n}.`);
  let lo = Math.max(0, k - n);
  let hi = Math.min(k, m);
  const probes: Probe[] = [];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const j = k - 1 - mid;
    const goesFirst = takesA(a[mid]!, b[j]!);
    probes.push({ i: mid, j, a: goesFirst });
    if (goesFirst) lo = mid + 1;
    else hi = mid;
  }
  return { i: lo, probes };
}

/** ⌈log2 min(m, n)⌉ + 1: the most probes one co-rank search makes (0 when an array is empty). */
export function coRankIterationBound(m: number, n: number): number {
  const s = Math.min(m, n);
  return s === 0 ? 0 : Math.ceil(Math.log2(s)) + 1;
}

/** The stable sequential merge of A and B (equal keys: A first), in A's element type. */
export function mergeReference(a: BindingData, m: number, b: BindingData, n: number): BindingData {
  const out = arrayFor(elementTypeOf(a), m + n);
  let i = 0;
  let j = 0;
  for (let t = 0; t < m + n; t++) {
    if (j >= n || (i < m && takesA(a[i]!, b[j]!))) out[t] = a[i++]!;
    else out[t] = b[j++]!;
  }
  return out;
}

/** Whether each output comes from A (true) or B, in output order: the merge path's steps. */
export function mergePath(a: ArrayLike<number>, m: number, b: ArrayLike<number>, n: number): boolean[] {
  const steps: boolean[] = [];
  let i = 0;
  let j = 0;
  while (i + j < m + n) {
    const fromA = j >= n || (i < m && takesA(a[i]!, b[j]!));
    steps.push(fromA);
    if (fromA) i++;
    else j++;
  }
  return steps;
}
