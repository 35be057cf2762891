/**
 * Every lab's CUDA twins on Dawn (SwiftShader where there is no GPU): each case's generated WGSL
 * gives the same outputs as the hand-written variant and as the lab's CPU reference, as on the
 * simulator (cudaTwins.test.ts). Twins that use warp functions need 32-lane subgroups: on another
 * subgroup size (SwiftShader's is 4) they are skipped, and the skip says why. On a CPU adapter
 * (SwiftShader) each twin runs its last, largest case only: building a pipeline there takes up to
 * 25 s for the larger kernels, and the simulator runs every case.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { GpuExecutor } from '../gpu/executor.ts';
import { createNodeGpu } from '../gpu/node.ts';
import { runTwinCase, twinMismatches, twinUsesWarps, type TwinLimits } from '../cuda/index.ts';
import { LAB_TWINS } from './cudaTwins.ts';

const gpu: GpuExecutor = await createNodeGpu();
afterAll(() => gpu.destroy());
const adapter = gpu.adapter!;
const subgroup = adapter.subgroupMinSize !== undefined && adapter.subgroupMinSize === adapter.subgroupMaxSize ? adapter.subgroupMinSize : undefined;
const cpuAdapter = adapter.isFallbackAdapter || /swiftshader/i.test(adapter.name ?? '');
const limits: TwinLimits = {
  maxBindingBytes: Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize),
  maxInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
};

describe(`the labs' CUDA twins on Dawn (${adapter.name ?? 'adapter'}, subgroup size ${subgroup ?? 'varies'}), against the hand-written WGSL and the CPU`, () => {
  for (const twin of LAB_TWINS) {
    const name = `${twin.lab}/${twin.variant}`;
    if (twinUsesWarps(twin) && subgroup !== 32) {
      it.skip(`${name} [skipped: warp functions need 32-lane warps; this adapter's subgroup size is ${subgroup ?? 'not fixed'}]`, () => {});
      continue;
    }
    it(name, async () => {
      const cases = twin.cases(limits);
      for (const c of cpuAdapter ? cases.slice(-1) : cases) expect(twinMismatches(c, await runTwinCase(gpu, twin, c)), c.label).toEqual([]);
    });
  }
});
