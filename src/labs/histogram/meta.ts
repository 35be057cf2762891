/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { m } from './messages.ts';
import { catalogChoiceField, described, intField, MAX_STEP_ELEMENTS } from '../../workbench/lab.ts';
import { DISTRIBUTIONS } from './data.ts';

const LENGTHS = [1024, 4096, 16_384, 65_536];

const n = intField({
  key: 'n',
  label: () => m('param.n'),
  min: 1,
  max: 2 ** 28,
  choices: (_v, params) => [...new Set([...LENGTHS, Number(params.n ?? 4096)])].sort((a, b) => a - b),
  resolve: (value) =>
    value > MAX_STEP_ELEMENTS
      ? { value: MAX_STEP_ELEMENTS, notice: m('notice.n', { n: value.toLocaleString('en'), max: MAX_STEP_ELEMENTS.toLocaleString('en') }) }
      : { value },
});

/** 7 letter bins (the seed), 100 (not a multiple of the workgroup size), 16 and 256 byte bins. */
const BIN_CHOICES = [7, 16, 100, 256];

const bins = intField({
  key: 'bins',
  label: () => m('param.bins'),
  min: 1,
  max: 256,
  choices: (_v, params) => [...new Set([...BIN_CHOICES, Number(params.bins ?? 7)])].sort((a, b) => a - b),
});

const dist = catalogChoiceField(m, { key: 'dist', name: 'dist', valuePrefix: 'dist', values: DISTRIBUTIONS, fallback: 'letters' });

export const histogramSpec = { n, bins, dist };

export const histogramMeta = described(
  { id: 'histogram', courseOrder: 3.6, params: histogramSpec, variantCount: 8 },
  () => m('title'),
  () => m('summary'),
);
