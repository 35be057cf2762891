/**
 * The row-sum lab's CUDA sources beside its WGSL variants (issue #26): one block per row, the row
 * in dynamic shared memory, launched `<<<rows, cols / 2, cols × 4>>>` on the lab's matrix. Read by
 * the tests (`src/labs/cudaTwins*.test.ts`) and the bench (`BENCH_ONLY=cuda`).
 */
import { onePassCase, wordsOf, type LabTwin, type TwinCase } from '../../cuda/index.ts';
import { MAX_WORKGROUPS_PER_DIMENSION } from '../../kernel/types.ts';
import { randomU32, seededRandom } from '../../util/random.ts';
import SIMPLE_CU from './cuda/simple.cu?raw';
import BETTER_CU from './cuda/better.cu?raw';
import { rowSumReference, rowSumRun, type RowSumVariant } from './kernel.ts';

function rowSumCase(variant: RowSumVariant, rows: number, cols: number, seed: number, check = true): TwinCase {
  const matrix = randomU32(seededRandom(seed), rows * cols);
  const wgsl = rowSumRun(variant, matrix, rows, cols);
  return onePassCase(
    `${rows} rows × ${cols}`,
    {
      wgsl,
      kernel: variant === 'simple' ? 'rowSumSimple' : 'rowSumBetter',
      config: { grid: { x: rows, y: 1, z: 1 }, block: { x: cols / 2, y: 1, z: 1 }, sharedBytes: cols * 4 },
      args: { input: matrix, output: new Uint32Array(Math.ceil(rows / 4) * 4), cols },
      outputs: { output: 1 },
    },
    check ? { output: wordsOf(rowSumReference(matrix, rows, cols)) } : undefined,
    4 * (rows * cols + rows),
  );
}

const twin = (variant: RowSumVariant, source: string): LabTwin => ({
  lab: 'rowsum',
  variant,
  fileName: `src/labs/rowsum/cuda/${variant}.cu`,
  source,
  cases: () => [rowSumCase(variant, 1, 64, 1), rowSumCase(variant, 5, 128, 2), rowSumCase(variant, 3, 512, 3)],
  // The lab's default row of 512 words, as many rows as one dispatch takes (and the binding holds).
  bench: (limits) => rowSumCase(variant, Math.min(MAX_WORKGROUPS_PER_DIMENSION, Math.floor(limits.maxBindingBytes / (4 * 512))), 512, 25, false),
});

export const ROWSUM_TWINS: readonly LabTwin[] = [twin('simple', SIMPLE_CU), twin('better', BETTER_CU)];
