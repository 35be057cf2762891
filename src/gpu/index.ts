/**
 * `src/gpu`: runs a `KernelRun` on WebGPU, reads buffers back, times it, and measures in-run
 * bandwidth baselines. Knows nothing of labs or views. Node code imports `./node.ts` directly.
 */
export { GpuExecutor } from './executor.ts';
export type { Timing, TimeOptions, TimingSource, BandwidthBaselines, Bounds, RunOptions, BaselineKind, BaselineSpec, RelativeTiming, TimingSamples } from './executor.ts';
export { acquireDevice } from './device.ts';
export type { AdapterSummary, GpuContext } from './device.ts';
export { GpuError, isGpuError, formatShaderMessage, excerptAround, HINTS, SHOWN_MESSAGES, EXCERPT_WIDTH } from './errors.ts';
export type { GpuErrorKind, ShaderMessage } from './errors.ts';
export { createBrowserGpu } from './browser.ts';
export { measureFmaPeak, fmaPeakRun, fmaPeakFlops, FMA_PEAK_WGSL } from './fma-peak.ts';
export type { FmaPeak } from './fma-peak.ts';
