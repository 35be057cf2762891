/**
 * The matrix-multiply lab's CUDA sources beside its WGSL variants (issue #26), launched as a CUDA
 * host launches them on the lab's operands: the template instance for the element type (float or
 * int) and tile. Operands are small whole numbers, so every sum is exact and the GPU, the
 * simulator and the CPU agree bit for bit. Read by the tests (`src/labs/cudaTwins*.test.ts`) and
 * the bench (`BENCH_ONLY=cuda`: 2048 × 2048 × 2048, f32).
 */
import { onePassCase, wordsOf, type LabTwin, type TwinCase, type TwinPass } from '../../cuda/index.ts';
import { seededRandom } from '../../util/random.ts';
import { MATMUL_CUDA } from './cuda.ts';
import { MATMUL_VARIANTS, matmulReference, matmulRun, matmulWorkgroups, type MatmulShape, type MatmulType, type MatmulVariant } from './kernel.ts';

const KERNEL: Readonly<Record<MatmulVariant, string>> = {
  naive: 'matmulNaive',
  coalesced: 'matmulCoalesced',
  tiled: 'matmulTiled',
  column: 'matmulColumn',
  'vec4-2d': 'matmulVec4',
  fast: 'matmulFast',
  'tile-16x8': 'matmulTile16x8',
};
/** The kernels over float4s: one float kernel each (K and N multiples of 4), no template. */
const FLOAT4: readonly MatmulVariant[] = ['vec4-2d', 'fast', 'tile-16x8'];

function operands(type: MatmulType, length: number, seed: number): Float32Array | Int32Array {
  const rng = seededRandom(seed);
  const values = Array.from({ length }, () => Math.floor(rng() * 9) - 4);
  return type === 'f32' ? Float32Array.from(values) : Int32Array.from(values);
}

function matmulCase(variant: MatmulVariant, type: MatmulType, shape: MatmulShape, tile: number, seed: number, check = true): TwinCase {
  const a = operands(type, shape.m * shape.k, seed);
  const b = operands(type, shape.k * shape.n, seed + 1);
  const wgsl = matmulRun(variant, type, shape, tile, a, b);
  const [x, y] = matmulWorkgroups(variant, shape, tile);
  const cType = type === 'f32' ? 'float' : 'int';
  const kernel =
    variant === 'tiled' ? `matmulTiled<${cType}, ${tile}, ${Math.min(tile, 256 / tile)}>` : FLOAT4.includes(variant) ? KERNEL[variant] : `${KERNEL[variant]}<${cType}>`;
  const block = variant === 'tiled' ? { x: tile, y: Math.min(tile, 256 / tile), z: 1 } : variant === 'column' ? { x: 256, y: 1, z: 1 } : { x: 16, y: 16, z: 1 };
  const pass: TwinPass = {
    wgsl,
    kernel,
    config: { grid: { x, y, z: 1 }, block },
    args: { A: a, B: b, C: type === 'f32' ? new Float32Array(shape.m * shape.n) : new Int32Array(shape.m * shape.n), M: shape.m, N: shape.n, K: shape.k },
    outputs: { C: 2 },
  };
  const reference = check ? { C: wordsOf(matmulReference(type, shape, a, b)) } : undefined;
  return onePassCase(`${shape.m} × ${shape.n} × ${shape.k}, ${type}${variant === 'tiled' ? `, tile ${tile}` : ''}`, pass, reference, 4 * (shape.m * shape.k + shape.k * shape.n));
}

const twin = (variant: MatmulVariant): LabTwin => ({
  lab: 'matmul',
  variant,
  fileName: `src/labs/matmul/cuda/${variant}.cu`,
  source: MATMUL_CUDA[variant],
  // Shapes that are multiples of no tile (K and N multiples of 4 for the vec4 kernel).
  cases: () => [
    matmulCase(variant, 'f32', { m: 37, n: 20, k: 20 }, 16, 1),
    ...(FLOAT4.includes(variant) ? [] : [matmulCase(variant, 'i32', { m: 18, n: 33, k: 12 }, 16, 2)]),
    matmulCase(variant, 'f32', { m: 66, n: 36, k: 8 }, 32, 3),
    // More than one block each way for the 128 × 128 and 256 × 128 blocks, K not a multiple of the step.
    ...(variant === 'fast' || variant === 'tile-16x8' ? [matmulCase(variant, 'f32', { m: 260, n: 136, k: 12 }, 16, 4)] : []),
  ],
  // The lab's 2048³ (f32; the tiled kernel with TILE 16); the CPU reference would take minutes.
  bench: () => matmulCase(variant, 'f32', { m: 2048, n: 2048, k: 2048 }, 16, 26, false),
});

export const MATMUL_TWINS: readonly LabTwin[] = MATMUL_VARIANTS.map(twin);
