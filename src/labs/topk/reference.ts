/**
 * CPU references of the top-k lab: the seed's insert_value (with and without dropping
 * duplicates), the top k of an array under both semantics, and the shape of the tree.
 */

/** The lowest i32, the seed's INT_MIN: what an unfilled slot holds. */
export const LOWEST = -2147483648;

/**
 * The seed's insert_value on a descending list of `k` values: drops `v` when it is not among the
 * k largest, or, with `distinct`, when the list already holds it. Returns whether it went in.
 */
export function insertValue(list: Int32Array, v: number, distinct: boolean): boolean {
  const k = list.length;
  if (distinct && list.includes(v)) return false;
  if (v <= list[k - 1]!) return false;
  let s = k - 1;
  while (s > 0 && v > list[s - 1]!) {
    list[s] = list[s - 1]!;
    s--;
  }
  list[s] = v;
  return true;
}

/**
 * The top k of `values`, descending, padded with the lowest i32: the k largest values counting
 * duplicates, or with `distinct` the k largest distinct values (the seed's result).
 */
export function topkReference(values: ArrayLike<number>, k: number, distinct: boolean): Int32Array {
  const sorted = Int32Array.from(values).sort().reverse();
  const out = new Int32Array(k).fill(LOWEST);
  let t = 0;
  for (let x = 0; x < sorted.length && t < k; x++) {
    if (distinct && t > 0 && out[t - 1] === sorted[x]) continue;
    out[t++] = sorted[x]!;
  }
  return out;
}

/** Invocations per workgroup for lists of k: the most (up to 256) whose lists fit in 16 KiB. */
export function workgroupSizeFor(k: number): number {
  let wg = 256;
  while (wg * k * 4 > 16384) wg /= 2;
  return wg;
}
