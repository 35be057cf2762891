/**
 * Every reduction variant on the GPU (Dawn; SwiftShader where there is no GPU) against the CPU
 * reference, for N in {1, 31, 1000, 2^16, 2^20} and every workgroup size the variant and the
 * adapter support. u32 everywhere; i32 and f32 on a subset (see each block for its tolerance).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { GpuExecutor } from '../../gpu/executor.ts';
import { sharedNodeGpu } from '../../gpu/node.ts';
import { dataMismatch } from '../../gpu/testkit.ts';
import { randomF32, randomU32, seededRandom } from '../../util/random.ts';
import { reduceCases } from './cases.ts';
import { passPlan, reduce, timingPasses } from './driver.ts';
import {
  additionTreeHeight,
  f32ErrorBound,
  integerSum,
  kernelOrderSumF32,
  sumF64,
  sumU32,
} from './reference.ts';
import { REDUCE_VARIANTS, supportedWorkgroupSizes, type ReduceVariant } from './variants.ts';

/**
 * Sizes up to 2^18 + 5: it takes the same number of passes as 2^20 did at every variant and
 * workgroup size (four for one element per lane at 64 lanes, down to two at 1 024; one for the
 * atomic variant), with a ragged last workgroup in each pass, and is not a multiple of 4 (the vec4
 * variants pad), at a quarter of the work. More than 65 535 workgroups is the folded-grid test's.
 */
const N_TABLE = [1, 31, 1000, 2 ** 16, 2 ** 18 + 5] as const;

let gpu: GpuExecutor;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
});

const correct = REDUCE_VARIANTS.filter((v) => !v.racy);
/** Whether this adapter can run the variant at all (subgroups). */
const runnable = (v: ReduceVariant): boolean => !v.needsSubgroups || gpu.adapter!.hasSubgroups;
const sizesOn = (v: ReduceVariant): number[] =>
  supportedWorkgroupSizes(v, gpu.adapter!.limits.maxComputeInvocationsPerWorkgroup);

// Inputs are made once per N and shared by every variant and workgroup size.
const u32Inputs = new Map(N_TABLE.map((n) => [n, randomU32(seededRandom(n), n)]));

describe('reduce on the GPU, u32: every variant, N and workgroup size', () => {
  it.each(correct.map((v) => [v.id, v] as const))('%s', async (_id, variant) => {
    if (!runnable(variant)) return; // no subgroups on this adapter: nothing to run
    const sizes = sizesOn(variant);
    expect(sizes.length).toBeGreaterThan(0);
    for (const workgroupSize of sizes) {
      for (const n of N_TABLE) {
        const input = u32Inputs.get(n)!;
        const { value, passes } = await reduce(gpu, variant.id, input, { workgroupSize });
        expect(value, `${variant.id} wg=${workgroupSize} n=${n}`).toBe(sumU32(input));
        expect(passes).toHaveLength(passPlan(variant.id, n, { workgroupSize }).length);
      }
    }
  });

  it('leaves the caller input untouched, even for the in-place variant', async () => {
    const input = randomU32(seededRandom(5), 5000);
    const copy = input.slice();
    const { passes } = await reduce(gpu, 'global-inplace', input, { workgroupSize: 64 });
    expect(dataMismatch(input, copy)).toBeNull();
    expect(passes[0]!.bindings[0]![0]).toBe(input);
  });
});

describe('reduce on the GPU, folded grids', () => {
  // A per-dimension limit of 100 folds a few hundred workgroups into 2-D, with padding workgroups
  // in the last row: the same path as > 65 535 workgroups on real sizes, at a fraction of the cost.
  it.each(correct.filter((v) => v.foldsWorkgroups).map((v) => [v.id, v] as const))(
    '%s',
    async (_id, variant) => {
      if (!runnable(variant)) return;
      const n = 2 ** 16 + 3;
      const params = { workgroupSize: 64, maxWorkgroupsPerDimension: 100 };
      const [first] = passPlan(variant.id, n, params);
      expect(first!.dispatch[1]).toBeGreaterThan(1);
      const input = randomU32(seededRandom(11), n);
      expect((await reduce(gpu, variant.id, input, params)).value).toBe(sumU32(input));
    },
  );
});

describe('reduce on the GPU, i32 (wrap-around, exact)', () => {
  it.each(correct.map((v) => [v.id, v] as const))('%s', async (_id, variant) => {
    if (!runnable(variant)) return;
    const workgroupSize = Math.min(...sizesOn(variant));
    for (const n of [31, 1000, 2 ** 16]) {
      // The whole i32 range, so partial sums overflow and wrap.
      const input = new Int32Array(randomU32(seededRandom(n + 1), n).buffer);
      const { value } = await reduce(gpu, variant.id, input, { workgroupSize });
      expect(value, `${variant.id} n=${n}`).toBe(integerSum(input));
    }
  });
});

describe('reduce on the GPU, f32', () => {
  // Without subgroupAdd the WGSL fixes the order of every addition and WGSL rounds each f32
  // addition correctly, so the GPU must equal the CPU sum taken in the kernel's order bit for
  // bit. With subgroupAdd the GPU orders the last 64 values itself. Every variant must lie within
  // the worst-case bound γ_h·Σ|x| of the double-precision sum (h = height of the addition tree).
  // vec4-atomic has no f32 form (WGSL has no floating-point atomics); its catalogue says so.
  it.each(correct.filter((v) => v.elementTypes.includes('f32')).map((v) => [v.id, v] as const))('%s', async (_id, variant) => {
    if (!runnable(variant)) return;
    const sizes = sizesOn(variant);
    for (const workgroupSize of [sizes[0]!, sizes[sizes.length - 1]!]) {
      for (const n of [1000, 2 ** 16]) {
        const input = randomF32(seededRandom(n + 2), n, -1, 1);
        const params = { workgroupSize, subgroupSize: gpu.adapter!.subgroupMinSize ?? 32 };
        const { value } = await reduce(gpu, variant.id, input, params);
        const where = `${variant.id} wg=${workgroupSize} n=${n}`;
        const ordered = kernelOrderSumF32(variant.id, input, params);
        if (ordered.exact) expect(value, where).toBe(ordered.value);
        const bound = f32ErrorBound(input, additionTreeHeight(variant.id, n, params));
        expect(Math.abs(value - sumF64(input)), where).toBeLessThanOrEqual(bound);
      }
    }
  });
});

describe('the naive warp-synchronous variant (a data race on purpose)', () => {
  it('compiles and runs on every workgroup size, and is right when no two lanes exchange values', async () => {
    const variant = REDUCE_VARIANTS.find((v) => v.racy)!;
    for (const workgroupSize of sizesOn(variant)) {
      for (const n of [1, 3]) {
        const input = randomU32(seededRandom(n), n);
        expect((await reduce(gpu, variant.id, input, { workgroupSize })).value).toBe(sumU32(input));
      }
      // Larger inputs: a number comes back; whether it is the sum depends on the device.
      const { value } = await reduce(gpu, variant.id, u32Inputs.get(1000)!, { workgroupSize });
      expect(Number.isInteger(value)).toBe(true);
    }
  });
});

describe('kernel cases (one pass each)', () => {
  // The u32 cases the cross-executor test runs through the GPU and the simulator: on the GPU,
  // each workgroup's partial sum must be the sum of its slice (block layout), and the partials
  // must total the input (both layouts).
  const u32Cases = reduceCases.filter((c) => c.name.includes(' u32 '));
  it.each(u32Cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    if (c.subgroups && !gpu.adapter!.hasSubgroups) return;
    const variant = REDUCE_VARIANTS.find((v) => v.file === c.file)!;
    const workgroupSize = Number(/wg=(\d+)/.exec(c.name)![1]);
    for (const n of c.sizes) {
      const run = c.build(seededRandom(n), n);
      const input = (run.bindings[0]![0] as Uint32Array).subarray(0, n);
      const out = (await gpu.run(run))[0]![1] as Uint32Array;
      const where = `${c.name} n=${n}`;
      expect(sumU32(out), where).toBe(sumU32(input));
      if (variant.layout === 'block') {
        const per = workgroupSize * variant.elementsPerInvocation;
        expect(out.length, where).toBe(Math.ceil(n / per));
        out.forEach((partial, g) =>
          expect(partial, `${where} workgroup ${g}`).toBe(sumU32(input.subarray(g * per, (g + 1) * per))),
        );
      }
    }
  });
});

describe('timing chains', () => {
  it('gives the pass chain of a reduction and times it on the GPU', async () => {
    const chain = timingPasses('first-add-during-load', 2 ** 16, { workgroupSize: 64 });
    expect(chain.map((r) => r.workgroups[0])).toEqual([512, 4, 1]);
    const t = await gpu.time(chain, { repeats: 3, minPassMs: 0.5 });
    expect(t.medianMs).toBeGreaterThan(0);
  });
});
