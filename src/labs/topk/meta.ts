/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { m } from './messages.ts';
import { choiceField, described, intField, MAX_STEP_ELEMENTS, type ParamField } from '../../workbench/lab.ts';
import { TOPK_DISTRIBUTIONS } from './inputs.ts';
import { isTopkVariant, MAX_K, supportsDistinct } from './kernel.ts';

const n = intField({
  key: 'n',
  label: () => m('param.n'),
  controlLabel: () => m('param.n.control'),
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
  label: () => m('param.k'),
  min: 1,
  max: 1_000_000,
  choices: (_v, params) => [...new Set([1, 4, 8, 16, 20, 32, 64, Number(params.k ?? 20)])].filter((x) => x <= MAX_K).sort((a, b) => a - b),
  resolve: (value) => (value <= MAX_K ? { value } : { value: MAX_K, notice: m('notice.k', { max: MAX_K }) }),
});

/** A choice among named values; `field` names the catalog's keys (`param.<field>`, `<field>.<value>`). */
function namedChoice(key: string, field: 'dist' | 'sem', values: readonly string[], fallback: string): ParamField<string> {
  const label = (): string => m(`param.${field}`);
  const name = (v: string): string => m.find(`${field}.${v}`) ?? v;
  return choiceField({
    key,
    label: () => label(),
    values,
    fallback,
    parseError: () => m('parse.choice', { label: label() }),
    notice: (shownName) => m('notice.choice', { label: label(), name: shownName, names: values.join(', '), fallback: name(fallback) }),
    show: name,
  });
}

const MODES = ['distinct', 'all'] as const;

export const topkSpec = {
  n,
  k,
  dist: namedChoice('dist', 'dist', TOPK_DISTRIBUTIONS, 'random'),
  semantics: semanticsField(),
};

/** The semantics, with `distinct` turned into duplicates kept for a variant that cannot drop repeats. */
function semanticsField(): ParamField<string> {
  const base = namedChoice('sem', 'sem', MODES, 'distinct');
  return {
    ...base,
    get label() {
      return base.label;
    },
    choices: (variant) => (isTopkVariant(variant.id) && !supportsDistinct(variant.id) ? ['all'] : MODES),
    resolve(value, variant, params) {
      const r = base.resolve(value, variant, params);
      if (r.value !== 'distinct' || !isTopkVariant(variant.id) || supportsDistinct(variant.id)) return r;
      return { value: 'all', notice: m('notice.keepsDuplicates', { variant: variant.title }) };
    },
  };
}

export const topkMeta = described(
  { id: 'topk', courseOrder: 7.6, params: topkSpec, variantCount: 4 },
  () => m('topk.title'),
  () => m('topk.summary'),
);
