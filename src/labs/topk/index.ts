/**
 * Top-k (course seed 002): the k largest of n i32. The seed's scheme keeps a sorted list per
 * invocation, merges the lists pairwise in a workgroup-memory tree and launches twice; its
 * insert_value drops repeats, so it finds the k largest *distinct* values, and the lab offers the
 * usual duplicates-kept top-k beside it. "Fast" rejects most values with one register comparison,
 * reads vec4s and merges lists linearly.
 */
import { defineLab, exactCheck, intField, MAX_STEP_ELEMENTS, shown, type LabInputs, type LabVariant, type ParamField } from '../lab.ts';
import { seededRandom } from '../../util/random.ts';
import { topkCases } from './cases.ts';
import { FAST_CUDA, SEED_CUDA } from './cuda.ts';
import { isTopkDistribution, TOPK_DISTRIBUTIONS, topkInput } from './inputs.ts';
import { firstPass, groupsFor, isTopkVariant, MAX_K, runTopk, TOPK_FILES, topkPasses, type TopkVariant } from './kernel.ts';
import { topkMoments } from './moments.ts';
import { insertValue, LOWEST, topkReference, workgroupSizeFor } from './reference.ts';
import { m } from './messages.ts';

/** n values, k kept, the distribution, and whether repeats are dropped (`distinct`) or kept (`all`), key `sem`. */
export type TopkParams = { readonly n: number; readonly k: number; readonly dist: string; readonly semantics: string };

const variants: LabVariant[] = [
  {
    id: 'seed',
    get title() {
      return m('seed.title');
    },
    get summary() {
      return m('seed.summary');
    },
    file: TOPK_FILES.seed.file,
    wgsl: TOPK_FILES.seed.wgsl,
    cuda: SEED_CUDA,
    workgroupSizes: [64, 128, 256],
    elementTypes: ['i32'],
    needsSubgroups: false,
  },
  {
    id: 'fast',
    get title() {
      return m('fast.title');
    },
    get summary() {
      return m('fast.summary');
    },
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

const n = intField({
  key: 'n',
  get label() {
    return m('param.n');
  },
  min: 0,
  max: 2 ** 28,
  choices: (_v, params) => [...new Set([0, 100, 1000, 4096, 10000, 65536, Number(params.n ?? 4096)])].sort((a, b) => a - b),
  resolve: (value) =>
    value > MAX_STEP_ELEMENTS
      ? { value: MAX_STEP_ELEMENTS, notice: m('notice.n', { n: value.toLocaleString('en'), max: MAX_STEP_ELEMENTS.toLocaleString('en') }) }
      : { value },
});

const k = intField({
  key: 'k',
  get label() {
    return m('param.k');
  },
  min: 1,
  max: 1_000_000,
  choices: (_v, params) => [...new Set([1, 4, 8, 16, 20, 32, 64, Number(params.k ?? 20)])].filter((x) => x <= MAX_K).sort((a, b) => a - b),
  resolve: (value) => (value <= MAX_K ? { value } : { value: MAX_K, notice: m('notice.k', { max: MAX_K }) }),
});

/** A choice among named values; `field` names the catalog's keys (`param.<field>`, `<field>.<value>`). */
function choiceField(key: string, field: 'dist' | 'sem', values: readonly string[], fallback: string): ParamField<string> {
  const label = (): string => m(`param.${field}`);
  const name = (v: string): string => {
    const id = `${field}.${v}`;
    return m.has(id) ? m(id) : v;
  };
  return {
    key,
    get label() {
      return label();
    },
    parse: (raw) => (/^[a-z-]{1,20}$/.test(raw) ? { value: raw } : { error: m('parse.choice', { label: label() }) }),
    choices: () => values,
    resolve: (value) =>
      values.includes(value) ? { value } : { value: fallback, notice: m('notice.choice', { label: label(), name: shown(value), names: values.join(', '), fallback: name(fallback) }) },
    show: name,
  };
}

const MODES = ['distinct', 'all'] as const;

export const topkSpec = {
  n,
  k,
  dist: choiceField('dist', 'dist', TOPK_DISTRIBUTIONS, 'random'),
  semantics: choiceField('sem', 'sem', MODES, 'distinct'),
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
  id: 'topk',
  courseOrder: 7.6,
  get title() {
    return m('topk.title');
  },
  get summary() {
    return m('topk.summary');
  },
  variants,
  defaultVariant: 'seed',
  params: topkSpec,
  defaults: { n: 4096, k: 20, dist: 'random', semantics: 'distinct' },
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
    get note() {
      return m('note');
    },
  },
  cases: topkCases,
  moments: topkMoments,
  metrics: (mt, p) => {
    const wg = workgroupSizeFor(p.k);
    return [
      { label: m('metric.branches'), value: mt.divergentBranches.toLocaleString('en'), hint: m('metric.branches.hint') },
      { label: m('metric.levels'), value: String(Math.log2(wg)), hint: m('metric.levels.hint', { wg }) },
      { label: m('metric.memory'), value: `${(wg * p.k * 4).toLocaleString('en')} B`, hint: m('metric.memory.hint', { wg, k: p.k }) },
      { label: m('metric.passes'), value: m('metric.passes.value'), hint: m('metric.passes.hint', { n: groupsFor(p.n, p.k) }) },
    ];
  },
});
