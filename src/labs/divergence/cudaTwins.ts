/**
 * The divergence lab's CUDA sources beside its WGSL variants (issue #26): the even–odd and the
 * warp-aligned branch, launched as a CUDA host launches them, on the lab's inputs. Read by the
 * tests (`src/labs/cudaTwins*.test.ts`) and the bench (`BENCH_ONLY=cuda`).
 */
import { benchElements, onePassCase, wordsOf, type LabTwin, type TwinCase } from '../../cuda/index.ts';
import { randomF32, seededRandom } from '../../util/random.ts';
import EVEN_ODD_CU from './cuda/even-odd.cu?raw';
import WARP_ALIGNED_CU from './cuda/warp-aligned.cu?raw';
import { divergenceReference, divergenceRun, type DivergenceVariant } from './kernel.ts';

function divergenceCase(variant: DivergenceVariant, n: number, workgroupSize: number, seed: number, check = true): TwinCase {
  const x = randomF32(seededRandom(seed), n, -1000, 1000);
  const wgsl = divergenceRun(variant, x, workgroupSize);
  return onePassCase(
    `n = ${n}, block ${workgroupSize}`,
    {
      wgsl,
      kernel: variant === 'even-odd' ? 'evenOdd' : 'warpAligned',
      config: { grid: { x: wgsl.workgroups[0], y: 1, z: 1 }, block: { x: workgroupSize, y: 1, z: 1 } },
      args: { x, c: new Float32Array(Math.max(n, 1)), n },
      outputs: { c: 1 },
    },
    check ? { c: wordsOf(divergenceReference(variant, x)) } : undefined,
    8 * n,
  );
}

const twin = (variant: DivergenceVariant, source: string): LabTwin => ({
  lab: 'divergence',
  variant,
  fileName: `src/labs/divergence/cuda/${variant}.cu`,
  source,
  cases: () => [divergenceCase(variant, 1, 32, 1), divergenceCase(variant, 1000, 64, 2), divergenceCase(variant, 4099, 256, 3)],
  // One dispatch holds at most 65 535 blocks of 256: 255 · 2^16 elements (just under 2^24).
  bench: (limits) => divergenceCase(variant, Math.min(255 * 2 ** 16, benchElements(limits, 24)), 256, 24, false),
});

export const DIVERGENCE_TWINS: readonly LabTwin[] = [twin('even-odd', EVEN_ODD_CU), twin('warp-aligned', WARP_ALIGNED_CU)];
