/**
 * The posts' whole programs with their launches on Dawn (SwiftShader where there is no GPU),
 * through `runCudaProgram(…, { executor: 'gpu' })`, against what the same programs printed on the
 * H100 (docs/runs/2026-11-26-h100-seed-programs/), timing figures aside.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { GpuExecutor } from '../../gpu/executor.ts';
import { sharedNodeGpu } from '../../gpu/node.ts';
import { runCudaProgram } from '../index.ts';
import { runProgramOnDevice, deviceOfAdapter } from './gpuProgram.ts';
import { FIXED_CLOCK, SEED_FILES, comparable, compileSeed, reference } from './oracle/seedRuns.ts';

let gpu: GpuExecutor;
let maxThreads = 0;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
  maxThreads = (await gpu.ready()).device.limits.maxComputeInvocationsPerWorkgroup;
});

/** One program on the GPU with the clocks fixed as the reference comparison needs. */
async function onGpu(name: string) {
  const ctx = await gpu.ready();
  return runProgramOnDevice(compileSeed(name), gpu, { clock: FIXED_CLOCK, files: SEED_FILES, device: deviceOfAdapter(ctx.summary.name, ctx.device.limits), timeoutMs: 900_000 });
}

describe('the posts’ programs with their kernels on the GPU print what they print on the H100', () => {
  it.each([['000-scan', 1], ['003-histogram', 1], ['003-histogram-shared', 1]])('%s (%i launch on the GPU)', async (name, launches) => {
    const ref = reference(name);
    const r = await onGpu(name);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(ref.exit);
    expect(r.rounds).toBe(launches + 1);
    expect(r.launches).toHaveLength(launches);
    expect(r.launches.every((l) => l.gpuMs !== undefined && !l.error)).toBe(true);
    const { got, want } = comparable(r.stdout, ref);
    expect(got).toBe(want);
  });

  it('004-add-managed through runCudaProgram, the API a page or a script calls', async () => {
    const ref = reference('004-add-managed');
    const r = await runCudaProgram(compileSeed('004-add-managed'), { executor: 'gpu', gpu });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(ref.exit);
    const { got, want } = comparable(r.stdout, ref);
    expect(got).toBe(want);
  });

  it('003-row-sum (512 threads a block): as on the H100 where the adapter allows 512, else the launch fails as CUDA’s would on such a device, and says why', async () => {
    const ref = reference('003-row-sum');
    const r = await onGpu('003-row-sum');
    if (maxThreads >= 512) {
      expect(r.stderr).toBe('');
      expect(comparable(r.stdout, ref).got).toBe(comparable(r.stdout, ref).want);
    } else {
      expect(r.launches[0]?.error).toBe(1);
      expect(r.stderr).toContain(`rowSum<<<…>>> at line 63: this GPU (`);
      expect(r.stderr).toContain(`allows at most ${maxThreads} threads per block`);
    }
  });

  // 1.07 G multiply-adds: about 4.5 minutes on SwiftShader with two cores, hours on the simulator.
  it.skipIf(!process.env.WARPSCOPE_SLOW_SEEDS)('003-matrix-multiply-tiled (its 512 × 1023 products, stdout hashed without its timing line)', async () => {
    const ref = reference('003-matrix-multiply-tiled');
    const r = await onGpu('003-matrix-multiply-tiled');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(ref.exit);
    const { got, want } = comparable(r.stdout, ref);
    expect(got).toBe(want);
  }, 1_200_000);
});
