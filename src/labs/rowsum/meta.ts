/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { intField, MAX_STEP_ELEMENTS } from '../lab.ts';
import { MAX_WORKGROUPS_PER_DIMENSION } from '../../kernel/types.ts';
import { ROW_LENGTHS } from './kernel.ts';

const nearest = (values: readonly number[], wanted: number) =>
  values.reduce((best, v) => (Math.abs(v - wanted) < Math.abs(best - wanted) ? v : best), values[0]!);

const cols = intField({
  key: 'n',
  label: 'columns N',
  min: 1,
  max: 1 << 20,
  choices: () => ROW_LENGTHS,
  resolve(value) {
    if ((ROW_LENGTHS as readonly number[]).includes(value)) return { value };
    const use = nearest(ROW_LENGTHS, value);
    return {
      value: use,
      notice: `One workgroup sums a row loading two elements per invocation, so N must be one of ${ROW_LENGTHS.join(', ')}; using ${use}.`,
    };
  },
});

const rows = intField({
  key: 'm',
  label: 'rows M',
  min: 1,
  max: MAX_WORKGROUPS_PER_DIMENSION,
  choices: (_variant, params) =>
    [1, 2, 4, 8, 16, 32].filter((m) => m * Number(params.cols) <= MAX_STEP_ELEMENTS),
  resolve(value, _variant, params) {
    const most = Math.max(1, Math.floor(MAX_STEP_ELEMENTS / Number(params.cols)));
    return value <= most
      ? { value }
      : {
          value: most,
          notice: `Stepping through ${value.toLocaleString('en')} rows of ${Number(params.cols)} would trace too much; simulating ${most}.`,
        };
  },
});

/** The lab's parameter spec: N first, so the rows resolver knows the row length. */
export const rowSumSpec = { cols, rows };

export const rowsumMeta = {
  id: 'rowsum',
  courseOrder: 2.5,
  title: 'Row sum (one workgroup per row)',
  summary:
    'Sum every row of an M × N matrix, one workgroup per row with two elements per invocation: a growing stride that splits every warp against a halving one that keeps whole warps busy.',
  params: rowSumSpec,
  variantCount: 2,
} as const;
