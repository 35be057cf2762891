/**
 * Sliced ELL with long rows cut into pieces (shaders/spmv/sell.wgsl, the lab's `sell` variant,
 * issue 29): the format's conversion on the CPU, the options the lab picks, and the kernel's run.
 * The conversion is made once per matrix before the product, as cuSPARSE's and rocSPARSE's
 * analysis steps are; the lab's bench times it apart from the kernel
 * (scripts/experiments/spmv-sell.ts sweeps the options).
 */
import type { KernelRun } from '../../kernel/types.ts';
import { foldWorkgroups } from '../../kernel/types.ts';
import type { Csr } from './formats.ts';
import SELL_SOURCE from '../../../shaders/spmv/sell.wgsl?raw';
import { longestOf, nonzeros, rowLengths } from './formats.ts';

export const SELL_WGSL: string = SELL_SOURCE;
export const SELL_FILE = 'shaders/spmv/sell.wgsl';
/** Pieces per slice (the shader's LANES). */
export const SELL_LANES = 32;
const CUT = 0x80000000;

/**
 * `limit`: rows longer than this are cut into pieces of at most this many nonzeros; `window`:
 * pieces are sorted by length inside windows of this many (1 keeps row order); `step`: nonzeros
 * per step (the shader's STEP: loads, then gathers, in flight together).
 */
export type SellOptions = Readonly<Record<'limit' | 'window' | 'step', number>>;

export interface Sell {
  readonly pieces: number;
  /** Slices + 1 offsets, in nonzeros. */
  readonly start: Uint32Array;
  readonly col: Uint32Array;
  readonly val: Float32Array;
  /** Per piece: its row, with the top bit set if the row was cut. */
  readonly target: Uint32Array;
  /** Per piece: its nonzeros (the rest of its slice's width is padding). */
  readonly length: Uint32Array;
  /** Stored slots ÷ nonzeros. */
  readonly fill: number;
}

/** Nonzeros per step of the shipped kernel (sell.wgsl's STEP). */
export const SELL_STEP = 8;

/**
 * The lab's options, from the H100 runs of issue 29 (docs/benchmarks.md), 8 nonzeros a step: pieces
 * of at most 32 sorted in windows of 4096 where no row is far longer than the mean (the uniform
 * matrix's best), pieces of 128 in windows of 16384 where some row is more than 8 times the mean
 * (the power-law matrix's best of 32 to 512 and 1024 to all: fewer pieces, fewer cut rows to sum
 * across lanes and into y, and slices with almost no padding).
 */
export function sellOptions(a: Csr): SellOptions {
  const mean = a.rows ? nonzeros(a) / a.rows : 0;
  const skewed = longestOf(rowLengths(a)) > 8 * Math.max(1, mean);
  return skewed ? { limit: 128, window: 16384, step: SELL_STEP } : { limit: 32, window: 4096, step: SELL_STEP };
}

/** Converts CSR to sliced ELL with pieces of at most `limit` nonzeros, sorted by length in windows. */
export function toSell(a: Csr, { limit, window, step }: SellOptions): Sell {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`SELL: the piece limit must be a positive whole number; got ${limit}.`);
  if (!Number.isInteger(step) || step < 1) throw new RangeError(`SELL: the step must be a positive whole number; got ${step}.`);
  if (!Number.isInteger(window) || window < 1) throw new RangeError(`SELL: the sort window must be a positive whole number; got ${window}.`);
  // Pieces in row order: [first nonzero, length, target].
  let count = 0;
  for (let r = 0; r < a.rows; r++) count += Math.max(1, Math.ceil((a.rowPtr[r + 1]! - a.rowPtr[r]!) / limit));
  const from = new Uint32Array(count);
  const len = new Uint32Array(count);
  const target = new Uint32Array(count);
  let p = 0;
  for (let r = 0; r < a.rows; r++) {
    const lo = a.rowPtr[r]!;
    const hi = a.rowPtr[r + 1]!;
    const parts = Math.max(1, Math.ceil((hi - lo) / limit));
    // Equal pieces (lengths within one of each other), so the sort keeps a row's pieces together.
    for (let i = 0; i < parts; i++) {
      from[p] = lo + Math.floor(((hi - lo) * i) / parts);
      len[p] = lo + Math.floor(((hi - lo) * (i + 1)) / parts) - from[p]!;
      target[p++] = parts > 1 ? (r | CUT) >>> 0 : r;
    }
  }
  // Sorted by length, longest first, inside each window (stable, so equal lengths keep row order):
  // a counting sort, since no piece is longer than the limit.
  const order = new Uint32Array(count);
  if (window > 1) {
    const longest = longestOf(len);
    const slot = new Uint32Array(longest + 2);
    for (let w0 = 0; w0 < count; w0 += window) {
      const w1 = Math.min(count, w0 + window);
      slot.fill(0);
      for (let i = w0; i < w1; i++) slot[longest - len[i]! + 1]!++;
      slot[0] = w0;
      for (let l = 1; l <= longest + 1; l++) slot[l]! += slot[l - 1]!;
      for (let i = w0; i < w1; i++) order[slot[longest - len[i]!]!++] = i;
    }
  } else {
    for (let i = 0; i < count; i++) order[i] = i;
  }
  // Each slice padded to its longest piece (not to whole steps: the kernel reads the last step's
  // slots past the slice's end as padding).
  const slices = Math.ceil(count / SELL_LANES);
  const start = new Uint32Array(slices + 1);
  for (let s = 0; s < slices; s++) {
    let width = 0;
    for (let l = 0; l < SELL_LANES && s * SELL_LANES + l < count; l++) width = Math.max(width, len[order[s * SELL_LANES + l]!]!);
    start[s + 1] = start[s]! + width * SELL_LANES;
  }
  const slots = start[slices]!;
  const col = new Uint32Array(Math.max(1, slots));
  const val = new Float32Array(Math.max(1, slots));
  const sortedTarget = new Uint32Array(Math.max(1, slices * SELL_LANES));
  const sortedLength = new Uint32Array(count);
  for (let q = 0; q < count; q++) {
    const piece = order[q]!;
    const s = Math.floor(q / SELL_LANES);
    const base = start[s]! + (q % SELL_LANES);
    for (let k = 0; k < len[piece]!; k++) {
      col[base + k * SELL_LANES] = a.colIndex[from[piece]! + k]!;
      val[base + k * SELL_LANES] = a.values[from[piece]! + k]!;
    }
    sortedTarget[q] = target[piece]!;
    sortedLength[q] = len[piece]!;
  }
  const nnz = a.rowPtr[a.rows]!;
  return { pieces: count, start, col, val, target: sortedTarget, length: sortedLength, fill: nnz === 0 ? 1 : slots / nnz };
}

/** sell.wgsl with its STEP constant set (line numbers unchanged). */
export function sellSource(step: number, wgsl: string = SELL_WGSL): string {
  const line = /^const STEP: u32 = \d+u;$/m;
  if (!line.test(wgsl)) throw new Error(`${SELL_FILE}: no line \`const STEP: u32 = <n>u;\` to set the step on.`);
  return wgsl.replace(line, `const STEP: u32 = ${step}u;`);
}

/** The SELL kernel's run over a converted matrix; y (binding 5) comes back as f32 bits in u32 words. */
export function sellRun(sell: Sell, rows: number, x: Float32Array, step: number, workgroupSize = 256): KernelRun {
  const groups = Math.max(1, Math.ceil(sell.pieces / workgroupSize));
  if (!Number.isInteger(workgroupSize) || workgroupSize < 32 || workgroupSize % 32 !== 0 || workgroupSize > 256) throw new RangeError(`SELL runs 32 to 256 invocations per workgroup in whole slices of 32; asked for ${workgroupSize}.`);
  return {
    code: sellSource(step),
    entryPoint: 'main',
    file: SELL_FILE,
    label: 'spmv.sell',
    workgroups: foldWorkgroups(groups),
    bindings: { 0: { 0: sell.start, 1: sell.col, 2: sell.val, 3: x, 4: sell.target, 5: new Uint32Array(Math.max(1, rows)), 6: new Uint32Array([sell.pieces, 0, 0, 0]) } },
    overrides: { WORKGROUP_SIZE: workgroupSize },
  };
}
