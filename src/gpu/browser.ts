import { GpuExecutor } from './executor.ts';

/** The GPU executor on the page's `navigator.gpu` (undefined where WebGPU is missing). */
export function createBrowserGpu(): GpuExecutor {
  return new GpuExecutor(() => (typeof navigator !== 'undefined' ? navigator.gpu : undefined));
}
