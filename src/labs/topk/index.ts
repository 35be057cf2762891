/**
 * Top-k (course seed 002): the k largest of n i32. The seed's scheme keeps a sorted list per
 * invocation, merges the lists pairwise in a workgroup-memory tree and launches twice; its
 * insert_value drops repeats, so it finds the k largest *distinct* values, and the lab offers the
 * usual duplicates-kept top-k beside it. "Fast" rejects most values with one register comparison,
 * reads vec4s and merges lists linearly. "Radix" reads the input once, keeps only the values above
 * a workgroup's rising floor, and raises the floor by a radix select in workgroup memory.
 */
import { defineLab, exactCheck, type LabInputs, type LabVariant } from '../lab.ts';
import { seededRandom } from '../../util/random.ts';
import { topkCases } from './cases.ts';
import { FAST_CUDA, RADIX_CUDA, SEED_CUDA } from './cuda.ts';
import { isTopkDistribution, topkInput } from './inputs.ts';
import { firstPass, groupsFor, isTopkVariant, RADIX_POOL, RADIX_WG, runTopk, supportsDistinct, TOPK_FILES, topkPasses, workgroupOf, type TopkVariant } from './kernel.ts';
import { topkMoments } from './moments.ts';
import { insertValue, LOWEST, topkReference } from './reference.ts';
import { topkMeta } from './meta.ts';
import { TOPK_EXERCISES } from './exercises.ts';

export { topkSpec } from './meta.ts';

/** n values, k kept, the distribution, and whether repeats are dropped (`distinct`) or kept (`all`), key `sem`. */
export type TopkParams = { readonly n: number; readonly k: number; readonly dist: string; readonly semantics: string };

const variants: LabVariant[] = [
  {
    id: 'seed',
    title: 'The seed’s scheme: insert, tree merge, two launches',
    summary:
      'Each invocation inserts its values into a sorted list of k in its own column of workgroup memory; the lower half of the workgroup then inserts the upper half’s lists, level by level, and a second launch merges the workgroups’ lists. Every merge step is k inserts of up to k shifts.',
    file: TOPK_FILES.seed.file,
    wgsl: TOPK_FILES.seed.wgsl,
    cuda: SEED_CUDA,
    workgroupSizes: [64, 128, 256],
    elementTypes: ['i32'],
    needsSubgroups: false,
  },
  {
    id: 'fast',
    title: 'Faster: register threshold, vec4 loads, linear merge',
    summary:
      'The same two launches, but each invocation keeps its list’s smallest value in a register, so almost every value costs one comparison; values arrive eight at a time (two vec4 loads in flight); and two lists merge in 2k steps, not k inserts.',
    file: TOPK_FILES.fast.file,
    wgsl: TOPK_FILES.fast.wgsl,
    cuda: FAST_CUDA,
    workgroupSizes: [64, 128, 256],
    elementTypes: ['i32'],
    needsSubgroups: false,
  },
  {
    id: 'radix',
    title: 'Radix select: one read, a rising floor, duplicates kept',
    summary:
      'Each workgroup of 256 keeps only the values above its floor in a pool in workgroup memory, so almost every value costs one comparison. When the pool could overflow, a radix select (four 8-bit histograms with suffix sums) finds the pool’s k-th value, keeps exactly the k largest and raises the floor to it. A second launch does the same over the workgroups’ lists. Histograms count values, so this variant keeps duplicates.',
    file: TOPK_FILES.radix.file,
    wgsl: TOPK_FILES.radix.wgsl,
    cuda: RADIX_CUDA,
    workgroupSizes: [RADIX_WG],
    elementTypes: ['i32'],
    needsSubgroups: false,
  },
];

const variantOf = (id: string): TopkVariant => {
  if (!isTopkVariant(id)) throw new RangeError(`The top-k lab has no variant “${id}”; use seed, fast or radix.`);
  return id;
};

/** The semantics a variant computes: the radix select always keeps duplicates. */
const distinctFor = (variant: TopkVariant, p: TopkParams) => p.semantics !== 'all' && supportsDistinct(variant);
const optsOf = (variant: TopkVariant, p: TopkParams) => ({ k: p.k, distinct: distinctFor(variant, p) });
const valuesOf = (inputs: LabInputs) => inputs.input as Int32Array;

/** Bench data: a deterministic scramble over the whole i32 range, as random as the timing needs. */
function benchValues(count: number): Int32Array {
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = Math.imul(i, 0x9e3779b1) ^ (i >>> 7);
  return out;
}

export const topkLab = defineLab<'topk', TopkParams>({
  ...topkMeta,
  variants,
  defaultVariant: 'seed',
  defaults: { n: 4096, k: 20, dist: 'random', semantics: 'distinct' },
  exercises: TOPK_EXERCISES,
  inputs: (p, seed) => ({ input: topkInput(seededRandom(seed), p.n, isTopkDistribution(p.dist) ? p.dist : 'random') }),
  stepRun: (variant, p, inputs, source) => firstPass(variantOf(variant), valuesOf(inputs), optsOf(variantOf(variant), p), source),
  runAll: (executor, variant, p, inputs) => runTopk(executor, variantOf(variant), valuesOf(inputs), optsOf(variantOf(variant), p)),
  check: (variant, p, inputs, output) => exactCheck(output, topkReference(valuesOf(inputs), p.k, distinctFor(variantOf(variant), p))),
  bench: {
    elements: (p) => p.n,
    at: (p, count) => ({ ...p, n: count }),
    passes: (variant, p) => topkPasses(variantOf(variant), benchValues(p.n), optsOf(variantOf(variant), p)),
    // Each value read once; the k results are negligible.
    bytes: (p) => 4 * p.n,
    // The seed's cpu_result_topk: one list, insert_value over every value.
    cpu(inputs, p) {
      const list = new Int32Array(p.k).fill(LOWEST);
      const values = valuesOf(inputs);
      const distinct = p.semantics !== 'all';
      for (let i = 0; i < values.length; i++) insertValue(list, values[i]!, distinct);
      return list[0]!;
    },
    note: 'The bytes count each value read once: the read baseline moves the same. The seed and fast rows compute the default semantics (distinct values); radix keeps duplicates, as torch.topk does. torch.topk on the same data: scripts/peers/topk_merge_peers.py.',
  },
  cases: topkCases,
  moments: topkMoments,
  metrics: (m, p, traced) => {
    const variant = traced && isTopkVariant(traced.variant) ? traced.variant : 'seed';
    const wg = workgroupOf(variant, p.k);
    const passes = { label: 'Passes', value: `2 launches, 1 read of the input`, hint: `pass 1: ${groupsFor(p.n, p.k, variant)} workgroups; pass 2: one workgroup over their lists` };
    if (variant === 'radix') {
      return [
        { label: 'Branches that split a warp', value: m.divergentBranches.toLocaleString('en'), hint: 'divergent branches of the stepped launch: lanes whose value enters the pool against lanes whose value does not, and the histogram’s matching keys' },
        { label: 'Select passes per cut', value: '4', hint: 'radix select over the 32-bit key, 8 bits a pass: a 256-bin histogram and its suffix sums (through 16 group sums) each, five barriers a pass' },
        { label: 'Workgroup memory per workgroup', value: `${(RADIX_POOL * 4 + 2 * 256 * 4 + 16 * 4 + 64 * 4 + 24).toLocaleString('en')} B`, hint: `a pool of ${RADIX_POOL} values, 256 bins and their suffix sums, 16 group sums, 64 values above the k-th, and counters` },
        passes,
      ];
    }
    return [
      { label: 'Insert branches that split a warp', value: m.divergentBranches.toLocaleString('en'), hint: 'divergent branches of the stepped launch (pass 1, inserts and tree): lanes whose value enters their list against lanes whose value does not; the stage counts each lane’s accepted inserts' },
      { label: 'Merge levels', value: String(Math.log2(wg)), hint: `log₂ ${wg} invocations per workgroup, in each launch` },
      { label: 'Workgroup memory per workgroup', value: `${(wg * p.k * 4).toLocaleString('en')} B`, hint: `${wg} lists of k = ${p.k} i32 (the seed’s 256 × 20 would need 20,480 B, over WebGPU’s 16 KiB)` },
      passes,
    ];
  },
});
