/**
 * Top-k (course seed 002): the k largest of n i32. The seed's scheme keeps a sorted list per
 * invocation, merges the lists pairwise in a workgroup-memory tree and launches twice; its
 * insert_value drops repeats, so it finds the k largest *distinct* values, and the lab offers the
 * usual duplicates-kept top-k beside it. "Fast" rejects most values with one register comparison,
 * reads vec4s and merges lists linearly.
 */
import { defineLab, exactCheck, type LabInputs, type LabVariant } from '../lab.ts';
import { seededRandom } from '../../util/random.ts';
import { topkCases } from './cases.ts';
import { FAST_CUDA, SEED_CUDA } from './cuda.ts';
import { isTopkDistribution, topkInput } from './inputs.ts';
import { firstPass, groupsFor, isTopkVariant, runTopk, TOPK_FILES, topkPasses, type TopkVariant } from './kernel.ts';
import { topkMoments } from './moments.ts';
import { insertValue, LOWEST, topkReference, workgroupSizeFor } from './reference.ts';
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
];

const variantOf = (id: string): TopkVariant => {
  if (!isTopkVariant(id)) throw new RangeError(`The top-k lab has no variant “${id}”; use seed or fast.`);
  return id;
};


const optsOf = (p: TopkParams) => ({ k: p.k, distinct: p.semantics !== 'all' });
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
  stepRun: (variant, p, inputs, source) => firstPass(variantOf(variant), valuesOf(inputs), optsOf(p), source),
  runAll: (executor, variant, p, inputs) => runTopk(executor, variantOf(variant), valuesOf(inputs), optsOf(p)),
  check: (_variant, p, inputs, output) => exactCheck(output, topkReference(valuesOf(inputs), p.k, p.semantics !== 'all')),
  bench: {
    elements: (p) => p.n,
    at: (p, count) => ({ ...p, n: count }),
    passes: (variant, p) => topkPasses(variantOf(variant), benchValues(p.n), optsOf(p)),
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
    note: 'The bytes count each value read once: the read baseline moves the same. torch.topk on the same data: scripts/peers/topk_merge_peers.py.',
  },
  cases: topkCases,
  moments: topkMoments,
  metrics: (m, p) => {
    const wg = workgroupSizeFor(p.k);
    return [
      { label: 'Insert branches that split a warp', value: m.divergentBranches.toLocaleString('en'), hint: 'divergent branches of the stepped launch (pass 1, inserts and tree): lanes whose value enters their list against lanes whose value does not; the stage counts each lane’s accepted inserts' },
      { label: 'Merge levels', value: String(Math.log2(wg)), hint: `log₂ ${wg} invocations per workgroup, in each launch` },
      { label: 'Workgroup memory per workgroup', value: `${(wg * p.k * 4).toLocaleString('en')} B`, hint: `${wg} lists of k = ${p.k} i32 (the seed’s 256 × 20 would need 20,480 B, over WebGPU’s 16 KiB)` },
      { label: 'Passes', value: `2 launches, 1 read of the input`, hint: `pass 1: ${groupsFor(p.n, p.k)} workgroups; pass 2: one workgroup over their lists` },
    ];
  },
});
