/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { m } from './messages.ts';
import { described, intField, listedIntField, MAX_STEP_ELEMENTS } from '../../workbench/lab.ts';
import { MAX_WORKGROUPS_PER_DIMENSION } from '../../kernel/types.ts';
import { ROW_LENGTHS } from './kernel.ts';

const nearest = (values: readonly number[], wanted: number) => values.reduce((best, v) => (Math.abs(v - wanted) < Math.abs(best - wanted) ? v : best), values[0]!);

const cols = listedIntField({
  key: 'n',
  label: () => m('param.cols'),
  max: 1 << 20,
  values: () => ROW_LENGTHS,
  instead(value) {
    const use = nearest(ROW_LENGTHS, value);
    return { value: use, notice: m('notice.cols', { lengths: ROW_LENGTHS.join(', '), use }) };
  },
  // N = 2 × the workgroup size: each invocation loads two elements of its row.
  invocations: (value) => value / 2,
});

const rows = intField({
  key: 'm',
  label: () => m('param.rows'),
  min: 1,
  max: MAX_WORKGROUPS_PER_DIMENSION,
  choices: (_variant, params) => [1, 2, 4, 8, 16, 32].filter((m) => m * Number(params.cols) <= MAX_STEP_ELEMENTS),
  resolve(value, _variant, params) {
    const most = Math.max(1, Math.floor(MAX_STEP_ELEMENTS / Number(params.cols)));
    return value <= most
      ? { value }
      : { value: most, notice: m('notice.rows', { n: value.toLocaleString('en'), cols: Number(params.cols), most }) };
  },
});

/** The lab's parameter spec: N first, so the rows resolver knows the row length. */
export const rowSumSpec = { cols, rows };

export const rowsumMeta = described(
  { id: 'rowsum', courseOrder: 2.5, params: rowSumSpec, variantCount: 2 },
  () => m('rowsum.title'),
  () => m('rowsum.summary'),
);
