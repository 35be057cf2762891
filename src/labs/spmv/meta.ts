/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { intField, workgroupSizeField, shown, type ParamField } from '../lab.ts';
import { isMatrixKind, laplacianSide, MATRIX_KINDS, MATRIX_NAMES } from './formats.ts';

/** The most rows the step-through simulates. */
export const MAX_STEP_ROWS = 4096;
const ROW_CHOICES = [16, 32, 64, 256, 1024, 4096];
const SQUARE_CHOICES = [16, 64, 256, 1024, 4096];

const kind: ParamField<string> = {
  key: 'mat',
  label: 'matrix',
  parse: (raw) => (isMatrixKind(raw) ? { value: raw } : { error: `use one of ${MATRIX_KINDS.join(', ')}` }),
  choices: () => MATRIX_KINDS,
  resolve: (value) =>
    isMatrixKind(value)
      ? { value }
      : { value: 'seed', notice: `There is no matrix “${shown(value)}”; showing the seed’s example.` },
  show: (v) => (isMatrixKind(v) ? MATRIX_NAMES[v] : v),
};

const rows = intField({
  key: 'n',
  label: 'rows',
  min: 1,
  max: 1 << 24,
  choices(_variant, params) {
    if (params.kind === 'seed') return [4];
    const base = params.kind === 'laplacian' ? SQUARE_CHOICES : ROW_CHOICES;
    return [...new Set([...base, Number(params.rows ?? base[0])])]
      .filter((n) => n <= MAX_STEP_ROWS)
      .sort((a, b) => a - b);
  },
  resolve(value, _variant, params) {
    if (params.kind === 'seed')
      return value === 4
        ? { value }
        : {
            value: 4,
            notice: `The seed’s example has 4 rows; ${value.toLocaleString('en')} does not apply to it.`,
          };
    let use = Math.min(value, MAX_STEP_ROWS);
    if (params.kind === 'laplacian') use = laplacianSide(use) ** 2;
    if (use === value) return { value };
    const why =
      value > MAX_STEP_ROWS
        ? `Stepping through ${value.toLocaleString('en')} rows would trace too much`
        : 'The Laplacian’s rows are the points of a square grid';
    return {
      value: use,
      notice: `${why}; using ${use.toLocaleString('en')} rows. The timings go to larger sizes.`,
    };
  },
});

/** The lab's parameter spec: the kind first, so the rows resolver knows it. */
export const spmvSpec = { kind, rows, workgroupSize: workgroupSizeField() };

export const spmvMeta = {
  id: 'spmv',
  courseOrder: 4.5,
  title: 'Sparse matrix–vector product',
  summary:
    'y = A·x with A sparse: CSR one row per lane or per warp, ELL padded and column-major, COO with atomics, the ELL + COO hybrid and JDS — one matrix drawn in every format, a warp’s lanes laid over the storage.',
  params: spmvSpec,
  variantCount: 7,
} as const;
