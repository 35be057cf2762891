import { beforeAll, describe, expect, it } from 'vitest';
import type { GpuExecutor } from './executor.ts';
import { fmaPeakFlops, fmaPeakRun, measureFmaPeak } from './fma-peak.ts';
import { sharedNodeGpu } from './node.ts';

let gpu: GpuExecutor;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
});

/** One invocation's chains on the CPU (every lane of the vec4 alike): x = x·y + z, eight chains from i + j, summed as the kernel sums. */
function expected(invocation: number, iterations: number): number {
  const f = Math.fround;
  const y = f(0.999);
  const z = f(1e-3);
  const x: number[] = [];
  for (let j = 0; j < 8; j++) x.push(f(invocation + j));
  for (let it = 0; it < iterations; it++) for (let j = 0; j < 8; j++) x[j] = f(x[j]! * y + z);
  return f(f(f(x[0]! + x[1]!) + f(x[2]! + x[3]!)) + f(f(x[4]! + x[5]!) + f(x[6]! + x[7]!)));
}

describe('FMA peak kernel', () => {
  it('runs its chains for every invocation (each lane of the sink holds its sum)', async () => {
    const run = fmaPeakRun([2, 1], 16);
    const sink = (await gpu.run(run))[0]![1]! as Float32Array;
    for (const i of [0, 1, 255, 256, 511]) {
      for (let lane = 0; lane < 4; lane++) {
        // fma may round once where the CPU rounds twice: allow a few ulps of a value near 8.
        expect(Math.abs(sink[i * 4 + lane]! - expected(i, 16))).toBeLessThan(1e-4 * Math.max(1, Math.abs(expected(i, 16))));
      }
    }
  });

  it('counts 64 FLOPs per invocation and iteration (8 vec4 chains, 2 per multiply-add) and measures a positive rate', async () => {
    expect(fmaPeakFlops([1, 1], 1)).toBe(256 * 64);
    const peak = await measureFmaPeak(gpu, { workgroups: [8, 1], iterations: 64, repeats: 2 });
    expect(peak.flops).toBe(8 * 256 * 64 * 64);
    expect(peak.gflops).toBeGreaterThan(0);
  });
});
