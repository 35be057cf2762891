/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { m } from './messages.ts';
import { catalogChoiceField, described, intField, workgroupSizeField } from '../../workbench/lab.ts';
import { laplacianSide, MATRIX_KINDS } from './formats.ts';

/** The most rows the step-through simulates. */
export const MAX_STEP_ROWS = 4096;
const ROW_CHOICES = [16, 32, 64, 256, 1024, 4096];
const SQUARE_CHOICES = [16, 64, 256, 1024, 4096];

const kind = catalogChoiceField(m, { key: 'mat', name: 'kind', valuePrefix: 'matrix', values: MATRIX_KINDS, fallback: 'seed' });

const rows = intField({
  key: 'n',
  label: () => m('param.rows'),
  min: 1,
  max: 1 << 24,
  choices(_variant, params) {
    if (params.kind === 'seed') return [4];
    const base = params.kind === 'laplacian' ? SQUARE_CHOICES : ROW_CHOICES;
    return [...new Set([...base, Number(params.rows ?? base[0])])].filter((n) => n <= MAX_STEP_ROWS).sort((a, b) => a - b);
  },
  resolve(value, _variant, params) {
    if (params.kind === 'seed') return value === 4 ? { value } : { value: 4, notice: m('notice.seedRows', { n: value.toLocaleString('en') }) };
    let use = Math.min(value, MAX_STEP_ROWS);
    if (params.kind === 'laplacian') use = laplacianSide(use) ** 2;
    if (use === value) return { value };
    const why = value > MAX_STEP_ROWS ? m('notice.rowsLimit', { n: value.toLocaleString('en') }) : m('notice.rowsSquare');
    return { value: use, notice: m('notice.rows', { why, n: use.toLocaleString('en') }) };
  },
});

/** The lab's parameter spec: the kind first, so the rows resolver knows it. */
export const spmvSpec = { kind, rows, workgroupSize: workgroupSizeField() };

export const spmvMeta = described(
  { id: 'spmv', courseOrder: 4.5, params: spmvSpec, variantCount: 9 },
  () => m('title'),
  () => m('summary'),
);
