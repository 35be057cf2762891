/**
 * The sparse matrix–vector lab's CUDA sources beside its WGSL variants (issue #26), launched as a
 * CUDA host launches them on the lab's matrices. The values of A and x are replaced by small whole
 * numbers, so every sum is exact and the GPU, the simulator and the CPU agree bit for bit whatever
 * the order of additions. Read by the tests (`src/labs/cudaTwins*.test.ts`) and the bench
 * (`BENCH_ONLY=cuda`: the uniform matrix of 2^22 rows, as the lab's section).
 */
import { onePassCase, wordsOf, type LabTwin, type TwinCase, type TwinLimits } from '../../cuda/index.ts';
import { seededRandom } from '../../util/random.ts';
import { SPMV_CUDA } from './cuda.ts';
import { longestOf, makeMatrix, rowLengths, spmvReference, toEll, type Csr, type MatrixKind } from './formats.ts';
import { spmvRun, type SpmvVariant } from './kernel.ts';

type Twinned = 'csr-scalar' | 'ell';

function wholeNumbers(kind: MatrixKind, rows: number, seed: number): { a: Csr; x: Float32Array } {
  const rng = seededRandom(seed);
  const m = makeMatrix(kind, rows, rng);
  const a: Csr = { ...m, values: Float32Array.from(m.values, () => Math.floor(rng() * 7) - 3) };
  return { a, x: Float32Array.from({ length: a.cols }, () => Math.floor(rng() * 9) - 4) };
}

function spmvCase(variant: Twinned, kind: MatrixKind, rows: number, seed: number, check = true): TwinCase {
  const { a, x } = wholeNumbers(kind, rows, seed);
  const wgsl = spmvRun(variant, a, x);
  const grid = { x: wgsl.workgroups[0], y: 1, z: 1 };
  const block = { x: 256, y: 1, z: 1 };
  const y = new Float32Array(a.rows);
  const reference = check ? { y: wordsOf(spmvReference(a, x)) } : undefined;
  const label = `${kind}, ${rows} rows`;
  if (variant === 'csr-scalar') {
    const bytes = 4 * (a.rowPtr.length + 2 * a.values.length + x.length);
    return onePassCase(label, { wgsl, kernel: 'spmvCsrScalar', config: { grid, block }, args: { rowPtr: a.rowPtr, colIndex: a.colIndex, values: a.values, x, y, rows: a.rows }, outputs: { y: 4 } }, reference, bytes);
  }
  const width = longestOf(rowLengths(a));
  const ell = toEll(a, width);
  return onePassCase(
    label,
    { wgsl, kernel: 'spmvEll', config: { grid, block }, args: { colIndex: ell.colIndex, values: ell.values, x, y, rows: a.rows, width }, outputs: { y: 3 } },
    reference,
    4 * (2 * ell.values.length + x.length),
  );
}

/** The lab's 2^22 rows, fewer where the adapter's bindings are smaller (about 8 nonzeros a row). */
function benchRows(limits: TwinLimits): number {
  let rows = 2 ** 22;
  while (rows > 1024 && 4 * 16 * rows > limits.maxBindingBytes) rows /= 2;
  return rows;
}

const twin = (variant: Twinned): LabTwin => ({
  lab: 'spmv',
  variant,
  fileName: `src/labs/spmv/cuda/${variant}.cu`,
  source: SPMV_CUDA[variant],
  cases: () => [spmvCase(variant, 'seed', 4, 1), spmvCase(variant, 'uniform', 300, 2), spmvCase(variant, 'powerlaw', 700, 3), spmvCase(variant, 'banded', 1000, 4)],
  bench: (limits) => spmvCase(variant, 'uniform', benchRows(limits), 7, false),
});

export const SPMV_TWINS: readonly LabTwin[] = (['csr-scalar', 'ell'] as const).map(twin);

const LATER = 'not written in this session (time): its CUDA rendering needs a template instance per vector width or a host-side setup the twins do not build yet';
export const SPMV_NOT_TWINNED: readonly { lab: string; variant: SpmvVariant; reason: string }[] = [
  { lab: 'spmv', variant: 'csr-vector', reason: LATER },
  { lab: 'spmv', variant: 'coo', reason: "its CUDA rendering builds float atomicAdd from atomicCAS on '(unsigned *)&y[i]', a reinterpretation of a float buffer as unsigned that the translator does not take (one element type per buffer); CUDA's own atomicAdd(float *, float) would translate" },
  { lab: 'spmv', variant: 'hybrid', reason: 'it shares the COO part\u2019s float atomic built from atomicCAS on a reinterpreted pointer (see coo)' },
  { lab: 'spmv', variant: 'jds', reason: LATER },
  { lab: 'spmv', variant: 'csr-merge', reason: LATER },
  { lab: 'spmv', variant: 'csr-adaptive', reason: LATER },
];
