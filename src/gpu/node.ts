/**
 * The GPU executor in Node, on Dawn (the `webgpu` package). On a machine without a GPU, Dawn runs
 * on SwiftShader's Vulkan driver, which Debian's `chromium` package ships; on a GPU host the
 * system's Vulkan driver is used (set VK_DRIVER_FILES or VK_ICD_FILENAMES to choose one).
 */
import { existsSync } from 'node:fs';
import { GpuExecutor } from './executor.ts';

export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

// Dawn's Node binding crashes inside mapAsync once the GPU, adapter or device objects are
// garbage-collected, so everything created here stays referenced for the life of the process.
const keepAlive: unknown[] = [];

function hasHardwareGpu(): boolean {
  return ['/dev/nvidia0', '/dev/dri/renderD128', '/dev/dxg', '/dev/kfd'].some((p) => existsSync(p));
}

/**
 * Creates the Node GPU executor. Chooses SwiftShader when no GPU device node exists and no Vulkan
 * driver was named in the environment; `WARPSCOPE_VULKAN=native` forces the system driver.
 */
export async function createNodeGpu(cacheSize?: number): Promise<GpuExecutor> {
  const env = process.env;
  const driverNamed = Boolean(env.VK_ICD_FILENAMES || env.VK_DRIVER_FILES);
  if (!driverNamed && env.WARPSCOPE_VULKAN !== 'native' && !hasHardwareGpu() && existsSync(SWIFTSHADER_ICD)) {
    env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  }
  const webgpu = (await import('webgpu')) as unknown as {
    create: (flags: string[]) => GPU;
    globals: Record<string, unknown>;
  };
  // GPUBufferUsage, GPUMapMode, GPUShaderStage… are globals in browsers; Node needs them installed.
  for (const [name, value] of Object.entries(webgpu.globals)) {
    if (!(name in globalThis)) (globalThis as Record<string, unknown>)[name] = value;
  }
  // Honest timings: Dawn otherwise rounds timestamps the way browsers do.
  // WARPSCOPE_DAWN_FLAGS adds Dawn flags for experiments only (e.g.
  // `enable-dawn-features=disable_robustness` to measure what the bounds clamps cost); a browser
  // never runs that way, so no figure taken with it is a product figure.
  const extra = (env.WARPSCOPE_DAWN_FLAGS ?? '').split(' ').filter(Boolean);
  const gpu = webgpu.create(['disable-dawn-features=timestamp_quantization', ...extra]);
  keepAlive.push(webgpu, gpu);
  const executor = new GpuExecutor(() => gpu, cacheSize);
  const context = await executor.ready();
  keepAlive.push(executor, context, context.adapter, context.device);
  return executor;
}

/** Pipelines the shared executor keeps: every kernel the GPU tests compile (a few hundred). */
const SHARED_CACHE_SIZE = 1024;
let shared: Promise<GpuExecutor> | undefined;

/**
 * One Node GPU executor for the whole process, created on first use and never destroyed (the
 * process's exit ends it). The GPU test files run one after another in one process (the `gpu`
 * project of vitest.config.ts, not isolated), and share it: SwiftShader compiles a pipeline in
 * seconds of CPU, far more than most dispatches cost, and many files compile the same kernels with
 * the same constants (the differential test, the watchdog's unguarded runs, the labs' drivers),
 * so each is compiled once. A test that destroys, abandons or loses its device makes its own with
 * `createNodeGpu`.
 */
export function sharedNodeGpu(): Promise<GpuExecutor> {
  shared ??= createNodeGpu(SHARED_CACHE_SIZE);
  return shared;
}
