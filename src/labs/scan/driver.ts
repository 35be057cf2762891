/**
 * Builds and chains the scan lab's `KernelRun`s. `scan` runs a variant on any executor (the GPU,
 * or the simulator wrapped in a promise) for any length and returns the output with every pass it
 * ran, so the same chain can be replayed, traced or timed.
 */
import { foldWorkgroups, type BindingData, type KernelRun } from '../../kernel/types.ts';
import { arrayFor, elementTypeOf, padToVec4, type ElementType, type KernelExecutor } from '../../workbench/labTypes.ts';
import { ADD_TILE_SUMS, SINGLE_PASS_ITEMS, scanVariant, withElementType, type ScanVariant, type ScanVariantId } from './variants.ts';
import LINEAR_WGSL from '../../../shaders/common/linear-workgroup.wgsl?raw';

export interface ScanOptions {
  /** Exclusive scan (element i gets the sum before it); default inclusive. */
  readonly exclusive?: boolean;
  /** Invocations per workgroup; default the variant's. */
  readonly workgroupSize?: number;
  /** Element type; default taken from the input array (Uint32Array → u32, Int32Array → i32, Float32Array → f32). */
  readonly type?: ElementType;
  /** `summed-area` only: row length of the row-major matrix; default n (a single row). */
  readonly width?: number;
}

export interface ScanResult {
  readonly output: BindingData;
  /** Every dispatch in the order it ran, with the inputs it was given. */
  readonly passes: KernelRun[];
}

interface Resolved {
  readonly exclusive: boolean;
  readonly workgroupSize: number;
  readonly type: ElementType;
}


function resolve(variant: ScanVariant, opts: ScanOptions, input?: BindingData): Resolved {
  const type = opts.type ?? (input ? elementTypeOf(input) : 'u32');
  if (input && elementTypeOf(input) !== type) {
    throw new TypeError(`scan input is ${elementTypeOf(input)} but options ask for ${type}`);
  }
  const workgroupSize = opts.workgroupSize ?? variant.defaultWorkgroupSize;
  if (!variant.workgroupSizes.includes(workgroupSize)) {
    throw new RangeError(`${variant.id} takes workgroups of ${variant.workgroupSizes.join(', ')}, not ${workgroupSize}`);
  }
  return { exclusive: opts.exclusive ?? false, workgroupSize, type };
}

/** Kernel text for a type, with the linear-workgroup helper appended (line numbers unchanged). */
function kernelCode(code: string, type: ElementType): string {
  return `${withElementType(code, type)}\n${LINEAR_WGSL}`;
}

const params = (...values: number[]): Uint32Array => {
  const p = new Uint32Array(Math.max(4, Math.ceil(values.length / 4) * 4));
  p.set(values);
  return p;
};

/** Elements per workgroup tile of a variant at a workgroup size. */
export function tileSize(variant: ScanVariant, workgroupSize: number): number {
  return variant.elementsPerInvocation * workgroupSize;
}

/** Pass 1 of a tile variant: scans each tile of `input` and writes each tile's total. */
export function tileScanRun(variantId: ScanVariantId, input: BindingData, opts: ScanOptions = {}): KernelRun {
  const variant = scanVariant(variantId);
  if (variant.shape !== 'tiles') throw new RangeError(`${variantId} is not a tile scan`);
  const r = resolve(variant, opts, input);
  const n = input.length;
  const tile = tileSize(variant, r.workgroupSize);
  const tiles = Math.ceil(n / tile);
  return {
    code: kernelCode(variant.code, r.type),
    entryPoint: 'main',
    file: variant.file,
    label: `scan.${variant.id}`,
    workgroups: foldWorkgroups(tiles),
    overrides: { WORKGROUP_SIZE: r.workgroupSize, EXCLUSIVE: r.exclusive ? 1 : 0 },
    bindings: { 0: { 0: input, 1: arrayFor(r.type, n), 2: arrayFor(r.type, tiles), 3: params(n, tiles) } },
  };
}

/** Pass 3 of the multi-block scan: adds `offsets[t]` to every element of tile t of `data`. */
export function addTileSumsRun(data: BindingData, offsets: BindingData, tile: number, workgroupSize = 256): KernelRun {
  const type = elementTypeOf(data);
  const tiles = Math.ceil(data.length / tile);
  return {
    code: kernelCode(ADD_TILE_SUMS.code, type),
    entryPoint: ADD_TILE_SUMS.entryPoint,
    file: ADD_TILE_SUMS.file,
    label: 'scan.add-tile-sums',
    workgroups: foldWorkgroups(tiles),
    overrides: { WORKGROUP_SIZE: workgroupSize },
    bindings: { 0: { 0: data, 1: offsets, 2: params(data.length, tile, tiles) } },
  };
}

/** Options of the single-pass kernel beyond {@link ScanOptions}. */
export interface SinglePassOptions extends ScanOptions {
  /** Reads of a predecessor's slot before falling back (the `SPIN_LIMIT` override); 0 always falls back. */
  readonly spinLimit?: number;
  /** The status words from an earlier dispatch on the same buffer (default: zeroed). */
  readonly status?: Uint32Array;
}

/** Status words the single-pass kernel needs for n elements: a ticket, then 4 per tile. */
export function singlePassStatusWords(n: number, workgroupSize: number): number {
  return 1 + 4 * Math.ceil(n / (workgroupSize * SINGLE_PASS_ITEMS));
}

/** The single-pass scan: one dispatch for any length. */
export function singlePassRun(input: BindingData, opts: SinglePassOptions = {}): KernelRun {
  const variant = scanVariant('single-pass');
  const r = resolve(variant, opts, input);
  const n = input.length;
  const tiles = Math.ceil(n / tileSize(variant, r.workgroupSize));
  const words = singlePassStatusWords(n, r.workgroupSize);
  const status = opts.status ?? new Uint32Array(words);
  if (status.length !== words) throw new RangeError(`status needs ${words} words, got ${status.length}`);
  return {
    code: kernelCode(variant.code, r.type),
    entryPoint: 'main',
    file: variant.file,
    label: 'scan.single-pass',
    workgroups: foldWorkgroups(tiles),
    overrides: {
      WORKGROUP_SIZE: r.workgroupSize,
      ITEMS: SINGLE_PASS_ITEMS,
      EXCLUSIVE: r.exclusive ? 1 : 0,
      ...(opts.spinLimit !== undefined ? { SPIN_LIMIT: opts.spinLimit } : {}),
    },
    bindings: { 0: { 0: input, 1: arrayFor(r.type, n), 2: status, 3: params(n, tiles) } },
  };
}

/**
 * The vec4 single passes: the shipped one, the one that scans its tile after the look-back, and the
 * one whose subgroup 0 alone scans the subgroups' totals. They share bindings, status words and tile.
 */
export type Vec4SinglePassId = 'single-pass-vec4' | 'single-pass-late-scan' | 'single-pass-warp-totals';
const VEC4_SINGLE_PASS_IDS: readonly ScanVariantId[] = ['single-pass-vec4', 'single-pass-late-scan', 'single-pass-warp-totals'];

/** Status words a vec4 single-pass kernel needs for n elements: a ticket, then 2 per tile. */
export function singlePassVec4StatusWords(n: number, workgroupSize: number, variantId: Vec4SinglePassId = 'single-pass-vec4'): number {
  return 1 + 2 * Math.ceil(n / tileSize(scanVariant(variantId), workgroupSize));
}

/**
 * The vec4 single-pass scan: one dispatch for any length. Its input and output bindings are vec4
 * arrays, so both are padded to a multiple of 4 elements; output binding 1 is that long, and
 * {@link scan} cuts it back to n.
 */
export function singlePassVec4Run(input: BindingData, opts: SinglePassOptions = {}, variantId: Vec4SinglePassId = 'single-pass-vec4'): KernelRun {
  const variant = scanVariant(variantId);
  const r = resolve(variant, opts, input);
  const n = input.length;
  const tiles = Math.ceil(n / tileSize(variant, r.workgroupSize));
  const words = singlePassVec4StatusWords(n, r.workgroupSize, variantId);
  const status = opts.status ?? new Uint32Array(words);
  if (status.length !== words) throw new RangeError(`status needs ${words} words, got ${status.length}`);
  const padded = padToVec4(input);
  return {
    code: kernelCode(variant.code, r.type),
    entryPoint: 'main',
    file: variant.file,
    label: `scan.${variantId}`,
    workgroups: foldWorkgroups(tiles),
    overrides: {
      WORKGROUP_SIZE: r.workgroupSize,
      EXCLUSIVE: r.exclusive ? 1 : 0,
      ...(opts.spinLimit !== undefined ? { SPIN_LIMIT: opts.spinLimit } : {}),
    },
    bindings: { 0: { 0: padded, 1: arrayFor(r.type, padded.length), 2: status, 3: params(n, tiles) } },
  };
}

/** The one dispatch of a single-pass variant. */
export function singlePassRunOf(variantId: ScanVariantId, input: BindingData, opts: SinglePassOptions = {}): KernelRun {
  if (VEC4_SINGLE_PASS_IDS.includes(variantId)) return singlePassVec4Run(input, opts, variantId as Vec4SinglePassId);
  if (variantId === 'single-pass') return singlePassRun(input, opts);
  throw new RangeError(`${variantId} is not a single-pass scan`);
}

/** Pass 1 of the summed-area table: scans each row of a row-major width × height matrix. */
export function summedAreaRowsRun(input: BindingData, width: number, height: number, opts: ScanOptions = {}): KernelRun {
  const variant = scanVariant('summed-area');
  const r = resolve(variant, opts, input);
  if (input.length !== width * height) throw new RangeError(`${input.length} elements are not ${width} × ${height}`);
  return {
    code: kernelCode(variant.code, r.type),
    entryPoint: 'scan_rows',
    file: variant.file,
    label: 'scan.summed-area.rows',
    workgroups: foldWorkgroups(height),
    overrides: { WORKGROUP_SIZE: r.workgroupSize, EXCLUSIVE: r.exclusive ? 1 : 0 },
    bindings: { 0: { 0: input, 1: arrayFor(r.type, input.length), 2: params(width, height) } },
  };
}

/** Pass 2 of the summed-area table: scans each column of what pass 1 wrote. */
export function summedAreaColumnsRun(rows: BindingData, width: number, height: number, opts: ScanOptions = {}): KernelRun {
  const variant = scanVariant('summed-area');
  const r = resolve(variant, opts, rows);
  if (rows.length !== width * height) throw new RangeError(`${rows.length} elements are not ${width} × ${height}`);
  return {
    code: kernelCode(variant.code, r.type),
    entryPoint: 'scan_columns',
    file: variant.file,
    label: 'scan.summed-area.columns',
    workgroups: foldWorkgroups(Math.ceil(width / r.workgroupSize)),
    overrides: { WORKGROUP_SIZE: r.workgroupSize, EXCLUSIVE: r.exclusive ? 1 : 0 },
    bindings: { 0: { 0: rows, 1: arrayFor(r.type, rows.length), 2: params(width, height) } },
  };
}

async function scanTiles(executor: KernelExecutor, id: ScanVariantId, input: BindingData, opts: ScanOptions, passes: KernelRun[]): Promise<BindingData> {
  const first = tileScanRun(id, input, opts);
  passes.push(first);
  const done = (await executor.run(first))[0]!;
  const scanned = done[1]!;
  const sums = done[2]!;
  if (sums.length <= 1) return scanned;
  // The exclusive scan of the tile totals is each tile's offset; recursion covers any count.
  const offsets = await scanTiles(executor, id, sums, { ...opts, exclusive: true }, passes);
  const variant = scanVariant(id);
  const wg = opts.workgroupSize ?? variant.defaultWorkgroupSize;
  const add = addTileSumsRun(scanned, offsets, tileSize(variant, wg), wg);
  passes.push(add);
  return (await executor.run(add))[0]![0]!;
}

/**
 * Scans `input` with a variant, chaining as many passes as the length needs: tile variants scan
 * tiles, scan the tile sums (recursively) and add them back; the single pass needs one dispatch;
 * the summed-area table treats `input` as a matrix `opts.width` wide (default one row).
 */
export async function scan(executor: KernelExecutor, variantId: ScanVariantId, input: BindingData, opts: ScanOptions = {}): Promise<ScanResult> {
  const variant = scanVariant(variantId);
  const r = resolve(variant, opts, input);
  const passes: KernelRun[] = [];
  if (input.length === 0) return { output: arrayFor(r.type, 0), passes };
  const o: ScanOptions = { ...opts, ...r };
  switch (variant.shape) {
    case 'tiles':
      return { output: await scanTiles(executor, variantId, input, o, passes), passes };
    case 'single-pass': {
      const run = singlePassRunOf(variantId, input, o);
      passes.push(run);
      const output = (await executor.run(run))[0]![1]!;
      return { output: output.length === input.length ? output : output.slice(0, input.length), passes };
    }
    case 'matrix': {
      const width = opts.width ?? input.length;
      const height = input.length / width;
      if (!Number.isInteger(height)) throw new RangeError(`${input.length} elements do not fill rows of ${width}`);
      const rows = summedAreaRowsRun(input, width, height, o);
      passes.push(rows);
      const rowScanned = (await executor.run(rows))[0]![1]!;
      const columns = summedAreaColumnsRun(rowScanned, width, height, o);
      passes.push(columns);
      return { output: (await executor.run(columns))[0]![1]!, passes };
    }
  }
}

/** A near-square shape for n elements as a matrix: the widest power-of-two width ≤ √n that divides n. */
export function matrixShape(n: number): { width: number; height: number } {
  let width = 1;
  while (width * 2 * width * 2 <= n && n % (width * 2) === 0) width *= 2;
  return { width, height: n / width };
}

/**
 * The chain of dispatches `scan` would run for n elements, for `GpuExecutor.time(chain)`: every
 * pass binds buffers of the sizes it really uses. The input holds pseudo-random small integers
 * (timing on zeros can flatter a GPU that compresses memory); the other buffers hold zeros. The
 * summed-area table takes a near-square matrix ({@link matrixShape}).
 */
export function timingPasses(variantId: ScanVariantId, n: number, opts: ScanOptions = {}): KernelRun[] {
  const variant = scanVariant(variantId);
  const r = resolve(variant, opts);
  const o: ScanOptions = { ...opts, ...r };
  if (n === 0) return [];
  // One zero array per length serves as every other input and output binding (executors copy them).
  const zeros = new Map<number, BindingData>();
  const z = (len: number): BindingData => {
    let a = zeros.get(len);
    if (!a) zeros.set(len, (a = arrayFor(r.type, len)));
    return a;
  };
  const data = arrayFor(r.type, n);
  let x = 0x9e3779b9;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    data[i] = x >>> 24; // 0 … 255: exact in f32 tile sums
  }
  switch (variant.shape) {
    case 'tiles': {
      const chain = (len: number, exclusive: boolean): KernelRun[] => {
        const tile = tileSize(variant, r.workgroupSize);
        const tiles = Math.ceil(len / tile);
        const first = tileScanRun(variantId, len === n ? data : z(len), { ...o, exclusive });
        if (tiles <= 1) return [first];
        return [first, ...chain(tiles, true), addTileSumsRun(z(len), z(tiles), tile, r.workgroupSize)];
      };
      return chain(n, r.exclusive);
    }
    case 'single-pass':
      return [singlePassRunOf(variantId, data, o)];
    case 'matrix': {
      const { width, height } = opts.width ? { width: opts.width, height: n / opts.width } : matrixShape(n);
      return [summedAreaRowsRun(data, width, height, o), summedAreaColumnsRun(z(n), width, height, o)];
    }
  }
}
