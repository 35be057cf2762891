/** Kernel test cases of the divergence lab: both patterns, whole and partial warps, several workgroup sizes. */
import type { KernelCase } from '../../kernel/cases.ts';
import { randomF32 } from '../../util/random.ts';
import { DIVERGENCE_KERNELS, divergenceRun, type DivergenceVariant } from './kernel.ts';

export const divergenceCases: KernelCase[] = (['even-odd', 'warp-aligned'] as const).flatMap(
  (variant: DivergenceVariant) =>
    [32, 256].map((workgroupSize): KernelCase => ({
      file: DIVERGENCE_KERNELS[variant].file,
      name: `divergence/${variant} f32 wg=${workgroupSize}`,
      sizes: [1, 31, 100, 1024, 4097],
      build: (rng, n) => divergenceRun(variant, randomF32(rng, n, -1000, 1000), workgroupSize),
    })),
);
