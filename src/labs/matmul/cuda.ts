/**
 * The matrix-multiply kernels' CUDA, for the code pane (written for Warpscope): every variant's
 * `.cu` file, translated and checked against its WGSL (`cudaTwins.ts`).
 */
import type { MatmulVariant } from './kernel.ts';
import NAIVE from './cuda/naive.cu?raw';
import COALESCED from './cuda/coalesced.cu?raw';
import TILED from './cuda/tiled.cu?raw';
import COLUMN from './cuda/column.cu?raw';
import VEC4_2D from './cuda/vec4-2d.cu?raw';

import FAST from './cuda/fast.cu?raw';
import TILE_16X8 from './cuda/tile-16x8.cu?raw';

export const MATMUL_CUDA: Readonly<Record<MatmulVariant, string>> = {
  naive: NAIVE,
  coalesced: COALESCED,
  tiled: TILED,
  column: COLUMN,
  'vec4-2d': VEC4_2D,
  fast: FAST,
  'tile-16x8': TILE_16X8,
};
