/**
 * The matrix-multiply kernels as `KernelRun`s, and their CPU reference. C = A × B with A of
 * M × K, B of K × N and C of M × N, all row-major, f32 or i32. One dispatch per multiply.
 */
import type { KernelRun } from '../../kernel/types.ts';
import { MAX_WORKGROUPS_PER_DIMENSION } from '../../kernel/types.ts';
import NAIVE_WGSL from '../../../shaders/matmul/naive.wgsl?raw';
import COALESCED_WGSL from '../../../shaders/matmul/coalesced.wgsl?raw';
import TILED_WGSL from '../../../shaders/matmul/tiled.wgsl?raw';
import COLUMN_WGSL from '../../../shaders/matmul/column.wgsl?raw';
import VEC4_2D_WGSL from '../../../shaders/matmul/vec4-2d.wgsl?raw';
import FAST_WGSL from '../../../shaders/matmul/fast.wgsl?raw';
import TILE_16X8_WGSL from '../../../shaders/matmul/tile-16x8.wgsl?raw';
import { TILE_SIZES } from './tiles.ts';

export { TILE_SIZES };

export type MatmulVariant = 'naive' | 'coalesced' | 'tiled' | 'column' | 'vec4-2d' | 'fast' | 'tile-16x8';
export type MatmulType = 'f32' | 'i32';

export const MATMUL_VARIANTS: readonly MatmulVariant[] = ['naive', 'coalesced', 'tiled', 'column', 'vec4-2d', 'fast', 'tile-16x8'];

export const isMatmulVariant = (id: string): id is MatmulVariant => (MATMUL_VARIANTS as readonly string[]).includes(id);

/** Per variant: its file, its WGSL, the C block a workgroup owns, whether it reads whole vec4s. */
export interface MatmulKernel {
  readonly file: string;
  readonly wgsl: string;
  /** Rows × columns of C one workgroup computes (for the tiled kernel: TILE × TILE). */
  readonly block: (tile: number) => readonly [number, number];
  /** Depth of one step along K held in workgroup memory; 0 for kernels without tiles. */
  readonly depth: (tile: number) => number;
  /** K and N must be multiples of 4 (the kernel reads and writes whole vec4s). */
  readonly vec4: boolean;
  /** f32 only (the kernel calls `fma`, which takes floats); the others also run on i32. */
  readonly f32Only?: boolean;
}

export const MATMUL_KERNELS: Readonly<Record<MatmulVariant, MatmulKernel>> = {
  naive: { file: 'shaders/matmul/naive.wgsl', wgsl: NAIVE_WGSL, block: () => [16, 16], depth: () => 0, vec4: false },
  coalesced: { file: 'shaders/matmul/coalesced.wgsl', wgsl: COALESCED_WGSL, block: () => [16, 16], depth: () => 0, vec4: false },
  tiled: { file: 'shaders/matmul/tiled.wgsl', wgsl: TILED_WGSL, block: (t) => [t, t], depth: (t) => t, vec4: false },
  column: { file: 'shaders/matmul/column.wgsl', wgsl: COLUMN_WGSL, block: () => [64, 64], depth: () => 16, vec4: false },
  'vec4-2d': { file: 'shaders/matmul/vec4-2d.wgsl', wgsl: VEC4_2D_WGSL, block: () => [64, 64], depth: () => 16, vec4: true },
  fast: { file: 'shaders/matmul/fast.wgsl', wgsl: FAST_WGSL, block: () => [128, 128], depth: () => 8, vec4: true },
  'tile-16x8': { file: 'shaders/matmul/tile-16x8.wgsl', wgsl: TILE_16X8_WGSL, block: () => [256, 128], depth: () => 8, vec4: true, f32Only: true },
};

/** The matrix sizes of one multiply. */
export interface MatmulShape {
  readonly m: number;
  readonly n: number;
  readonly k: number;
}

export const ELEMENT_ALIAS_LINE = 'alias T = f32;';

/** The kernel's text for an element type: only the `alias T` line changes, so lines keep their numbers. */
export function withElementType(code: string, type: MatmulType): string {
  if (type === 'f32') return code;
  const at = code.indexOf(`\n${ELEMENT_ALIAS_LINE}\n`);
  if (at < 0) throw new Error(`a matmul kernel must declare '${ELEMENT_ALIAS_LINE}' on its own line`);
  return code.slice(0, at + 1) + `alias T = ${type};` + code.slice(at + 1 + ELEMENT_ALIAS_LINE.length);
}

/** The dispatch size: [blocks across N, blocks down M] (the naive kernel runs x down the rows). */
export function matmulWorkgroups(variant: MatmulVariant, shape: MatmulShape, tile: number): [number, number] {
  const [bm, bn] = MATMUL_KERNELS[variant].block(tile);
  const across = Math.ceil(shape.n / bn);
  const down = Math.ceil(shape.m / bm);
  return variant === 'naive' ? [down, across] : [across, down];
}

/** The element types a variant runs on. */
export const matmulTypes = (variant: MatmulVariant): readonly MatmulType[] => (MATMUL_KERNELS[variant].f32Only ? ['f32'] : ['f32', 'i32']);

/** Why a shape cannot run on a variant, or null when it can. */
export function shapeProblem(variant: MatmulVariant, shape: MatmulShape, tile: number): string | null {
  for (const [name, v] of [['M', shape.m], ['N', shape.n], ['K', shape.k]] as const) {
    if (!Number.isInteger(v) || v < 1) return `${name} = ${v}: sizes must be whole numbers of at least 1`;
  }
  if (MATMUL_KERNELS[variant].vec4 && (shape.k % 4 !== 0 || shape.n % 4 !== 0)) {
    return `the ${variant} kernel reads whole vec4s, so K and N must be multiples of 4 (K = ${shape.k}, N = ${shape.n})`;
  }
  if (variant === 'tiled' && !(TILE_SIZES as readonly number[]).includes(tile)) return `TILE = ${tile}: the tiled kernel takes ${TILE_SIZES.join(' or ')}`;
  const [x, y] = matmulWorkgroups(variant, shape, tile);
  if (x > MAX_WORKGROUPS_PER_DIMENSION || y > MAX_WORKGROUPS_PER_DIMENSION) return `${x} × ${y} workgroups exceed WebGPU's ${MAX_WORKGROUPS_PER_DIMENSION} per dimension`;
  return null;
}

/** One dispatch computing C = A × B. `c` defaults to a zeroed output. */
export function matmulRun(
  variant: MatmulVariant,
  type: MatmulType,
  shape: MatmulShape,
  tile: number,
  a: Float32Array | Int32Array,
  b: Float32Array | Int32Array,
  source?: string,
): KernelRun {
  const problem = shapeProblem(variant, shape, tile);
  if (problem) throw new RangeError(`Cannot multiply ${shape.m} × ${shape.k} by ${shape.k} × ${shape.n}: ${problem}.`);
  const { m, n, k } = shape;
  if (a.length !== m * k) throw new RangeError(`A has ${a.length} elements; ${m} × ${k} needs ${m * k}.`);
  if (b.length !== k * n) throw new RangeError(`B has ${b.length} elements; ${k} × ${n} needs ${k * n}.`);
  if (!matmulTypes(variant).includes(type)) throw new TypeError(`The ${variant} kernel multiplies ${matmulTypes(variant).join(' or ')} only, not ${type}.`);
  const wantType = type === 'f32' ? Float32Array : Int32Array;
  if (!(a instanceof wantType) || !(b instanceof wantType)) throw new TypeError(`A and B must be ${type} arrays for a ${type} multiply.`);
  const kernel = MATMUL_KERNELS[variant];
  const overrides: Record<string, number> =
    variant === 'tiled' ? { TILE: tile, WG_Y: Math.min(tile, 256 / tile), TILE_AREA: tile * tile } : variant === 'naive' || variant === 'coalesced' ? { WG: 16 } : {};
  return {
    code: withElementType(source ?? kernel.wgsl, type),
    entryPoint: 'main',
    file: kernel.file,
    label: `matmul.${variant}`,
    workgroups: matmulWorkgroups(variant, shape, tile),
    bindings: { 0: { 0: a, 1: b, 2: type === 'f32' ? new Float32Array(m * n) : new Int32Array(m * n), 3: new Uint32Array([m, n, k, 0]) } },
    overrides,
  };
}

/** C = A × B on the CPU, adding along K in order: wrapping i32, or f32 rounded after every step. */
export function matmulReference(type: MatmulType, shape: MatmulShape, a: ArrayLike<number>, b: ArrayLike<number>): Float32Array | Int32Array {
  const { m, n, k } = shape;
  if (type === 'i32') {
    const out = new Int32Array(m * n);
    for (let r = 0; r < m; r++) {
      for (let col = 0; col < n; col++) {
        let acc = 0;
        for (let i = 0; i < k; i++) acc = (acc + Math.imul(a[r * k + i]!, b[i * n + col]!)) | 0;
        out[r * n + col] = acc;
      }
    }
    return out;
  }
  const out = new Float32Array(m * n);
  const f = Math.fround;
  for (let r = 0; r < m; r++) {
    for (let col = 0; col < n; col++) {
      let acc = 0;
      for (let i = 0; i < k; i++) acc = f(acc + f(a[r * k + i]! * b[i * n + col]!));
      out[r * n + col] = acc;
    }
  }
  return out;
}

/**
 * The f32 bound: any order of the K additions (with or without fused multiply-adds) lies within
 * γ_K · Σ|a·b| of the exact sum, γ_K = K·u / (1 − K·u), u = 2^-24; the reference does too, so
 * two results may differ by twice that. Returns the bound for each element of C.
 */
export function f32Bounds(shape: MatmulShape, a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const { m, n, k } = shape;
  const u = 2 ** -24;
  const gamma = (k * u) / (1 - k * u);
  const out = new Float64Array(m * n);
  for (let r = 0; r < m; r++) {
    for (let col = 0; col < n; col++) {
      let s = 0;
      for (let i = 0; i < k; i++) s += Math.abs(a[r * k + i]! * b[i * n + col]!);
      out[r * n + col] = 2 * gamma * s;
    }
  }
  return out;
}
