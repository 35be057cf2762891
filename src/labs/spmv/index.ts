/**
 * Sparse matrix–vector product (course seed 003): y = A·x with A in CSR, ELL, COO, an ELL + COO
 * hybrid and JDS, one kernel per format (two for CSR). Matrices, conversions and the reference are
 * in `formats.ts`; the dispatches in `kernel.ts`.
 */
import { defineLab, exactCheck, type LabInputs, type LabVariant } from '../lab.ts';
import { seededRandom } from '../../util/random.ts';
import { benchSpmv } from './bench.ts';
import { spmvCases } from './cases.ts';
import { SPMV_CUDA } from './cuda.ts';
import { isMatrixKind, makeMatrix, makeVector, matrixStats, nonzeros, spmvReference, type Csr } from './formats.ts';
import { isSpmvVariant, leastBytes, SPMV_KERNELS, spmvRun, Y_BINDING, yOf, type SpmvVariant } from './kernel.ts';
import { spmvMoments } from './moments.ts';
import { spmvMeta } from './meta.ts';

export { spmvSpec } from './meta.ts';

/** Matrix kind (key `mat`), rows (key `n`) and the workgroup size (key `wg`). */
export type SpmvParams = { readonly kind: string; readonly rows: number; readonly workgroupSize: number };

/** The seed the lab session draws its inputs with (src/app/session.ts INPUT_SEED); the stage and the metric rows rebuild the same matrix. */
export const SESSION_SEED = 1;


const TEXT: Readonly<Record<SpmvVariant, { title: string; summary: string }>> = {
  'csr-scalar': {
    title: 'CSR scalar: one invocation per row',
    summary: 'Each lane walks its own row. Neighbouring lanes read words a row apart, and a warp lasts as long as its longest row: lanes on short or empty rows idle.',
  },
  'csr-vector': {
    title: 'CSR vector: a vector of lanes per row',
    summary: 'A vector of 2 to 32 lanes of one subgroup (chosen from the mean row length) shares a row, reading consecutive nonzeros together; a subgroupShuffleXor butterfly totals them. Rows shorter than the vector leave lanes idle; long rows are shared.',
  },
  ell: {
    title: 'ELL, column-major',
    summary: 'Every row padded to the longest, slot i of all rows stored together: every lane loops the same number of times and each load is one coalesced request — padding included.',
  },
  coo: {
    title: 'COO with atomic adds',
    summary: 'One lane per nonzero triple: perfectly balanced and coalesced, but lanes of one row must add into y atomically (a compare-exchange loop on the f32 bits).',
  },
  hybrid: {
    title: 'ELL + COO hybrid',
    summary: 'ELL up to the width that at least a third of the rows reach, COO for the long rows’ tails: little padding, and the few long rows no longer set everyone’s width. A subgroup adds runs of one row’s tail with a shuffle scan first, so a long tail costs one atomic per run, not per nonzero.',
  },
  jds: {
    title: 'JDS: rows sorted by length',
    summary: 'Rows sorted longest first with a permutation back: the rows of a warp have similar lengths, so lanes finish together; empty rows gather at the end.',
  },
  'csr-merge': {
    title: 'CSR merge path: equal work per workgroup',
    summary:
      'Row ends and nonzeros merged into one path and cut into equal tiles, found by binary search: every workgroup and every lane gets the same number of items however the row lengths vary. Products are loaded coalesced into workgroup memory, each lane walks its 7 items, and rows split between lanes or tiles are fixed up — in order inside a tile, with at most two atomic adds per tile across tiles.',
  },
};

const variants: LabVariant[] = (Object.keys(SPMV_KERNELS) as SpmvVariant[]).map((id) => ({
  id,
  title: TEXT[id].title,
  summary: TEXT[id].summary,
  file: SPMV_KERNELS[id].file,
  wgsl: SPMV_KERNELS[id].wgsl,
  cuda: SPMV_CUDA[id],
  workgroupSizes: [32, 64, 128, 256],
  elementTypes: ['f32'],
  needsSubgroups: id === 'csr-vector' || id === 'hybrid' || id === 'csr-merge',
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

export const spmvLab = defineLab<'spmv', SpmvParams>({
  ...spmvMeta,
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
  moments: spmvMoments,
  metrics(m, p) {
    const { a } = matrixOf(spmvInputs(p, SESSION_SEED));
    const s = matrixStats(a);
    return [
      { label: 'Nonzeros', value: nonzeros(a).toLocaleString('en'), hint: `${a.rows} rows, ${s.emptyRows} empty` },
      { label: 'Longest row ÷ mean', value: `${s.longest} ÷ ${s.mean.toFixed(2)} = ${(s.mean ? s.longest / s.mean : 0).toFixed(2)}`, hint: 'load imbalance of one row per lane' },
      { label: 'ELL fill', value: s.ellFill.toFixed(2), hint: `stored ÷ nonzeros: ${a.rows} × ${s.longest} slots for ${s.nonzeros} nonzeros` },
      { label: 'Hybrid split', value: `width ${s.hybridWidth}, ${s.hybridCoo} in COO`, hint: `ELL part fill ${s.hybridFill.toFixed(2)}` },
      { label: 'Atomic adds', value: m.atomics.toLocaleString('en'), hint: 'lane atomics, compare-exchange retries included (COO and hybrid; the merge path stores every row with an atomic store, as its y is atomic, and adds at most two partial rows per tile)' },
      { label: 'Least traffic', value: `${leastBytes(a).toLocaleString('en')} B`, hint: 'values and indices once, x per nonzero, y once' },
    ];
  },
});
