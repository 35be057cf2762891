/**
 * The histogram kernels' CUDA, for the code pane (written for Warpscope): every variant's `.cu` file,
 * translated and checked against its WGSL (`cudaTwins.ts`).
 */
import type { HistogramVariant } from './kernel.ts';
import PER_ELEMENT_CU from './cuda/per-element.cu?raw';
import GRID_STRIDE_CU from './cuda/grid-stride.cu?raw';
import PRIVATIZED_CU from './cuda/privatized.cu?raw';
import AGGREGATED_CU from './cuda/aggregated.cu?raw';
import PER_WARP_CU from './cuda/per-warp.cu?raw';
import PACKED_CU from './cuda/packed.cu?raw';
import PACKED_ATOMIC_CU from './cuda/packed-atomic.cu?raw';
import BATCHED_CU from './cuda/batched.cu?raw';

export const HISTOGRAM_CUDA: Readonly<Record<HistogramVariant, string>> = {
  'per-element': PER_ELEMENT_CU,
  'grid-stride': GRID_STRIDE_CU,
  privatized: PRIVATIZED_CU,
  aggregated: AGGREGATED_CU,
  'per-warp': PER_WARP_CU,
  packed: PACKED_CU,
  'packed-atomic': PACKED_ATOMIC_CU,
  batched: BATCHED_CU,
};
