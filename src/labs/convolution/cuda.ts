/**
 * The convolution kernels' CUDA, for the code pane: the `.cu` files the lab translates and runs
 * beside its WGSL variants (`cudaTwins.ts`), so what the tab shows is what the tests run.
 */
import type { ConvolutionVariant } from './kernel.ts';
import CONV1D_CU from './cuda/conv1d.cu?raw';
import BASIC2D_CU from './cuda/basic2d.cu?raw';
import UNIFORM_MASK_CU from './cuda/uniform-mask.cu?raw';
import TILED_CU from './cuda/tiled.cu?raw';
import TILED_VEC4_CU from './cuda/tiled-vec4.cu?raw';

export const CONVOLUTION_CUDA: Readonly<Record<ConvolutionVariant, string>> = {
  conv1d: CONV1D_CU,
  basic2d: BASIC2D_CU,
  'uniform-mask': UNIFORM_MASK_CU,
  tiled: TILED_CU,
  'tiled-vec4': TILED_VEC4_CU,
};
