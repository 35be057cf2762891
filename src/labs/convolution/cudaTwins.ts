/**
 * The convolution lab's CUDA sources beside its WGSL variants (issue #26), launched as a CUDA host
 * launches them on the lab's image and mask: the constant-memory variants get the mask through
 * `cudaMemcpyToSymbol(M, …)` (the launch's `M` argument), the tiled ones pick the template
 * instance for the mask width. Read by the tests (`src/labs/cudaTwins*.test.ts`) and the bench
 * (`BENCH_ONLY=cuda`).
 */
import { onePassCase, wordsOf, type LabTwin, type TwinCase, type TwinLimits, type TwinPass } from '../../cuda/index.ts';
import { CONVOLUTION_CUDA } from './cuda.ts';
import { convolutionInputs, convolutionReference, convolutionRun, pitchOf, VEC4_OUT_H, VEC4_OUT_W, type ConvolutionVariant } from './kernel.ts';

/** The tiled kernel's output tile for each mask width (the instances `tiled.cu` launches). */
const TILED_OUT: Readonly<Record<number, number>> = { 3: 12, 5: 12, 7: 10 };

function convolutionCase(variant: ConvolutionVariant, width: number, height: number, m: number, seed: number, check = true): TwinCase {
  const { image, mask } = convolutionInputs(width, height, m, seed);
  const outTile = TILED_OUT[m]!;
  const wgsl = convolutionRun(variant, image, mask, { width, height, maskWidth: m, outTile });
  const pitch = pitchOf(variant, width);
  const input = wgsl.bindings[0]![0]!;
  const out = new Float32Array(wgsl.bindings[0]![2]!.length);
  const grid2d = { x: wgsl.workgroups[0], y: wgsl.workgroups[1] ?? 1, z: 1 };
  const constMask = new Float32Array(49);
  constMask.set(mask.subarray(0, m * m));
  const pass = ((): Omit<TwinPass, 'wgsl'> => {
    switch (variant) {
      case 'conv1d':
        return { kernel: 'convolution1D', config: { grid: { x: Math.ceil((width * height) / 256), y: 1, z: 1 }, block: { x: 256, y: 1, z: 1 } }, args: { in: input, mask: mask.slice(0, m), out, maskWidth: m, n: width * height }, outputs: { out: 2 } };
      case 'basic2d':
        return { kernel: 'convolution2DBasic', config: { grid: grid2d, block: { x: 16, y: 16, z: 1 } }, args: { in: input, mask, out, maskWidth: m, w: width, h: height }, outputs: { out: 2 } };
      case 'uniform-mask':
        return { kernel: 'convolution2DConstMask', config: { grid: grid2d, block: { x: 16, y: 16, z: 1 } }, args: { in: input, out, M: constMask, maskWidth: m, w: width, h: height }, outputs: { out: 2 } };
      case 'tiled': {
        const inTile = outTile + m - 1;
        return { kernel: `convolution2DTiled<${outTile}, ${m}>`, config: { grid: grid2d, block: { x: inTile, y: inTile, z: 1 } }, args: { in: input, mask, out, w: width, h: height }, outputs: { out: 2 } };
      }
      case 'tiled-vec4':
        return {
          kernel: `convolution2DTiledVec4<${m}>`,
          config: { grid: { x: Math.ceil(width / VEC4_OUT_W), y: Math.ceil(height / VEC4_OUT_H), z: 1 }, block: { x: 16, y: 16, z: 1 } },
          args: { in: input, out, M: constMask, w: width, h: height, pitch4: pitch / 4 },
          outputs: { out: 2 },
        };
    }
  })();
  // The vec4 variant's rows are padded with zeros to whole vec4s, which its kernel reads as image
  // columns: its reference is the convolution of the padded image (the same on the real columns,
  // since the padding is zero like the ghost cells).
  const ref = check && convolutionReference(variant, input.length === pitch * height ? (input as Float32Array) : image, pitch, height, mask, m);
  return onePassCase(`${width} × ${height}, ${m} × ${m} mask`, { wgsl, ...pass }, ref ? { out: wordsOf(ref) } : undefined, 8 * pitch * height);
}

/** The bench's image: the lab's 8192 × 8192 (5 × 5 mask), smaller where the adapter's bindings are. */
function benchSide(limits: TwinLimits): number {
  let side = 8192;
  while (4 * side * side > limits.maxBindingBytes) side /= 2;
  return side;
}

const twin = (variant: ConvolutionVariant): LabTwin => ({
  lab: 'convolution',
  variant,
  fileName: `src/labs/convolution/cuda/${variant}.cu`,
  source: CONVOLUTION_CUDA[variant],
  // Sides that are not multiples of any tile (23, 37) and one past a 64-column vec4 tile (70).
  cases: () => [convolutionCase(variant, 23, 5, 3, 1), convolutionCase(variant, 70, 19, 5, 2), convolutionCase(variant, 37, 41, 7, 3)],
  bench: (limits) => convolutionCase(variant, benchSide(limits), benchSide(limits), 5, 26, false),
});

export const CONVOLUTION_TWINS: readonly LabTwin[] = (['conv1d', 'basic2d', 'uniform-mask', 'tiled', 'tiled-vec4'] as const).map(twin);
