/**
 * The convolution kernels as `KernelRun`s, their inputs and the CPU reference. The image is
 * `height` rows of `width` f32 values (row-major); the mask is m × m (m = 3, 5, 7), and the 1-D
 * variant uses its first m values. Pixels and mask entries are small whole numbers (as in the
 * seed: pixels below 200), so every product and partial sum is exact in f32 and the GPU, the
 * simulator and the CPU agree bit for bit whatever the order of additions or fused multiply-adds.
 */
import type { KernelRun } from '../../kernel/types.ts';
import { foldWorkgroups } from '../../kernel/types.ts';
import { seededRandom } from '../../util/random.ts';
import CONV1D_WGSL from '../../../shaders/convolution/conv1d.wgsl?raw';
import BASIC2D_WGSL from '../../../shaders/convolution/basic2d.wgsl?raw';
import UNIFORM_MASK_WGSL from '../../../shaders/convolution/uniform-mask.wgsl?raw';
import TILED_WGSL from '../../../shaders/convolution/tiled.wgsl?raw';
import TILED_VEC4_WGSL from '../../../shaders/convolution/tiled-vec4.wgsl?raw';

export const CONVOLUTION_VARIANTS = ['conv1d', 'basic2d', 'uniform-mask', 'tiled', 'tiled-vec4'] as const;
export type ConvolutionVariant = (typeof CONVOLUTION_VARIANTS)[number];

export const CONVOLUTION_KERNELS: Readonly<Record<ConvolutionVariant, { readonly file: string; readonly wgsl: string }>> = {
  conv1d: { file: 'shaders/convolution/conv1d.wgsl', wgsl: CONV1D_WGSL },
  basic2d: { file: 'shaders/convolution/basic2d.wgsl', wgsl: BASIC2D_WGSL },
  'uniform-mask': { file: 'shaders/convolution/uniform-mask.wgsl', wgsl: UNIFORM_MASK_WGSL },
  tiled: { file: 'shaders/convolution/tiled.wgsl', wgsl: TILED_WGSL },
  'tiled-vec4': { file: 'shaders/convolution/tiled-vec4.wgsl', wgsl: TILED_VEC4_WGSL },
};

export const isConvolutionVariant = (id: string): id is ConvolutionVariant => (CONVOLUTION_VARIANTS as readonly string[]).includes(id);

export const MASK_WIDTHS = [3, 5, 7] as const;
/** The most invocations a workgroup may have everywhere WebGPU runs. */
export const MAX_INVOCATIONS = 256;
/** Invocations per row and column of the basic 2-D workgroups. */
export const BASIC_TILE = 16;
/** Output columns and rows of one workgroup of the vec4 tiled variant (16 × 16 invocations, 4 × 2 outputs each). */
export const VEC4_OUT_W = 64;
export const VEC4_OUT_H = 32;
/** Halo columns on each side of the vec4 tile: one vec4. */
export const VEC4_HALO_COLS = 4;

/** Output tile widths the halo-tiled variant can take with mask width m: the input tile (T + m − 1)² fits 256 invocations. */
export function outputTileWidths(m: number): number[] {
  const out: number[] = [];
  for (let t = 4; t + m - 1 <= 16; t++) out.push(t);
  return out;
}

/** Words per row of a variant's buffers: the vec4 variant rounds the width up to a multiple of 4. */
export const pitchOf = (variant: ConvolutionVariant, width: number): number => (variant === 'tiled-vec4' ? Math.ceil(width / 4) * 4 : width);

/** Where one input value sits in a workgroup's tile: the lab's tile layouts, for the trace queries. */
export interface TileGeometry {
  /** Words per tile row. */
  readonly rowWords: number;
  /** Image column of tile column 0 and image row of tile row 0, for workgroup (gx, gy). */
  origin(gx: number, gy: number): { readonly col: number; readonly row: number };
  /** Output columns and rows a workgroup owns. */
  readonly outW: number;
  readonly outH: number;
}

/** The tile layout of a tiled variant, or undefined for the untiled ones. */
export function tileGeometry(variant: ConvolutionVariant, m: number, outTile: number): TileGeometry | undefined {
  const r = (m - 1) / 2;
  if (variant === 'tiled') {
    return { rowWords: outTile + m - 1, outW: outTile, outH: outTile, origin: (gx, gy) => ({ col: gx * outTile - r, row: gy * outTile - r }) };
  }
  if (variant === 'tiled-vec4') {
    return {
      rowWords: VEC4_OUT_W + 2 * VEC4_HALO_COLS,
      outW: VEC4_OUT_W,
      outH: VEC4_OUT_H,
      origin: (gx, gy) => ({ col: gx * VEC4_OUT_W - VEC4_HALO_COLS, row: gy * VEC4_OUT_H - r }),
    };
  }
  return undefined;
}

/** The CPU reference of the 2-D variants: zero ghost cells, mask row-major, j outer, k inner. */
export function convolve2dReference(image: Float32Array, width: number, height: number, mask: Float32Array, m: number): Float32Array {
  const r = (m - 1) / 2;
  const out = new Float32Array(width * height);
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      let v = 0;
      for (let j = 0; j < m; j++) {
        const y = row - r + j;
        if (y < 0 || y >= height) continue;
        for (let k = 0; k < m; k++) {
          const x = col - r + k;
          if (x >= 0 && x < width) v += mask[j * m + k]! * image[y * width + x]!;
        }
      }
      out[row * width + col] = v;
    }
  }
  return out;
}

/** The CPU reference of the 1-D variant: the image as one signal, ghost cells past both ends. */
export function convolve1dReference(signal: Float32Array, mask: Float32Array, m: number): Float32Array {
  const r = (m - 1) / 2;
  const out = new Float32Array(signal.length);
  for (let i = 0; i < signal.length; i++) {
    let v = 0;
    for (let k = 0; k < m; k++) {
      const j = i - r + k;
      if (j >= 0 && j < signal.length) v += mask[k]! * signal[j]!;
    }
    out[i] = v;
  }
  return out;
}

/** The reference a variant's output is checked against. */
export function convolutionReference(variant: ConvolutionVariant, image: Float32Array, width: number, height: number, mask: Float32Array, m: number): Float32Array {
  return variant === 'conv1d' ? convolve1dReference(image, mask, m) : convolve2dReference(image, width, height, mask, m);
}

/** A seeded image of whole numbers below 200 and an m × m mask of whole numbers 0 … 4. */
export function convolutionInputs(width: number, height: number, m: number, seed: number): { image: Float32Array; mask: Float32Array } {
  const rng = seededRandom(seed);
  const image = new Float32Array(width * height);
  for (let i = 0; i < image.length; i++) image[i] = Math.floor(rng() * 200);
  const mask = new Float32Array(m * m);
  for (let i = 0; i < mask.length; i++) mask[i] = Math.floor(rng() * 5);
  return { image, mask };
}

function withPitch(image: Float32Array, width: number, height: number, pitch: number): Float32Array {
  if (pitch === width) return image.length % 4 === 0 ? image : padded(image, Math.ceil(image.length / 4) * 4);
  const out = new Float32Array(pitch * height);
  for (let y = 0; y < height; y++) out.set(image.subarray(y * width, y * width + width), y * pitch);
  return out;
}

function padded(data: Float32Array, length: number): Float32Array {
  const out = new Float32Array(Math.max(length, 4));
  out.set(data);
  return out;
}

/** The mask as a uniform block: 13 vec4s (room for 7 × 7). */
function maskUniform(mask: Float32Array): Float32Array {
  const out = new Float32Array(52);
  out.set(mask);
  return out;
}

export interface ConvolutionShape {
  readonly width: number;
  readonly height: number;
  readonly maskWidth: number;
  /** Output tile width of the halo-tiled variant. */
  readonly outTile: number;
}

/** One dispatch of a variant over an image. */
export function convolutionRun(variant: ConvolutionVariant, image: Float32Array, mask: Float32Array, shape: ConvolutionShape, source?: string): KernelRun {
  const { width, height, maskWidth: m, outTile } = shape;
  if (!(MASK_WIDTHS as readonly number[]).includes(m)) throw new RangeError(`Mask width ${m}: use 3, 5 or 7.`);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new RangeError(`Image ${width} × ${height}: both sides must be whole numbers of at least 1.`);
  if (image.length !== width * height) throw new RangeError(`The image has ${image.length} values; ${width} × ${height} needs ${width * height}.`);
  if (mask.length < m * m) throw new RangeError(`The mask has ${mask.length} values; ${m} × ${m} needs ${m * m}.`);
  if (variant === 'tiled' && !outputTileWidths(m).includes(outTile)) {
    throw new RangeError(`Output tile ${outTile} with a ${m} × ${m} mask: the input tile (${outTile + m - 1})² must fit ${MAX_INVOCATIONS} invocations; use ${outputTileWidths(m).join(', ')}.`);
  }
  const pitch = pitchOf(variant, width);
  const { file, wgsl } = CONVOLUTION_KERNELS[variant];
  const params = new Uint32Array([width, height, pitch, m]);
  const out = new Float32Array(Math.max(4, Math.ceil((pitch * height) / 4) * 4));
  const input = withPitch(image, width, height, pitch);
  const common = { code: source ?? wgsl, entryPoint: 'main', file, label: `convolution.${variant}` };
  switch (variant) {
    case 'conv1d':
      return { ...common, workgroups: foldWorkgroups(Math.ceil((width * height) / 256)), bindings: { 0: { 0: input, 1: padded(mask.slice(0, m), m), 2: out, 3: params } }, overrides: { WORKGROUP_SIZE: 256 } };
    case 'basic2d':
      return { ...common, workgroups: [Math.ceil(width / BASIC_TILE), Math.ceil(height / BASIC_TILE)], bindings: { 0: { 0: input, 1: padded(mask, m * m), 2: out, 3: params } }, overrides: { TILE: BASIC_TILE } };
    case 'uniform-mask':
      return { ...common, workgroups: [Math.ceil(width / BASIC_TILE), Math.ceil(height / BASIC_TILE)], bindings: { 0: { 0: input, 1: maskUniform(mask), 2: out, 3: params } }, overrides: { TILE: BASIC_TILE } };
    case 'tiled': {
      const inTile = outTile + m - 1;
      return {
        ...common,
        workgroups: [Math.ceil(width / outTile), Math.ceil(height / outTile)],
        bindings: { 0: { 0: input, 1: padded(mask, m * m), 2: out, 3: params } },
        overrides: { OUT_TILE: outTile, MASK_WIDTH: m, IN_TILE: inTile, TILE_WORDS: inTile * inTile },
      };
    }
    case 'tiled-vec4': {
      const inH = VEC4_OUT_H + m - 1;
      return {
        ...common,
        workgroups: [Math.ceil(width / VEC4_OUT_W), Math.ceil(height / VEC4_OUT_H)],
        bindings: { 0: { 0: input, 1: maskUniform(mask), 2: out, 3: params } },
        overrides: { MASK_WIDTH: m, IN_H: inH, TILE_VEC4S: ((VEC4_OUT_W + 2 * VEC4_HALO_COLS) / 4) * inH },
      };
    }
  }
}

/** The output of a run without the row padding of its pitch. */
export function unpitch(out: Float32Array, variant: ConvolutionVariant, width: number, height: number): Float32Array {
  const pitch = pitchOf(variant, width);
  const img = new Float32Array(width * height);
  for (let y = 0; y < height; y++) img.set(out.subarray(y * pitch, y * pitch + width), y * width);
  return img;
}
