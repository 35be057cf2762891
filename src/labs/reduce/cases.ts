/**
 * The reduction kernels as `KernelCase`s: one case per variant × element type × workgroup size
 * (64 and 256), each building ONE pass (n values → one partial sum per workgroup) from seeded
 * input, so the cross-executor test can run it on the GPU and in the simulator.
 */
import type { KernelCase } from '../../kernel/cases.ts';
import type { BindingData } from '../../kernel/types.ts';
import { randomF32, randomU32 } from '../../util/random.ts';
import type { ElementType } from '../../workbench/labTypes.ts';
import { passPlan, passRun } from './driver.ts';
import { padToVec4 } from '../../workbench/labTypes.ts';
import { REDUCE_VARIANTS, type ReduceVariant } from './variants.ts';

/** Element counts: 1, a partial warp, partial workgroups, several workgroups with a ragged tail. */
const SIZES = [1, 31, 64, 100, 256, 1000, 4097] as const;

/**
 * The naive warp-synchronous variant races once two invocations exchange non-zero values. With at
 * most 3 elements (all in lanes 0..2, every other word zero) each racy read sees the same value
 * before and after the write it races with, so both executors must agree; beyond that they need not.
 */
const RACE_FREE_SIZES = [1, 3] as const;

const CASE_WORKGROUP_SIZES = [64, 256] as const;

/**
 * f32 inputs are drawn from [0, 1) so no cancellation hides rounding: for the subgroup variants
 * the GPU adds the last ≤ 64 values in an order of its choosing. Reordering a sum of k
 * non-negative terms moves it by at most about 2·(k − 1)·u·S, so with the 4- to 32-lane
 * subgroups seen so far the two executors stay within 64 ulps of each other.
 */
const SUBGROUP_F32_ULP_BOUND = 64;

function randomInput(rng: () => number, type: ElementType, n: number): BindingData {
  if (type === 'f32') return randomF32(rng, n, 0, 1);
  const words = randomU32(rng, n);
  return type === 'u32' ? words : new Int32Array(words.buffer);
}

function reduceCase(variant: ReduceVariant, type: ElementType, workgroupSize: number): KernelCase {
  const params = { workgroupSize };
  return {
    file: variant.file,
    name: `reduce/${variant.id} ${type} wg=${workgroupSize}`,
    sizes: variant.racy ? RACE_FREE_SIZES : SIZES,
    ...(variant.needsSubgroups ? { subgroups: true } : {}),
    ...(variant.needsSubgroups && type === 'f32' ? { f32UlpBound: SUBGROUP_F32_ULP_BOUND } : {}),
    build: (rng, n) => {
      const raw = randomInput(rng, type, n);
      const input = variant.layout === 'grid-stride' ? padToVec4(raw) : raw;
      const first = passPlan(variant.id, n, params)[0]!;
      return passRun(variant.id, type, first, input, params);
    },
  };
}

export const reduceCases: KernelCase[] = REDUCE_VARIANTS.flatMap((variant) =>
  variant.elementTypes.flatMap((type) =>
    CASE_WORKGROUP_SIZES.filter((wg) => variant.workgroupSizes.includes(wg)).map((wg) =>
      reduceCase(variant, type, wg),
    ),
  ),
);
