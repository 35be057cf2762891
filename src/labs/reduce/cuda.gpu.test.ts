/**
 * The reduction lab's CUDA sources on Dawn (SwiftShader where there is no GPU): every pass of the
 * lab's chain gives the same partial sums from the translated CUDA as from the variant's WGSL,
 * for each workgroup size the variant and the adapter support. The kernels that finish with warp
 * shuffles need 32-lane subgroups: on another subgroup size (SwiftShader's is 4) they are skipped,
 * and the skip says why. The naive last warp races by design: on a GPU its sum is not defined, so
 * only the simulator (cuda.test.ts) compares it.
 */
import { describe, expect, it } from 'vitest';
import type { GpuExecutor } from '../../gpu/executor.ts';
import { sharedNodeGpu } from '../../gpu/node.ts';
import { randomU32, seededRandom } from '../../util/random.ts';
import { reduceCudaProgram, reduceTwinChain } from './cudaTwins.ts';
import { sumU32 } from './reference.ts';
import { REDUCE_VARIANTS, supportedWorkgroupSizes } from './variants.ts';

const gpu: GpuExecutor = await sharedNodeGpu();
const adapter = gpu.adapter!;
const subgroup = adapter.subgroupMinSize !== undefined && adapter.subgroupMinSize === adapter.subgroupMaxSize ? adapter.subgroupMinSize : undefined;

const N_TABLE = [1, 1000, 2 ** 16 + 3] as const;

describe(`the reduce lab's CUDA sources on Dawn (${adapter.name ?? 'adapter'}, subgroup size ${subgroup ?? 'varies'}), against the WGSL variants`, () => {
  for (const variant of REDUCE_VARIANTS) {
    const warp = reduceCudaProgram(variant).kernels.some((k) => k.usesWarpFunctions);
    if (variant.racy) {
      it.skip(`${variant.id} [skipped: a data race by design, its GPU result is not defined; compared on the simulator]`, () => {});
      continue;
    }
    if (warp && subgroup !== 32) {
      it.skip(`${variant.id} [skipped: warp shuffles need 32-lane warps; this adapter's subgroup size is ${subgroup ?? 'not fixed'}]`, () => {});
      continue;
    }
    it(variant.id, async () => {
      const sizes = supportedWorkgroupSizes(variant, adapter.limits.maxComputeInvocationsPerWorkgroup);
      expect(sizes.length).toBeGreaterThan(0);
      for (const workgroupSize of sizes) {
        for (const n of N_TABLE) {
          const input = randomU32(seededRandom(n), n);
          const passes = await reduceTwinChain(gpu, variant, input, workgroupSize);
          for (const [i, p] of passes.entries()) expect(p.cuda, `${variant.id} wg=${workgroupSize} n=${n} pass ${i + 1}`).toEqual(p.wgsl);
          expect(Object.values(passes[passes.length - 1]!.cuda)[0]![0], `${variant.id} wg=${workgroupSize} n=${n}: the sum`).toBe(sumU32(input));
        }
      }
    });
  }
});
