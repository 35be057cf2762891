/**
 * A small seeded generator (mulberry32) so tests, benchmarks and shared links reproduce the same
 * inputs. Returns floats in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n random u32 below `max` (default 2^32). */
export function randomU32(rng: () => number, n: number, max = 2 ** 32): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(rng() * max);
  return out;
}

/** n random f32 in [lo, hi). */
export function randomF32(rng: () => number, n: number, lo = -1, hi = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = lo + (hi - lo) * rng();
  return out;
}
