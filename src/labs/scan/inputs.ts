/** Seeded inputs for the scan lab's tests, cases and benchmarks. */
import type { BindingData } from '../../kernel/types.ts';
import { randomF32, randomU32 } from '../../util/random.ts';
import type { ElementType } from '../../workbench/labTypes.ts';

/**
 * How to fill an input:
 * - `full`: u32/i32 over their whole range (sums wrap around), f32 uniform in [−1, 1);
 * - `small-integers`: integers 0…15 in any type. f32 sums of these stay exact below 2^24, so every
 *   summation order gives the same bits: the way to demand bit-identical f32 results from kernels
 *   whose order of additions is not fixed (subgroup operations, look-back).
 */
export type ScanFill = 'full' | 'small-integers';

export function scanInput(rng: () => number, n: number, type: ElementType, fill: ScanFill = 'full'): BindingData {
  if (fill === 'small-integers') {
    const words = randomU32(rng, n, 16);
    return type === 'u32' ? words : type === 'i32' ? Int32Array.from(words) : Float32Array.from(words);
  }
  if (type === 'f32') return randomF32(rng, n, -1, 1);
  const words = randomU32(rng, n);
  return type === 'u32' ? words : new Int32Array(words.buffer);
}
