/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { intField, MAX_STEP_ELEMENTS, shown, type ParamField } from '../lab.ts';
import { DISTRIBUTION_LABELS, DISTRIBUTIONS, isDistribution } from './data.ts';

const LENGTHS = [1024, 4096, 16_384, 65_536];

const n = intField({
  key: 'n',
  label: 'bytes n',
  min: 1,
  max: 2 ** 28,
  choices: (_v, params) => [...new Set([...LENGTHS, Number(params.n ?? 4096)])].sort((a, b) => a - b),
  resolve: (value) =>
    value > MAX_STEP_ELEMENTS
      ? {
          value: MAX_STEP_ELEMENTS,
          notice: `Stepping through ${value.toLocaleString('en')} bytes would trace too much; simulating ${MAX_STEP_ELEMENTS.toLocaleString('en')}. The timings go further.`,
        }
      : { value },
});

/** 7 letter bins (the seed), 100 (not a multiple of the workgroup size), 16 and 256 byte bins. */
const BIN_CHOICES = [7, 16, 100, 256];

const bins = intField({
  key: 'bins',
  label: 'bins',
  min: 1,
  max: 256,
  choices: (_v, params) => [...new Set([...BIN_CHOICES, Number(params.bins ?? 7)])].sort((a, b) => a - b),
});

const dist: ParamField<string> = {
  key: 'dist',
  label: 'data',
  parse: (raw) =>
    isDistribution(raw) ? { value: raw } : { error: `expected one of ${DISTRIBUTIONS.join(', ')}` },
  choices: () => DISTRIBUTIONS,
  resolve: (value) =>
    isDistribution(value)
      ? { value }
      : { value: 'letters', notice: `There is no data “${shown(value)}”; using letters.` },
  show: (v) => (isDistribution(v) ? DISTRIBUTION_LABELS[v] : v),
};

export const histogramSpec = { n, bins, dist };

export const histogramMeta = {
  id: 'histogram',
  courseOrder: 3.6,
  title: 'Histogram (atomics and privatisation)',
  summary:
    'Count a long text into bins with atomic additions: global atomics first, then private bins in workgroup memory merged at the end, runs aggregated, and a private copy per warp. Watch lanes queue on one bin.',
  params: histogramSpec,
  variantCount: 7,
} as const;
