/**
 * Sparse matrix–vector product (course seed 003): y = A·x with A in CSR, ELL, COO, an ELL + COO
 * hybrid, JDS and sliced ELL, one kernel per format (four for CSR). Matrices, conversions and the reference are
 * in `formats.ts`; the dispatches in `kernel.ts`.
 */
import { defineLab, OPENING_MOMENT, exactCheck, INPUT_SEED, type LabInputs, type LabVariant, variantFrom } from '../../workbench/lab.ts';
import { firstFound } from '../../workbench/openings.ts';
import { seededRandom } from '../../util/random.ts';
import { benchSpmv } from './bench.ts';
import { spmvCases } from './cases.ts';
import { SPMV_CUDA } from './cuda.ts';
import { isMatrixKind, makeMatrix, makeVector, matrixStats, nonzeros, spmvReference, type Csr } from './formats.ts';
import { isSpmvVariant, leastBytes, needsSubgroups, SPMV_KERNELS, spmvRun, Y_BINDING, yOf, type SpmvVariant } from './kernel.ts';
import { spmvMoments } from './moments.ts';
import { m } from './messages.ts';
import { spmvMeta } from './meta.ts';
import { sellOptions, toSell } from './sell.ts';

export { MAX_STEP_ROWS, spmvSpec } from './meta.ts';

/** Matrix kind (key `mat`), rows (key `n`) and the workgroup size (key `wg`). */
export type SpmvParams = { readonly kind: string; readonly rows: number; readonly workgroupSize: number };


const variants: LabVariant[] = (Object.keys(SPMV_KERNELS) as SpmvVariant[]).map((id) => variantFrom(m, 'variant.', {
  id,
  file: SPMV_KERNELS[id].file,
  wgsl: SPMV_KERNELS[id].wgsl,
  cuda: SPMV_CUDA[id],
  workgroupSizes: [32, 64, 128, 256],
  elementTypes: ['f32'],
  needsSubgroups: needsSubgroups(id),
}));

const variantOf = (id: string): SpmvVariant => {
  if (!isSpmvVariant(id)) throw new RangeError(`The SpMV lab has no variant “${id}”; use one of ${Object.keys(SPMV_KERNELS).join(', ')}.`);
  return id;
};


/** The CSR matrix and x of a lab's inputs. */
export function matrixOf(inputs: LabInputs): { a: Csr; x: Float32Array } {
  const rowPtr = inputs.rowPtr as Uint32Array;
  const x = inputs.x as Float32Array;
  return { a: { rows: rowPtr.length - 1, cols: x.length, rowPtr, colIndex: inputs.colIndex as Uint32Array, values: inputs.values as Float32Array }, x };
}

/** The seeded matrix and vector of a parameter set. */
export function spmvInputs(p: SpmvParams, seed: number): LabInputs {
  const rng = seededRandom(seed);
  const a = makeMatrix(isMatrixKind(p.kind) ? p.kind : 'seed', p.rows, rng);
  return { rowPtr: a.rowPtr, colIndex: a.colIndex, values: a.values, x: makeVector(a.cols, rng) };
}

/** The sliced ELL's fill after its conversion (cut, sorted, padded); the bench times the conversion. */
function sellMetric(a: Csr) {
  const opts = sellOptions(a);
  const sell = toSell(a, opts);
  return { label: m('metric.sell'), value: m('metric.sell.value', { fill: sell.fill.toFixed(2), pieces: sell.pieces }), hint: m('metric.sell.hint', { limit: opts.limit, window: opts.window }) };
}

export const spmvLab = defineLab<'spmv', SpmvParams>(spmvMeta, {
  variants,
  defaultVariant: 'csr-scalar',
  defaults: { kind: 'seed', rows: 4, workgroupSize: 128 },
  inputs: spmvInputs,
  stepRun(variant, p, inputs, source) {
    const { a, x } = matrixOf(inputs);
    return spmvRun(variantOf(variant), a, x, p.workgroupSize, source);
  },
  async runAll(executor, variant, p, inputs) {
    const { a, x } = matrixOf(inputs);
    const v = variantOf(variant);
    const out = await executor.run(spmvRun(v, a, x, p.workgroupSize));
    return yOf(v, out[0]![Y_BINDING[v]]!, a.rows);
  },
  check(_variant, _p, inputs, output) {
    const { a, x } = matrixOf(inputs);
    return exactCheck(output, spmvReference(a, x));
  },
  bench: benchSpmv,
  cases: spmvCases,
  moments: {
    ...spmvMoments,
    // The first gather of x with idle lanes (the rows' unequal lengths), else the first gather.
    [OPENING_MOMENT]: (index) => firstFound(() => spmvMoments.gather(index, 'idle'), () => spmvMoments.gather(index, 'first')),
  },
  metrics(mt, p) {
    const { a } = matrixOf(spmvInputs(p, INPUT_SEED));
    const s = matrixStats(a);
    return [
      { label: m('metric.nonzeros'), value: nonzeros(a).toLocaleString('en'), hint: m('metric.nonzeros.hint', { rows: a.rows, empty: s.emptyRows }) },
      { label: m('metric.imbalance'), value: `${s.longest} ÷ ${s.mean.toFixed(2)} = ${(s.mean ? s.longest / s.mean : 0).toFixed(2)}`, hint: m('metric.imbalance.hint') },
      { label: m('metric.ellFill'), value: s.ellFill.toFixed(2), hint: m('metric.ellFill.hint', { rows: a.rows, longest: s.longest, nnz: s.nonzeros }) },
      { label: m('metric.hybrid'), value: m('metric.hybrid.value', { width: s.hybridWidth, coo: s.hybridCoo }), hint: m('metric.hybrid.hint', { fill: s.hybridFill.toFixed(2) }) },
      sellMetric(a),
      { label: m('metric.atomics'), value: mt.atomics.toLocaleString('en'), hint: m('metric.atomics.hint') },
      { label: m('metric.traffic'), value: `${leastBytes(a).toLocaleString('en')} B`, hint: m('metric.traffic.hint') },
    ];
  },
});
