/**
 * The sparse matrix–vector kernels as `KernelRun`s: each variant converts the CSR matrix to its
 * own format (`formats.ts`) and binds those arrays. One dispatch per variant; the grid is capped
 * at the per-dimension limit and the kernels stride over the rest.
 */
import type { BindingData, KernelRun } from '../../kernel/types.ts';
import { MAX_WORKGROUPS_PER_DIMENSION } from '../../kernel/types.ts';
import CSR_SCALAR_WGSL from '../../../shaders/spmv/csr-scalar.wgsl?raw';
import CSR_VECTOR_WGSL from '../../../shaders/spmv/csr-vector.wgsl?raw';
import CSR_MERGE_WGSL from '../../../shaders/spmv/csr-merge.wgsl?raw';
import ELL_WGSL from '../../../shaders/spmv/ell.wgsl?raw';
import COO_WGSL from '../../../shaders/spmv/coo.wgsl?raw';
import HYBRID_WGSL from '../../../shaders/spmv/hybrid.wgsl?raw';
import JDS_WGSL from '../../../shaders/spmv/jds.wgsl?raw';
import CSR_ADAPTIVE_WGSL from '../../../shaders/spmv/csr-adaptive.wgsl?raw';
import CSR_ADAPTIVE_VEC4_WGSL from '../../../shaders/spmv/csr-adaptive-vec4.wgsl?raw';
import { adaptiveGroup, hybridWidth, longestOf, nonzeros, rowBins, rowLengths, toCoo, toEll, toHybrid, toJds, type Csr, type RowBins } from './formats.ts';
import { SELL_FILE, SELL_WGSL, sellOptions, sellRun, toSell } from './sell.ts';

export const SPMV_VARIANTS = ['csr-scalar', 'csr-vector', 'ell', 'coo', 'hybrid', 'jds', 'csr-merge', 'csr-adaptive', 'sell'] as const;
export type SpmvVariant = (typeof SPMV_VARIANTS)[number];
export const isSpmvVariant = (id: string): id is SpmvVariant => (SPMV_VARIANTS as readonly string[]).includes(id);

export const SPMV_KERNELS: Readonly<Record<SpmvVariant, { readonly file: string; readonly wgsl: string }>> = {
  'csr-scalar': { file: 'shaders/spmv/csr-scalar.wgsl', wgsl: CSR_SCALAR_WGSL },
  'csr-vector': { file: 'shaders/spmv/csr-vector.wgsl', wgsl: CSR_VECTOR_WGSL },
  ell: { file: 'shaders/spmv/ell.wgsl', wgsl: ELL_WGSL },
  coo: { file: 'shaders/spmv/coo.wgsl', wgsl: COO_WGSL },
  hybrid: { file: 'shaders/spmv/hybrid.wgsl', wgsl: HYBRID_WGSL },
  jds: { file: 'shaders/spmv/jds.wgsl', wgsl: JDS_WGSL },
  'csr-merge': { file: 'shaders/spmv/csr-merge.wgsl', wgsl: CSR_MERGE_WGSL },
  'csr-adaptive': { file: 'shaders/spmv/csr-adaptive.wgsl', wgsl: CSR_ADAPTIVE_WGSL },
  sell: { file: SELL_FILE, wgsl: SELL_WGSL },
};

/** The variants whose kernels use subgroup operations. */
export const needsSubgroups = (variant: SpmvVariant) => variant === 'csr-vector' || variant === 'hybrid' || variant === 'csr-merge' || variant === 'csr-adaptive' || variant === 'sell';

/** Merge path: items (nonzeros or row ends) each invocation walks; a tile is workgroup size × this (`ITEMS` in csr-merge.wgsl). */
export const MERGE_ITEMS_PER_INVOCATION = 7;

/** Merge path: the tiles of `itemsPerTile` items that cover a matrix's rows + nonzeros. */
export const mergeTiles = (a: Csr, itemsPerTile: number) => Math.ceil((a.rows + nonzeros(a)) / itemsPerTile);

/**
 * CSR vector's lanes per row, from the mean row length as Bell & Garland choose it: the smallest
 * of 2, 4, 8, 16, 32 at least the mean (32 for anything longer).
 */
export function vectorWidth(a: Csr): number {
  const mean = a.rows ? nonzeros(a) / a.rows : 0;
  let w = 2;
  while (w < 32 && w < mean) w *= 2;
  return w;
}

/** Whether y comes back as f32 bits in u32 words (the atomic variants). */
export const atomicOutput = (variant: SpmvVariant) => variant === 'coo' || variant === 'hybrid' || variant === 'csr-merge' || variant === 'csr-adaptive' || variant === 'sell';

/** The most words ELL may store before the lab refuses (1 GiB of values and indices together). */
export const MAX_ELL_WORDS = 1 << 27;

/** WebGPU binds no empty buffer: an empty array becomes one zero word (never read). */
function nonEmpty<T extends BindingData>(a: T): T {
  if (a.length > 0) return a;
  return (a instanceof Float32Array ? new Float32Array(1) : new Uint32Array(1)) as T;
}

/** Workgroups for `items` invocations, capped so the dispatch stays one-dimensional. */
const gridFor = (items: number, workgroupSize: number) => Math.max(1, Math.min(MAX_WORKGROUPS_PER_DIMENSION, Math.ceil(items / workgroupSize)));

function checkInputs(a: Csr, x: Float32Array, workgroupSize: number): void {
  if (a.rows < 1) throw new RangeError('The matrix has no rows: give it at least one.');
  if (x.length !== a.cols) throw new RangeError(`x has ${x.length} entries; the matrix has ${a.cols} columns.`);
  if (!Number.isInteger(workgroupSize) || workgroupSize < 32 || workgroupSize > 256 || workgroupSize % 32 !== 0) {
    throw new RangeError(`Workgroup size ${workgroupSize}: the SpMV kernels take 32 to 256 invocations in whole warps of 32.`);
  }
}

/** The one dispatch of `variant` over A and x. */
export function spmvRun(variant: SpmvVariant, a: Csr, x: Float32Array, workgroupSize = 256, source?: string): KernelRun {
  checkInputs(a, x, workgroupSize);
  const { file, wgsl } = SPMV_KERNELS[variant];
  const base = { code: source ?? wgsl, entryPoint: 'main', file, label: `spmv.${variant}` };
  const y = new Float32Array(a.rows);
  const csrBindings = { 0: nonEmpty(a.rowPtr), 1: nonEmpty(a.colIndex), 2: nonEmpty(a.values), 3: nonEmpty(x), 4: y, 5: new Uint32Array([a.rows, 0, 0, 0]) };
  switch (variant) {
    case 'csr-scalar':
      return { ...base, workgroups: [gridFor(a.rows, workgroupSize)], bindings: { 0: csrBindings }, overrides: { WORKGROUP_SIZE: workgroupSize } };
    case 'csr-vector': {
      const width = vectorWidth(a);
      const rowsPerWorkgroup = workgroupSize / width;
      return {
        ...base,
        workgroups: [gridFor(a.rows, rowsPerWorkgroup)],
        bindings: { 0: csrBindings },
        overrides: { WORKGROUP_SIZE: workgroupSize, ROWS_PER_WORKGROUP: rowsPerWorkgroup, VECTOR_WIDTH: width },
      };
    }
    case 'ell': {
      const width = longestOf(rowLengths(a));
      if (a.rows * width > MAX_ELL_WORDS) {
        throw new RangeError(`ELL would pad ${a.rows.toLocaleString('en')} rows to the longest row's ${width.toLocaleString('en')} slots, ${(a.rows * width).toLocaleString('en')} words per array; use the hybrid or CSR for this matrix.`);
      }
      const ell = toEll(a, width);
      return {
        ...base,
        workgroups: [gridFor(a.rows, workgroupSize)],
        bindings: { 0: { 0: nonEmpty(ell.colIndex), 1: nonEmpty(ell.values), 2: nonEmpty(x), 3: y, 4: new Uint32Array([a.rows, width, 0, 0]) } },
        overrides: { WORKGROUP_SIZE: workgroupSize },
      };
    }
    case 'coo': {
      const coo = toCoo(a);
      const count = coo.values.length;
      return {
        ...base,
        workgroups: [gridFor(count, workgroupSize)],
        bindings: {
          0: { 0: nonEmpty(coo.rowIndex), 1: nonEmpty(coo.colIndex), 2: nonEmpty(coo.values), 3: nonEmpty(x), 4: new Uint32Array(a.rows), 5: new Uint32Array([count, 0, 0, 0]) },
        },
        overrides: { WORKGROUP_SIZE: workgroupSize },
      };
    }
    case 'hybrid': {
      const { ell, coo } = toHybrid(a, hybridWidth(rowLengths(a)));
      const count = coo.values.length;
      return {
        ...base,
        workgroups: [gridFor(a.rows + count, workgroupSize)],
        bindings: {
          0: {
            0: nonEmpty(ell.colIndex),
            1: nonEmpty(ell.values),
            2: nonEmpty(coo.rowIndex),
            3: nonEmpty(coo.colIndex),
            4: nonEmpty(coo.values),
            5: nonEmpty(x),
            6: new Uint32Array(a.rows),
            7: new Uint32Array([a.rows, ell.width, count, 0]),
          },
        },
        overrides: { WORKGROUP_SIZE: workgroupSize },
      };
    }
    case 'csr-merge': {
      const tileItems = workgroupSize * MERGE_ITEMS_PER_INVOCATION;
      const tiles = mergeTiles(a, tileItems);
      return {
        ...base,
        workgroups: [Math.min(MAX_WORKGROUPS_PER_DIMENSION, tiles)],
        bindings: { 0: { ...csrBindings, 4: new Uint32Array(a.rows), 5: new Uint32Array([a.rows, nonzeros(a), tiles, 0]) } },
        overrides: { WORKGROUP_SIZE: workgroupSize, TILE_ITEMS: tileItems },
      };
    }
    case 'csr-adaptive':
      return { ...adaptiveRun(a, x, workgroupSize), ...base };
    case 'sell': {
      const opts = sellOptions(a);
      return { ...sellRun(toSell(a, opts), a.rows, nonEmpty(x), opts.step, workgroupSize), ...base };
    }
    case 'jds': {
      const jds = toJds(a);
      return {
        ...base,
        workgroups: [gridFor(a.rows, workgroupSize)],
        bindings: { 0: { 0: jds.perm, 1: jds.rowPtr, 2: nonEmpty(jds.colIndex), 3: nonEmpty(jds.values), 4: nonEmpty(x), 5: y, 6: new Uint32Array([a.rows, 0, 0, 0]) } },
        overrides: { WORKGROUP_SIZE: workgroupSize },
      };
    }
  }
}

/** CSR adaptive's settings: lanes per short row, short rows per work unit, the long-row bins. */
export interface AdaptiveOptions {
  /** Lanes per short row (a power of two, 1 … 32); `adaptiveGroup` by default. */
  readonly group?: number;
  /** Short rows per work unit, in passes of the workgroup's lanes ÷ group rows (2 by default). */
  readonly passes?: number;
  /** The bins; `rowBins(a, 8 · group)` by default. */
  readonly bins?: RowBins;
  /** The vec4-load experiment (shaders/spmv/csr-adaptive-vec4.wgsl, timed by scripts/experiments/spmv-adaptive.ts; not a lab variant). */
  readonly vec4?: boolean;
}

/** The file of CSR adaptive's vec4-load experiment. */
export const ADAPTIVE_VEC4_FILE = 'shaders/spmv/csr-adaptive-vec4.wgsl';

/** `a` padded with zeros to a multiple of four words (itself when it already is one, or empty). */
function toWholeVectors<T extends Uint32Array | Float32Array>(a: T): T {
  const length = Math.max(4, Math.ceil(a.length / 4) * 4);
  if (length === a.length) return a;
  const out = (a instanceof Float32Array ? new Float32Array(length) : new Uint32Array(length)) as T;
  out.set(a);
  return out;
}

/** CSR adaptive's dispatch; `spmvRun('csr-adaptive', …)` is this with the defaults. */
export function adaptiveRun(a: Csr, x: Float32Array, workgroupSize = 256, opts: AdaptiveOptions = {}): KernelRun {
  checkInputs(a, x, workgroupSize);
  const group = opts.group ?? adaptiveGroup(a);
  if (!Number.isInteger(Math.log2(group)) || group < 1 || group > 32) throw new RangeError(`CSR adaptive's group of ${group} lanes per row: give a power of two from 1 to 32.`);
  const passes = opts.passes ?? 2;
  if (!Number.isInteger(passes) || passes < 1) throw new RangeError(`CSR adaptive's ${passes} passes per work unit: give a whole number, 1 or more.`);
  const bins = opts.bins ?? rowBins(a, 8 * group);
  const rowsPerWorkgroup = (workgroupSize / group) * passes;
  // One chunk per 32-lane subgroup of the workgroup.
  const chunksPerWorkgroup = workgroupSize / 32;
  const count = bins.chunks.length / 4;
  const chunkBlocks = Math.ceil(count / chunksPerWorkgroup);
  const units = chunkBlocks + Math.ceil(a.rows / rowsPerWorkgroup);
  const vec4 = opts.vec4 ?? false;
  return {
    code: vec4 ? CSR_ADAPTIVE_VEC4_WGSL : CSR_ADAPTIVE_WGSL,
    entryPoint: 'main',
    file: vec4 ? ADAPTIVE_VEC4_FILE : SPMV_KERNELS['csr-adaptive'].file,
    label: vec4 ? 'spmv.csr-adaptive-vec4' : 'spmv.csr-adaptive',
    workgroups: [Math.max(1, Math.min(MAX_WORKGROUPS_PER_DIMENSION, units))],
    bindings: {
      0: {
        0: nonEmpty(a.rowPtr),
        1: vec4 ? toWholeVectors(a.colIndex) : nonEmpty(a.colIndex),
        2: vec4 ? toWholeVectors(a.values) : nonEmpty(a.values),
        3: nonEmpty(x),
        4: new Uint32Array(a.rows),
        5: new Uint32Array([a.rows, bins.longAfter, count, chunkBlocks]),
        // A vec4 array: an empty list is bound as one zero chunk (never read).
        6: count > 0 ? bins.chunks : new Uint32Array(4),
      },
    },
    overrides: { WORKGROUP_SIZE: workgroupSize, GROUP: group, ROWS_PER_WORKGROUP: rowsPerWorkgroup, CHUNKS_PER_WORKGROUP: chunksPerWorkgroup },
  };
}

/** The binding that holds y in a variant's run. */
export const Y_BINDING: Readonly<Record<SpmvVariant, number>> = { 'csr-scalar': 4, 'csr-vector': 4, ell: 3, coo: 4, hybrid: 6, jds: 5, 'csr-merge': 4, 'csr-adaptive': 4, sell: 5 };

/** y as f32 from a run's output binding (the atomic variants return its bits as u32). */
export function yOf(variant: SpmvVariant, data: BindingData, rows: number): Float32Array {
  const f = atomicOutput(variant) ? new Float32Array(data.buffer, data.byteOffset, data.length) : (data as Float32Array);
  return f.slice(0, rows);
}

/** Bytes any format must move at least: values and column indices once, x once per nonzero, y once. */
export function leastBytes(a: Csr): number {
  return 4 * (3 * nonzeros(a) + a.rows);
}
