/**
 * Sparse matrices and their storage formats, all on the CPU: the generators the lab offers, the
 * conversions from CSR to ELL (column-major), COO, the ELL + COO hybrid and JDS, the split-width
 * rule of the hybrid, and the reference product y = A·x. The kernels under `shaders/spmv/` read
 * exactly these arrays.
 *
 * Values and x are small integers stored as f32, so every partial sum is an integer far below
 * 2^24 and exact in f32: the order in which a kernel adds (one lane per row, a subgroup tree,
 * atomics in any order) cannot change the result, and every variant must agree with the CPU
 * reference bit for bit.
 */

/** Compressed sparse row: row r's nonzeros are `colIndex/values[rowPtr[r] … rowPtr[r + 1])`. */
export interface Csr {
  readonly rows: number;
  readonly cols: number;
  readonly rowPtr: Uint32Array;
  readonly colIndex: Uint32Array;
  readonly values: Float32Array;
}

/** ELL: every row padded to `width` slots, stored column-major (slot i of row r at i·rows + r). */
export interface Ell {
  readonly rows: number;
  readonly width: number;
  readonly colIndex: Uint32Array;
  readonly values: Float32Array;
  /** 1 where the slot holds a nonzero, 0 for padding (column 0, value 0). */
  readonly filled: Uint8Array;
}

/** Coordinate format: one (row, column, value) triple per nonzero, in row order. */
export interface Coo {
  readonly rowIndex: Uint32Array;
  readonly colIndex: Uint32Array;
  readonly values: Float32Array;
}

/** ELL for the first `width` nonzeros of every row, COO for the rest. */
export interface Hybrid {
  readonly ell: Ell;
  readonly coo: Coo;
}

/** Jagged diagonal storage as the seed gives it: rows sorted by length, then CSR over that order. */
export interface Jds {
  readonly rows: number;
  /** perm[i] is the original row stored i-th (longest first; ties keep their order). */
  readonly perm: Uint32Array;
  readonly rowPtr: Uint32Array;
  readonly colIndex: Uint32Array;
  readonly values: Float32Array;
}

export const MATRIX_KINDS = ['seed', 'banded', 'uniform', 'powerlaw', 'laplacian'] as const;
export type MatrixKind = (typeof MATRIX_KINDS)[number];
export const isMatrixKind = (s: string): s is MatrixKind => (MATRIX_KINDS as readonly string[]).includes(s);

/** Builds a CSR matrix from its rows, each a list of [column, value] in any order. */
export function csrFromRows(cols: number, rowList: readonly (readonly (readonly [number, number])[])[]): Csr {
  const rows = rowList.length;
  const rowPtr = new Uint32Array(rows + 1);
  let nnz = 0;
  for (let r = 0; r < rows; r++) {
    nnz += rowList[r]!.length;
    rowPtr[r + 1] = nnz;
  }
  const colIndex = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  let k = 0;
  for (const row of rowList) {
    for (const [c, v] of [...row].sort((a, b) => a[0] - b[0])) {
      if (!Number.isInteger(c) || c < 0 || c >= cols) throw new RangeError(`Column ${c} lies outside the matrix's ${cols} columns.`);
      colIndex[k] = c;
      values[k++] = v;
    }
  }
  return { rows, cols, rowPtr, colIndex, values };
}

/** The seed's example: 4 × 4, seven nonzeros, row 1 empty. */
export function seedMatrix(): Csr {
  return {
    rows: 4,
    cols: 4,
    rowPtr: new Uint32Array([0, 2, 2, 5, 7]),
    colIndex: new Uint32Array([0, 2, 1, 2, 3, 0, 3]),
    values: new Float32Array([3, 1, 2, 4, 1, 1, 1]),
  };
}

/** A small integer value 1…4. */
const smallValue = (rng: () => number) => 1 + Math.floor(rng() * 4);

/** Builds CSR straight into typed arrays from per-row lengths and a column picker. */
function fromLengths(rows: number, cols: number, lengths: Uint32Array, columnsOf: (r: number, len: number) => Uint32Array, value: (r: number, c: number) => number): Csr {
  const rowPtr = new Uint32Array(rows + 1);
  for (let r = 0; r < rows; r++) rowPtr[r + 1] = rowPtr[r]! + lengths[r]!;
  const nnz = rowPtr[rows]!;
  const colIndex = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  for (let r = 0; r < rows; r++) {
    const cs = columnsOf(r, lengths[r]!);
    const at = rowPtr[r]!;
    colIndex.set(cs, at);
    for (let j = 0; j < cs.length; j++) values[at + j] = value(r, cs[j]!);
  }
  return { rows, cols, rowPtr, colIndex, values };
}

/** `len` distinct columns of 0…cols − 1, ascending. */
function distinctColumns(rng: () => number, cols: number, len: number): Uint32Array {
  if (len >= cols) return Uint32Array.from({ length: cols }, (_, i) => i);
  if (len * 2 > cols) {
    // Dense enough: choose which columns to leave out.
    const keep = new Uint8Array(cols).fill(1);
    let drop = cols - len;
    while (drop > 0) {
      const c = Math.floor(rng() * cols);
      if (keep[c]) {
        keep[c] = 0;
        drop--;
      }
    }
    const out = new Uint32Array(len);
    let k = 0;
    for (let c = 0; c < cols; c++) if (keep[c]) out[k++] = c;
    return out;
  }
  const seen = new Set<number>();
  while (seen.size < len) seen.add(Math.floor(rng() * cols));
  return Uint32Array.from(seen).sort();
}

/** Rows i − 2 … i + 2 inside the matrix. */
export function bandedMatrix(n: number, rng: () => number): Csr {
  const lengths = new Uint32Array(n);
  for (let r = 0; r < n; r++) lengths[r] = Math.min(n - 1, r + 2) - Math.max(0, r - 2) + 1;
  return fromLengths(n, n, lengths, (r, len) => Uint32Array.from({ length: len }, (_, j) => Math.max(0, r - 2) + j), () => smallValue(rng));
}

/** The mean row length of the random kinds: 16, or less on small matrices so they stay sparse. */
export const meanRowLength = (n: number) => Math.max(2, Math.min(16, Math.floor(n / 8)));

/**
 * Uniform random columns; row lengths are the sum of four draws of 0…mean/2, so they spread
 * around the mean (0 to 2·mean, most within a third of it) like a binomial would.
 */
export function uniformMatrix(n: number, rng: () => number): Csr {
  const mean = meanRowLength(n);
  const lengths = new Uint32Array(n);
  const q = Math.floor(mean / 2) + 1;
  for (let r = 0; r < n; r++) {
    let len = 0;
    for (let k = 0; k < 4; k++) len += Math.floor(rng() * q);
    lengths[r] = Math.min(n, len);
  }
  return fromLengths(n, n, lengths, (_r, len) => distinctColumns(rng, n, len), () => smallValue(rng));
}

/**
 * Power-law (Pareto, exponent 1.6) row lengths with the same mean as `uniformMatrix` before
 * capping at n: most rows are short, a few are very long.
 */
export function powerLawMatrix(n: number, rng: () => number): Csr {
  const alpha = 1.6;
  const floor = (meanRowLength(n) * (alpha - 1)) / alpha;
  const lengths = new Uint32Array(n);
  for (let r = 0; r < n; r++) {
    const u = 1 - rng(); // (0, 1]
    lengths[r] = Math.min(n, Math.floor(floor / u ** (1 / alpha)));
  }
  return fromLengths(n, n, lengths, (_r, len) => distinctColumns(rng, n, len), () => smallValue(rng));
}

/** The 5-point Laplacian on a side × side grid: 4 on the diagonal, −1 to each grid neighbour. */
export function laplacianMatrix(side: number): Csr {
  const n = side * side;
  const rowList: [number, number][][] = [];
  for (let i = 0; i < side; i++) {
    for (let j = 0; j < side; j++) {
      const r = i * side + j;
      const row: [number, number][] = [[r, 4]];
      if (i > 0) row.push([r - side, -1]);
      if (j > 0) row.push([r - 1, -1]);
      if (j < side - 1) row.push([r + 1, -1]);
      if (i < side - 1) row.push([r + side, -1]);
      rowList.push(row);
    }
  }
  return csrFromRows(n, rowList);
}

/** The largest side whose square is at most n (at least 1). */
export const laplacianSide = (n: number) => Math.max(1, Math.floor(Math.sqrt(n)));

/** A matrix of the kind with about `n` rows (the seed's is always 4, the Laplacian's a square). */
export function makeMatrix(kind: MatrixKind, n: number, rng: () => number): Csr {
  switch (kind) {
    case 'seed':
      return seedMatrix();
    case 'banded':
      return bandedMatrix(n, rng);
    case 'uniform':
      return uniformMatrix(n, rng);
    case 'powerlaw':
      return powerLawMatrix(n, rng);
    case 'laplacian':
      return laplacianMatrix(laplacianSide(n));
  }
}

/** x for a matrix: small integers 1…4. */
export function makeVector(cols: number, rng: () => number): Float32Array {
  const x = new Float32Array(cols);
  for (let i = 0; i < cols; i++) x[i] = smallValue(rng);
  return x;
}

export function rowLengths(a: Csr): Uint32Array {
  const out = new Uint32Array(a.rows);
  for (let r = 0; r < a.rows; r++) out[r] = a.rowPtr[r + 1]! - a.rowPtr[r]!;
  return out;
}

export const nonzeros = (a: Csr) => a.rowPtr[a.rows]!;

/** The largest of the lengths, 0 for none (a loop: millions of rows would overflow a spread). */
export function longestOf(lengths: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < lengths.length; i++) if (lengths[i]! > m) m = lengths[i]!;
  return m;
}

/** ELL of width `width` (the longest row by default); rows longer than `width` are cut (the hybrid keeps the rest as COO). */
export function toEll(a: Csr, width = longestOf(rowLengths(a))): Ell {
  const { rows } = a;
  const colIndex = new Uint32Array(rows * width);
  const values = new Float32Array(rows * width);
  const filled = new Uint8Array(rows * width);
  for (let r = 0; r < rows; r++) {
    const start = a.rowPtr[r]!;
    const len = Math.min(width, a.rowPtr[r + 1]! - start);
    for (let i = 0; i < len; i++) {
      colIndex[i * rows + r] = a.colIndex[start + i]!;
      values[i * rows + r] = a.values[start + i]!;
      filled[i * rows + r] = 1;
    }
  }
  return { rows, width, colIndex, values, filled };
}

/** COO of the nonzeros past `skip` in each row (all of them by default), in row order. */
export function toCoo(a: Csr, skip = 0): Coo {
  let count = 0;
  for (let r = 0; r < a.rows; r++) count += Math.max(0, a.rowPtr[r + 1]! - a.rowPtr[r]! - skip);
  const rowIndex = new Uint32Array(count);
  const colIndex = new Uint32Array(count);
  const values = new Float32Array(count);
  let k = 0;
  for (let r = 0; r < a.rows; r++) {
    for (let j = a.rowPtr[r]! + skip; j < a.rowPtr[r + 1]!; j++) {
      rowIndex[k] = r;
      colIndex[k] = a.colIndex[j]!;
      values[k++] = a.values[j]!;
    }
  }
  return { rowIndex, colIndex, values };
}

/**
 * The hybrid's split width (the rule the lesson teaches, after Bell & Garland): the largest K such
 * that at least a third of the rows have K or more nonzeros. Column K of the ELL part is then at
 * least a third full; what rows hold beyond K goes to COO. 0 when a third of the rows are empty.
 */
export function hybridWidth(lengths: ArrayLike<number>): number {
  const rows = lengths.length;
  if (rows === 0) return 0;
  const longest = longestOf(lengths);
  const atLeast = new Uint32Array(longest + 2); // atLeast[k] = rows with length ≥ k
  for (let r = 0; r < rows; r++) atLeast[lengths[r]!]!++;
  for (let k = longest - 1; k >= 0; k--) atLeast[k]! += atLeast[k + 1]!;
  let width = 0;
  for (let k = 1; k <= longest; k++) if (3 * atLeast[k]! >= rows) width = k;
  return width;
}

export function toHybrid(a: Csr, width = hybridWidth(rowLengths(a))): Hybrid {
  return { ell: toEll(a, width), coo: toCoo(a, width) };
}

/** The rows by length, longest first; rows of equal length keep their order. */
export function jdsPermutation(a: Csr): Uint32Array {
  const lengths = rowLengths(a);
  return Uint32Array.from({ length: a.rows }, (_, i) => i).sort((p, q) => lengths[q]! - lengths[p]! || p - q);
}

export function toJds(a: Csr): Jds {
  const perm = jdsPermutation(a);
  const rowPtr = new Uint32Array(a.rows + 1);
  const nnz = nonzeros(a);
  const colIndex = new Uint32Array(nnz);
  const values = new Float32Array(nnz);
  let k = 0;
  for (let i = 0; i < a.rows; i++) {
    const r = perm[i]!;
    for (let j = a.rowPtr[r]!; j < a.rowPtr[r + 1]!; j++) {
      colIndex[k] = a.colIndex[j]!;
      values[k++] = a.values[j]!;
    }
    rowPtr[i + 1] = k;
  }
  return { rows: a.rows, perm, rowPtr, colIndex, values };
}

/** y = A·x, each row summed left to right in f32. */
export function spmvReference(a: Csr, x: Float32Array): Float32Array {
  const y = new Float32Array(a.rows);
  for (let r = 0; r < a.rows; r++) {
    let sum = 0;
    for (let j = a.rowPtr[r]!; j < a.rowPtr[r + 1]!; j++) sum = Math.fround(sum + Math.fround(a.values[j]! * x[a.colIndex[j]!]!));
    y[r] = sum;
  }
  return y;
}

/** A dense row-major copy, for drawing small matrices. */
export function toDense(a: Csr): Float32Array {
  const out = new Float32Array(a.rows * a.cols);
  for (let r = 0; r < a.rows; r++) for (let j = a.rowPtr[r]!; j < a.rowPtr[r + 1]!; j++) out[r * a.cols + a.colIndex[j]!] = a.values[j]!;
  return out;
}

/** Facts about a matrix's shape the metrics and lesson quote. */
export interface MatrixStats {
  readonly rows: number;
  readonly nonzeros: number;
  readonly longest: number;
  readonly mean: number;
  readonly emptyRows: number;
  /** ELL slots stored ÷ nonzeros (1 = no padding). */
  readonly ellFill: number;
  readonly hybridWidth: number;
  readonly hybridCoo: number;
  /** The hybrid's ELL slots ÷ the nonzeros they hold. */
  readonly hybridFill: number;
}

export function matrixStats(a: Csr): MatrixStats {
  const lengths = rowLengths(a);
  const nnz = nonzeros(a);
  const longest = longestOf(lengths);
  const width = hybridWidth(lengths);
  let inEll = 0;
  for (const len of lengths) inEll += Math.min(len, width);
  return {
    rows: a.rows,
    nonzeros: nnz,
    longest,
    mean: a.rows ? nnz / a.rows : 0,
    emptyRows: lengths.reduce((n, l) => n + (l === 0 ? 1 : 0), 0),
    ellFill: nnz ? (a.rows * longest) / nnz : 1,
    hybridWidth: width,
    hybridCoo: nnz - inEll,
    hybridFill: inEll ? (a.rows * width) / inEll : 1,
  };
}

/** Test matrices beyond the lab's kinds: about every third row empty, the others 1…6 nonzeros. */
export function emptyRowsMatrix(n: number, rng: () => number): Csr {
  const lengths = new Uint32Array(n);
  for (let r = 0; r < n; r++) lengths[r] = rng() < 0.35 ? 0 : Math.min(n, 1 + Math.floor(rng() * 6));
  return fromLengths(n, n, lengths, (_r, len) => distinctColumns(rng, n, len), () => smallValue(rng));
}

/** One dense row (every column) at a random place; the others hold 0…2 nonzeros. */
export function denseRowMatrix(n: number, rng: () => number): Csr {
  const dense = Math.floor(rng() * n);
  const lengths = new Uint32Array(n);
  for (let r = 0; r < n; r++) lengths[r] = r === dense ? n : Math.min(n, Math.floor(rng() * 3));
  return fromLengths(n, n, lengths, (_r, len) => distinctColumns(rng, n, len), () => smallValue(rng));
}

/**
 * CSR adaptive's lanes per short row: the smallest power of two (1 … 32) at least a quarter of the
 * mean row length rounded to a whole number, so each lane of a group takes about four nonzeros
 * (4 for a mean of 16, whether the draw gives 15.99 or 16.04).
 */
export function adaptiveGroup(a: Csr): number {
  const mean = a.rows ? Math.round(nonzeros(a) / a.rows) : 0;
  let g = 1;
  while (g < 32 && 4 * g < mean) g *= 2;
  return g;
}

/** CSR adaptive's analysis: the long rows, cut into chunks one subgroup each sums. */
export interface RowBins {
  /** Rows with more nonzeros than this are long (listed in `chunks`); the others are short. */
  readonly longAfter: number;
  /** The most nonzeros in one chunk. */
  readonly chunk: number;
  /** Per chunk four words: its row, first nonzero, end (one past its last), 1 if the row's only chunk else 0. */
  readonly chunks: Uint32Array;
  readonly longRows: number;
  readonly longNonzeros: number;
}

/**
 * The row bins of CSR adaptive (a preprocessing pass over the row pointers, once per matrix, as
 * rocSPARSE's analysis step): rows of more than `longAfter` nonzeros (8 per lane of a group by
 * default) become chunks of at most `chunk` nonzeros, long rows in row order.
 */
export function rowBins(a: Csr, longAfter = 8 * adaptiveGroup(a), chunk = 1024): RowBins {
  if (!Number.isInteger(longAfter) || longAfter < 0) throw new RangeError(`A long row begins after ${longAfter} nonzeros: give a whole number, 0 or more.`);
  if (!Number.isInteger(chunk) || chunk < 1) throw new RangeError(`Chunks of ${chunk} nonzeros: give a whole number, 1 or more.`);
  let count = 0;
  let longRows = 0;
  let longNonzeros = 0;
  for (let r = 0; r < a.rows; r++) {
    const len = a.rowPtr[r + 1]! - a.rowPtr[r]!;
    if (len > longAfter) {
      count += Math.ceil(len / chunk);
      longRows++;
      longNonzeros += len;
    }
  }
  const chunks = new Uint32Array(4 * count);
  let k = 0;
  for (let r = 0; r < a.rows; r++) {
    const start = a.rowPtr[r]!;
    const end = a.rowPtr[r + 1]!;
    if (end - start <= longAfter) continue;
    const only = end - start <= chunk ? 1 : 0;
    for (let b = start; b < end; b += chunk) {
      chunks[k++] = r;
      chunks[k++] = b;
      chunks[k++] = Math.min(end, b + chunk);
      chunks[k++] = only;
    }
  }
  return { longAfter, chunk, chunks, longRows, longNonzeros };
}
