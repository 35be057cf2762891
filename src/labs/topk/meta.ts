/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { intField, MAX_STEP_ELEMENTS, shown, type ParamField } from '../lab.ts';
import { TOPK_DISTRIBUTION_NAMES, TOPK_DISTRIBUTIONS } from './inputs.ts';
import { isTopkVariant, MAX_K, supportsDistinct } from './kernel.ts';

const n = intField({
  key: 'n',
  label: 'size n',
  min: 0,
  max: 2 ** 28,
  choices: (_v, params) =>
    [...new Set([0, 100, 1000, 4096, 10000, 65536, Number(params.n ?? 4096)])].sort((a, b) => a - b),
  resolve: (value) =>
    value > MAX_STEP_ELEMENTS
      ? {
          value: MAX_STEP_ELEMENTS,
          notice: `Stepping through ${value.toLocaleString('en')} values would trace too much; simulating ${MAX_STEP_ELEMENTS.toLocaleString('en')}. The timings go to larger sizes.`,
        }
      : { value },
});

const k = intField({
  key: 'k',
  label: 'k',
  min: 1,
  max: 1_000_000,
  choices: (_v, params) =>
    [...new Set([1, 4, 8, 16, 20, 32, 64, Number(params.k ?? 20)])]
      .filter((x) => x <= MAX_K)
      .sort((a, b) => a - b),
  resolve: (value) =>
    value <= MAX_K
      ? { value }
      : { value: MAX_K, notice: `The lists keep at most ${MAX_K} values each; using k = ${MAX_K}.` },
});

function choiceField(
  key: string,
  label: string,
  values: readonly string[],
  names: Readonly<Record<string, string>>,
  fallback: string,
): ParamField<string> {
  return {
    key,
    label,
    parse: (raw) => (/^[a-z-]{1,20}$/.test(raw) ? { value: raw } : { error: `not a ${label}` }),
    choices: () => values,
    resolve: (value) =>
      values.includes(value)
        ? { value }
        : {
            value: fallback,
            notice: `The top-k lab has no ${label} “${shown(value)}”; use ${values.join(', ')}. Showing ${names[fallback]}.`,
          },
    show: (v) => names[v] ?? v,
  };
}

const MODES = ['distinct', 'all'] as const;
const MODE_NAMES = { distinct: 'distinct values (the seed)', all: 'duplicates kept' };

export const topkSpec = {
  n,
  k,
  dist: choiceField('dist', 'distribution', TOPK_DISTRIBUTIONS, TOPK_DISTRIBUTION_NAMES, 'random'),
  semantics: semanticsField(),
};

/** The semantics, with `distinct` turned into duplicates kept for a variant that cannot drop repeats. */
function semanticsField(): ParamField<string> {
  const base = choiceField('sem', 'semantics', MODES, MODE_NAMES, 'distinct');
  return {
    ...base,
    choices: (variant) => (isTopkVariant(variant.id) && !supportsDistinct(variant.id) ? ['all'] : MODES),
    resolve(value, variant, params) {
      const r = base.resolve(value, variant, params);
      if (r.value !== 'distinct' || !isTopkVariant(variant.id) || supportsDistinct(variant.id)) return r;
      return {
        value: 'all',
        notice: `${variant.title} counts values in histograms, so it cannot drop repeats: showing the top k with duplicates kept. The seed and fast variants compute distinct values.`,
      };
    },
  };
}

export const topkMeta = {
  id: 'topk',
  courseOrder: 7.6,
  title: 'Top-k (sorted lists and a merge tree)',
  summary:
    'Find the k largest of n values: a sorted list per invocation, a pairwise merge tree in workgroup memory and two launches, as in the course seed, with its distinct-values semantics beside the usual top-k, a faster version, and a radix select that reads the input once and keeps only what beats a rising floor.',
  params: topkSpec,
  variantCount: 3,
} as const;
