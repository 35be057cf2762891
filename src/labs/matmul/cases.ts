/**
 * Kernel cases of the matrix multiply: every variant on f32 and i32 (tile-16x8 on f32 only), and the tiled kernel at both
 * tile widths, over shapes that are not multiples of the tile (the vec4 kernels keep K and N
 * multiples of 4, which they need).
 */
import type { KernelCase } from '../../kernel/cases.ts';
import { MATMUL_KERNELS, MATMUL_VARIANTS, matmulRun, matmulTypes, type MatmulShape, type MatmulType, type MatmulVariant } from './kernel.ts';

/** A shape with about `n` elements of C, its depth drawn from `rng` (1…48), fitted to the variant. */
export function caseShape(variant: MatmulVariant, rng: () => number, n: number): MatmulShape {
  const m = Math.max(1, Math.round(Math.sqrt(n) * (0.6 + 0.8 * rng())));
  let cols = Math.max(1, Math.ceil(n / m));
  let k = 1 + Math.floor(rng() * 48);
  if (MATMUL_KERNELS[variant].vec4) {
    cols = Math.ceil(cols / 4) * 4;
    k = Math.ceil(k / 4) * 4;
  }
  return { m, n: cols, k };
}

/** Seeded operands: f32 in [-1, 1), or i32 in [-50, 50] (products and sums stay exact). */
export function caseOperand(type: MatmulType, rng: () => number, length: number): Float32Array | Int32Array {
  if (type === 'i32') return Int32Array.from({ length }, () => Math.floor(rng() * 101) - 50);
  return Float32Array.from({ length }, () => Math.fround(rng() * 2 - 1));
}

function matmulCase(variant: MatmulVariant, type: MatmulType, tile: number): KernelCase {
  return {
    file: MATMUL_KERNELS[variant].file,
    name: `matmul/${variant} ${type}${variant === 'tiled' ? ` TILE=${tile}` : ''}`,
    // Elements of C: one, a few, and sizes spanning several blocks with ragged edges.
    sizes: [1, 37, 300, 1000, 4100],
    build: (rng, n) => {
      const shape = caseShape(variant, rng, n);
      return matmulRun(variant, type, shape, tile, caseOperand(type, rng, shape.m * shape.k), caseOperand(type, rng, shape.k * shape.n));
    },
  };
}

export const matmulCases: KernelCase[] = [
  ...MATMUL_VARIANTS.flatMap((v) => matmulTypes(v).map((type) => matmulCase(v, type, 16))),
  matmulCase('tiled', 'f32', 32),
  matmulCase('tiled', 'i32', 32),
];
