/**
 * The sparse matrix–vector lab's CUDA sources beside its WGSL variants (issue #26), launched as a
 * CUDA host launches them on the lab's matrices. The values of A and x are replaced by small whole
 * numbers, so every sum is exact and the GPU, the simulator and the CPU agree bit for bit whatever
 * the order of additions. Read by the tests (`src/labs/cudaTwins*.test.ts`) and the bench
 * (`BENCH_ONLY=cuda`: the uniform matrix of 2^22 rows, as the lab's section).
 */
import { onePassCase, wordsOf, type KernelArg, type LabTwin, type TwinCase, type TwinLimits } from '../../cuda/index.ts';
import { seededRandom } from '../../util/random.ts';
import { SPMV_CUDA } from './cuda.ts';
import { hybridWidth, longestOf, makeMatrix, rowLengths, spmvReference, toCoo, toEll, toHybrid, toJds, type Csr, type MatrixKind } from './formats.ts';
import { MERGE_ITEMS_PER_INVOCATION, mergeTiles, SPMV_VARIANTS, spmvRun, vectorWidth, Y_BINDING, type SpmvVariant } from './kernel.ts';
import { sellOptions, toSell } from './sell.ts';


function wholeNumbers(kind: MatrixKind, rows: number, seed: number): { a: Csr; x: Float32Array } {
  const rng = seededRandom(seed);
  const m = makeMatrix(kind, rows, rng);
  const a: Csr = { ...m, values: Float32Array.from(m.values, () => Math.floor(rng() * 7) - 3) };
  return { a, x: Float32Array.from({ length: a.cols }, () => Math.floor(rng() * 9) - 4) };
}

/** The CUDA kernel, its arguments besides x and y, and the bytes its format reads, as its host launches it over A. */
function launchOf(variant: SpmvVariant, a: Csr): { kernel: string; args: Record<string, KernelArg>; bytes: number } {
  const csr = { rowPtr: a.rowPtr, colIndex: a.colIndex, values: a.values, rows: a.rows };
  const csrBytes = 4 * (a.rowPtr.length + 2 * a.values.length);
  switch (variant) {
    case 'csr-scalar':
      return { kernel: 'spmvCsrScalar', args: csr, bytes: csrBytes };
    case 'csr-vector':
      return { kernel: `spmvCsrVector<${vectorWidth(a)}>`, args: csr, bytes: csrBytes };
    case 'ell': {
      const width = longestOf(rowLengths(a));
      const ell = toEll(a, width);
      return { kernel: 'spmvEll', args: { colIndex: ell.colIndex, values: ell.values, rows: a.rows, width }, bytes: 8 * ell.values.length };
    }
    case 'coo': {
      const coo = toCoo(a);
      return { kernel: 'spmvCoo', args: { rowIndex: coo.rowIndex, colIndex: coo.colIndex, values: coo.values, count: coo.values.length }, bytes: 12 * coo.values.length };
    }
    case 'hybrid': {
      const { ell, coo } = toHybrid(a, hybridWidth(rowLengths(a)));
      const args = { ellCol: ell.colIndex, ellVal: ell.values, cooRow: coo.rowIndex, cooCol: coo.colIndex, cooVal: coo.values, rows: a.rows, width: ell.width, count: coo.values.length };
      return { kernel: 'spmvHybrid', args, bytes: 8 * ell.values.length + 12 * coo.values.length };
    }
    case 'csr-adaptive': {
      // The CPU's analysis and the launch's numbers, as the lab's dispatch has them.
      const run = spmvRun('csr-adaptive', a, a.rowPtr.length > 1 ? new Float32Array(a.cols) : new Float32Array(1));
      const [rows, longAfter, chunks, chunkBlocks] = run.bindings[0]![5]!;
      const chunkList = run.bindings[0]![6] as Uint32Array;
      const o = run.overrides!;
      return {
        kernel: `spmvCsrAdaptive<${o['GROUP']}, ${o['ROWS_PER_WORKGROUP']}>`,
        args: { ...csr, rows: rows!, long_after: longAfter!, chunks: chunks!, chunk_blocks: chunkBlocks!, chunkList },
        bytes: csrBytes + 4 * chunkList.length,
      };
    }
    case 'sell': {
      // The CPU's conversion with the lab's options, as the lab's dispatch binds it.
      const s = toSell(a, sellOptions(a));
      return { kernel: 'spmvSell', args: { start: s.start, col: s.col, val: s.val, owner: s.target, pieces: s.pieces }, bytes: 4 * (s.start.length + 2 * s.col.length + s.target.length) };
    }
    case 'csr-merge': {
      // The tiles of the path (rows + nonzeros), as the lab's dispatch counts them.
      const tiles = mergeTiles(a, 256 * MERGE_ITEMS_PER_INVOCATION);
      return { kernel: 'spmvCsrMerge<256>', args: { ...csr, nnz: a.values.length, tiles }, bytes: csrBytes };
    }
    case 'jds': {
      const jds = toJds(a);
      return { kernel: 'spmvJds', args: { perm: jds.perm, rowPtr: jds.rowPtr, colIndex: jds.colIndex, values: jds.values, rows: a.rows }, bytes: csrBytes + 4 * a.rows };
    }
  }
}

function spmvCase(variant: SpmvVariant, kind: MatrixKind, rows: number, seed: number, check = true): TwinCase {
  const { a, x } = wholeNumbers(kind, rows, seed);
  const wgsl = spmvRun(variant, a, x);
  const { kernel, args, bytes } = launchOf(variant, a);
  // y starts as zeros (the atomic variants add into it), as the host's cudaMemset leaves it.
  const launch = { wgsl, kernel, config: { grid: { x: wgsl.workgroups[0], y: wgsl.workgroups[1] ?? 1, z: 1 }, block: { x: 256, y: 1, z: 1 } }, args: { ...args, x, y: new Float32Array(a.rows) }, outputs: { y: Y_BINDING[variant] } };
  return onePassCase(`${kind}, ${rows} rows`, launch, check ? { y: wordsOf(spmvReference(a, x)) } : undefined, bytes + 4 * x.length);
}

/** The lab's 2^22 rows, fewer where the adapter's bindings are smaller (about 8 nonzeros a row). */
function benchRows(limits: TwinLimits): number {
  let rows = 2 ** 22;
  while (rows > 1024 && 4 * 16 * rows > limits.maxBindingBytes) rows /= 2;
  return rows;
}

const twin = (variant: SpmvVariant): LabTwin => ({
  lab: 'spmv',
  variant,
  fileName: `src/labs/spmv/cuda/${variant}.cu`,
  source: SPMV_CUDA[variant],
  cases: () => [spmvCase(variant, 'seed', 4, 1), spmvCase(variant, 'uniform', 300, 2), spmvCase(variant, 'powerlaw', 700, 3), spmvCase(variant, 'banded', 1000, 4)],
  bench: (limits) => spmvCase(variant, 'uniform', benchRows(limits), 7, false),
});

export const SPMV_TWINS: readonly LabTwin[] = SPMV_VARIANTS.map(twin);
