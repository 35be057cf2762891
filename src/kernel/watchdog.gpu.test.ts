/**
 * The watchdog on Dawn (SwiftShader where there is no GPU): it stops a loop the simulator's step
 * budget let through, and leaves every teaching kernel compiling and computing what it did.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node.ts';
import type { GpuExecutor } from '../gpu/executor.ts';
import { dataMismatch, gpuErrorOf } from '../gpu/testkit.ts';
import { simulate } from '../sim/simulate.ts';
import { seededRandom } from '../util/random.ts';
import { kernelCases } from '../labs/all.ts';
import { firstPass } from '../labs/topk/kernel.ts';
import { workgroupCount, type KernelRun } from './types.ts';
import { iterationBudget } from '../wgsl/watchdog.ts';
import { guardKernel } from './watchdog.ts';

let gpu: GpuExecutor;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
});

// Each invocation sums `limit[0]` terms: a data-dependent count, small in the simulator's check
// and 2^32 − 1 on the GPU, where (unguarded) it would keep SwiftShader busy for hours.
const COUNTING = `@group(0) @binding(0) var<storage, read> limit: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  var acc = 0u;
  for (var k = 0u; k < limit[0]; k++) {
    acc = acc + (k ^ gid.x);
  }
  out[gid.x] = acc;
}
`;

const counting = (limit: number): KernelRun => ({
  code: COUNTING,
  entryPoint: 'main',
  workgroups: [4],
  bindings: { 0: { 0: new Uint32Array([limit]), 1: new Uint32Array(256) } },
  file: 'edited.wgsl',
  label: 'edited',
});

describe('watchdog on the GPU', () => {
  it('stops a loop the step budget let through, and names its line and column', async () => {
    // The simulator's check (a small count) finishes well inside a step budget …
    const checked = simulate(counting(16), { trace: 'summary', maxSteps: 100_000 });
    expect(checked.incomplete).toBeUndefined();
    expect(checked.diagnostics.filter((d) => d.kind === 'step-limit')).toEqual([]);
    // … the real data makes the same loop practically endless; the watchdog ends it.
    const { run, guarded } = guardKernel(counting(0xffff_ffff), { budget: 4096 });
    const t0 = performance.now();
    const err = await gpuErrorOf(gpu.run(run, { watchdog: guarded.watchdog! }));
    const ms = performance.now() - t0;
    expect(err.kind).toBe('watchdog');
    expect(err.message).toBe('The for loop at line 7, column 3 of edited.wgsl ran past 4,096 iterations and was stopped by the watchdog.');
    expect(err.location).toEqual({ line: 7, column: 3, file: 'edited.wgsl' });
    expect(ms).toBeLessThan(60_000);
  });

  it('lets a loop that ends within the bound finish with the same results as unguarded', async () => {
    const plain = counting(100);
    const { run, guarded } = guardKernel(plain, { budget: 4096 });
    const out = await gpu.run(run, { watchdog: guarded.watchdog! });
    const expected = await gpu.run(plain);
    expect(dataMismatch(out[0]![1]!, expected[0]![1]!)).toBeNull();
    expect(out[0]![2]).toEqual(new Uint32Array(1));
  });

  it('lets an unedited kernel with loops three deep finish at the budget of its dispatch (top-k, k = 64, 65 536 values)', async () => {
    const values = new Int32Array(65_536).map((_, i) => Math.imul(i, 0x9e3779b1));
    const plain = firstPass('seed', values, { k: 64, distinct: true });
    const invocations = workgroupCount(plain.workgroups) * plain.overrides!.WORKGROUP_SIZE!;
    const { run, guarded } = guardKernel(plain, { budget: iterationBudget(invocations) });
    const out = await gpu.run(run, { watchdog: guarded.watchdog! });
    expect(dataMismatch(out[0]![1]!, (await gpu.run(plain))[0]![1]!)).toBeNull();
  });

  // One case per shader file: the transform depends on the code, not on the data.
  const perFile = [...new Map(kernelCases.map((c) => [c.file, c] as const)).values()];
  it.each(perFile.map((c) => [c.file, c] as const))('%s: compiles and computes the same when guarded', async (_name, c) => {
    const n = c.sizes[0]!;
    const plain = c.build(seededRandom(11), n);
    const { run, guarded } = guardKernel(plain);
    const expected = await gpu.run(plain);
    const out = await gpu.run(run, guarded.watchdog ? { watchdog: guarded.watchdog } : {});
    for (const [g, rec] of Object.entries(expected)) {
      for (const [b, data] of Object.entries(rec)) {
        const got = out[Number(g)]![Number(b)]!;
        // Atomic-order kernels may differ in f32 rounding; compare exactly only integer data.
        if (c.f32UlpBound === undefined && !(data instanceof Float32Array && c.subgroups)) expect(dataMismatch(got, data), `binding ${g}/${b}`).toBeNull();
      }
    }
  });
});
