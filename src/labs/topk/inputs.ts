/** Inputs of the top-k lab: n i32 values in one of four distributions. */
export const TOPK_DISTRIBUTIONS = ['random', 'sorted', 'reverse', 'duplicates'] as const;
export type TopkDistribution = (typeof TOPK_DISTRIBUTIONS)[number];

export const isTopkDistribution = (s: string): s is TopkDistribution => (TOPK_DISTRIBUTIONS as readonly string[]).includes(s);

/** n values: random over ±10⁶ (or 16 distinct values), sorted up or down when asked. */
export function topkInput(rng: () => number, n: number, dist: TopkDistribution): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = dist === 'duplicates' ? Math.floor(rng() * 16) * 7 : Math.floor(rng() * 2_000_001) - 1_000_000;
  if (dist === 'sorted') out.sort();
  if (dist === 'reverse') out.sort().reverse();
  return out;
}
