/** Kernel test cases of the row sum: both variants over short and long rows, several rows each. */
import type { KernelCase } from '../../kernel/cases.ts';
import { randomU32 } from '../../util/random.ts';
import { ROWSUM_KERNELS, rowSumRun, type RowSumVariant } from './kernel.ts';

/** 512 elements take 256 invocations, the most WebGPU guarantees per workgroup. */
const CASE_ROW_LENGTHS = [64, 512] as const;

export const rowSumCases: KernelCase[] = (['simple', 'better'] as const).flatMap((variant: RowSumVariant) =>
  CASE_ROW_LENGTHS.map(
    (cols): KernelCase => ({
      file: ROWSUM_KERNELS[variant].file,
      name: `rowsum/${variant} u32 N=${cols}`,
      // n is the number of elements wanted: whole rows, at least one.
      sizes: [1, 100, 1024, 4096],
      build: (rng, n) => {
        const rows = Math.max(1, Math.ceil(n / cols));
        return rowSumRun(variant, randomU32(rng, rows * cols), rows, cols);
      },
    }),
  ),
);
