/**
 * What the stage draws, as pure functions: the matrix in every format (from `formats.ts`), and
 * for a storage word the trace names (array and word address), the nonzero of the matrix it
 * holds. The kernels bind exactly these arrays, so a lane's address in the trace is an index
 * into them.
 */
import { toCoo, toEll, toHybrid, toJds, type Coo, type Csr, type Ell, type Hybrid, type Jds } from './formats.ts';
import type { SpmvVariant } from './kernel.ts';
import { SELL_LANES, sellOptions, toSell, type Sell } from './sell.ts';

/** The largest matrix the stage draws cell by cell. */
export const DRAWN_LIMIT = 32;

export interface AllFormats {
  readonly csr: Csr;
  readonly ell: Ell;
  readonly coo: Coo;
  readonly hybrid: Hybrid;
  readonly jds: Jds;
  /** The sliced ELL as the lab's variant converts it. */
  readonly sell: Sell;
}

export function allFormats(a: Csr): AllFormats {
  return { csr: a, ell: toEll(a), coo: toCoo(a), hybrid: toHybrid(a), jds: toJds(a), sell: toSell(a, sellOptions(a)) };
}

/** A stored word: the matrix entry it holds, or a padding slot of a row. */
export interface Cell {
  readonly row: number;
  /** -1 for padding. */
  readonly col: number;
}

/** The row of CSR-like storage word `j` (binary search in rowPtr). */
function rowOfEntry(rowPtr: Uint32Array, j: number): number {
  let lo = 0;
  let hi = rowPtr.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (rowPtr[mid]! <= j) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function ellCell(e: Ell, k: number): Cell | undefined {
  if (k < 0 || k >= e.values.length) return undefined;
  return { row: k % e.rows, col: e.filled[k] ? e.colIndex[k]! : -1 };
}

/** The row of a stored row, with the cut-row bit cleared. */
const CUT_MASK = 0x7fffffff;

/** Word `k` of the sliced ELL's `col`/`val`: its slice, lane and place in the piece; -1 column for padding. */
function sellCell(s: Sell, k: number): Cell | undefined {
  if (k < 0 || k >= s.start[s.start.length - 1]!) return undefined;
  const slice = rowOfEntry(s.start, k);
  const piece = slice * SELL_LANES + ((k - s.start[slice]!) % SELL_LANES);
  const place = Math.floor((k - s.start[slice]!) / SELL_LANES);
  // Lanes past the last piece (the last slice's) and places past a piece's length are padding.
  const row = piece < s.pieces ? s.target[piece]! & CUT_MASK : 0;
  return { row, col: piece < s.pieces && place < s.length[piece]! ? s.col[k]! : -1 };
}

/**
 * The matrix cell that word `addr` of the variant's array `name` holds, or undefined for arrays
 * that hold no nonzero (x, y, row pointers) or an address outside the array.
 */
export function cellOfWord(f: AllFormats, variant: SpmvVariant, name: string, addr: number): Cell | undefined {
  switch (variant) {
    case 'csr-scalar':
    case 'csr-vector':
    case 'csr-merge':
    case 'csr-adaptive':
      if ((name === 'values' || name === 'col_index') && addr < f.csr.values.length) return { row: rowOfEntry(f.csr.rowPtr, addr), col: f.csr.colIndex[addr]! };
      return undefined;
    case 'ell':
      return name === 'values' || name === 'col_index' ? ellCell(f.ell, addr) : undefined;
    case 'coo':
      if ((name === 'values' || name === 'col_index' || name === 'row_index') && addr < f.coo.values.length) return { row: f.coo.rowIndex[addr]!, col: f.coo.colIndex[addr]! };
      return undefined;
    case 'hybrid':
      if (name === 'ell_val' || name === 'ell_col') return ellCell(f.hybrid.ell, addr);
      if ((name === 'coo_val' || name === 'coo_col' || name === 'coo_row') && addr < f.hybrid.coo.values.length) return { row: f.hybrid.coo.rowIndex[addr]!, col: f.hybrid.coo.colIndex[addr]! };
      return undefined;
    case 'jds':
      if ((name === 'values' || name === 'col_index') && addr < f.jds.values.length) return { row: f.jds.perm[rowOfEntry(f.jds.rowPtr, addr)]!, col: f.jds.colIndex[addr]! };
      return undefined;
    case 'sell':
      return name === 'val' || name === 'col' ? sellCell(f.sell, addr) : undefined;
  }
}

/** Which drawn format a variant reads: its arrays get the lanes laid over them. */
export const FORMAT_OF: Readonly<Record<SpmvVariant, 'csr' | 'ell' | 'coo' | 'hybrid' | 'jds' | 'sell'>> = {
  'csr-scalar': 'csr',
  'csr-vector': 'csr',
  ell: 'ell',
  coo: 'coo',
  hybrid: 'hybrid',
  jds: 'jds',
  'csr-merge': 'csr',
  'csr-adaptive': 'csr',
  sell: 'sell',
};
