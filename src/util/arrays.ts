/** Element-wise comparison of numeric arrays, as the executors' outputs are compared. */

/**
 * The first index where two arrays differ, comparing elements with Object.is (so −0 differs from 0
 * and NaN equals NaN, as bit-exact executors must), or −1 where none does. Arrays of unequal length
 * differ at the shorter one's length.
 */
export function firstMismatch(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  const n = Math.min(actual.length, expected.length);
  for (let i = 0; i < n; i++) if (!Object.is(actual[i], expected[i])) return i;
  return actual.length === expected.length ? -1 : n;
}
