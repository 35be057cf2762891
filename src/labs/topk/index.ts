/**
 * Top-k (course seed 002): the k largest of n i32. The seed's scheme keeps a sorted list per
 * invocation, merges the lists pairwise in a workgroup-memory tree and launches twice; its
 * insert_value drops repeats, so it finds the k largest *distinct* values, and the lab offers the
 * usual duplicates-kept top-k beside it. "Fast" rejects most values with one register comparison,
 * reads vec4s and merges lists linearly. "Radix" reads the input once, keeps only the values above
 * a workgroup's rising floor, and raises the floor by a radix select in workgroup memory.
 */
import { defineLab, described, OPENING_MOMENT, exactCheck, type LabInputs, type LabVariant, variantFrom } from '../../workbench/lab.ts';
import { seededRandom } from '../../util/random.ts';
import { topkCases } from './cases.ts';
import { FAST_CUDA, RADIX_AHEAD_CUDA, RADIX_CUDA, SEED_CUDA } from './cuda.ts';
import { isTopkDistribution, topkInput } from './inputs.ts';
import { firstPass, groupsFor, isRadix, isTopkVariant, RADIX_AHEAD_GROUPS, RADIX_CUT_KEEP, RADIX_POOL, RADIX_WG, runTopk, supportsDistinct, TOPK_FILES, topkPasses, workgroupOf, type TopkVariant } from './kernel.ts';
import { topkMoments } from './moments.ts';
import { insertValue, LOWEST, topkReference } from './reference.ts';
import { m } from './messages.ts';
import { topkMeta } from './meta.ts';
import { TOPK_EXERCISES } from './exercises.ts';

export { topkSpec } from './meta.ts';

/** n values, k kept, the distribution, and whether repeats are dropped (`distinct`) or kept (`all`), key `sem`. */
export type TopkParams = { readonly n: number; readonly k: number; readonly dist: string; readonly semantics: string };

const variant = (id: TopkVariant, cuda: string, workgroupSizes: readonly number[]): LabVariant =>
  variantFrom(m, '', { id, file: TOPK_FILES[id].file, wgsl: TOPK_FILES[id].wgsl, cuda, workgroupSizes, elementTypes: ['i32'], needsSubgroups: false });

const variants: LabVariant[] = [
  variant('seed', SEED_CUDA, [64, 128, 256]),
  variant('fast', FAST_CUDA, [64, 128, 256]),
  variant('radix', RADIX_CUDA, [RADIX_WG]),
  // Its texts are under `radixAhead.` and name the cut it keeps and its workgroups.
  described(
    { id: 'radix-ahead', file: TOPK_FILES['radix-ahead'].file, wgsl: TOPK_FILES['radix-ahead'].wgsl, cuda: RADIX_AHEAD_CUDA, workgroupSizes: [RADIX_WG], elementTypes: ['i32'], needsSubgroups: false },
    () => m('radixAhead.title'),
    () => m('radixAhead.summary', { keep: RADIX_CUT_KEEP, groups: RADIX_AHEAD_GROUPS }),
  ),
];

const variantOf = (id: string): TopkVariant => {
  if (!isTopkVariant(id)) throw new RangeError(`The top-k lab has no variant “${id}”; use seed, fast, radix or radix-ahead.`);
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

export const topkLab = defineLab<'topk', TopkParams>(topkMeta, {
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
    get note() {
      return m('note');
    },
  },
  cases: topkCases,
  moments: {
    ...topkMoments,
    // The inserts done and the first level of the merge tree begun.
    [OPENING_MOMENT]: (index) => topkMoments['merge-level'](index, '1'),
  },
  metrics: (mt, p, traced) => {
    const variant = traced && isTopkVariant(traced.variant) ? traced.variant : 'seed';
    const wg = workgroupOf(variant, p.k);
    const passes = { label: m('metric.passes'), value: m('metric.passes.value'), hint: m('metric.passes.hint', { n: groupsFor(p.n, p.k, variant) }) };
    if (variant === 'radix') {
      return [
        { label: m('metric.radixBranches'), value: mt.divergentBranches.toLocaleString('en'), hint: m('metric.radixBranches.hint') },
        { label: m('metric.selectPasses'), value: '4', hint: m('metric.selectPasses.hint') },
        { label: m('metric.memory'), value: `${(RADIX_POOL * 4 + 2 * 256 * 4 + 16 * 4 + 64 * 4 + 24).toLocaleString('en')} B`, hint: m('metric.radixMemory.hint', { pool: RADIX_POOL }) },
        passes,
      ];
    }
    if (isRadix(variant)) {
      return [
        { label: m('metric.radixBranches'), value: mt.divergentBranches.toLocaleString('en'), hint: m('metric.radixBranches.hint') },
        { label: m('metric.selectPasses'), value: '1–4', hint: m('metric.aheadPasses.hint', { keep: RADIX_CUT_KEEP }) },
        { label: m('metric.memory'), value: `${(RADIX_POOL * 4 + RADIX_CUT_KEEP * 4 + 256 * 4 + 16 * 4 + 28).toLocaleString('en')} B`, hint: m('metric.aheadMemory.hint', { pool: RADIX_POOL, keep: RADIX_CUT_KEEP }) },
        passes,
      ];
    }
    return [
      { label: m('metric.branches'), value: mt.divergentBranches.toLocaleString('en'), hint: m('metric.branches.hint') },
      { label: m('metric.levels'), value: String(Math.log2(wg)), hint: m('metric.levels.hint', { wg }) },
      { label: m('metric.memory'), value: `${(wg * p.k * 4).toLocaleString('en')} B`, hint: m('metric.memory.hint', { wg, k: p.k }) },
      passes,
    ];
  },
});
