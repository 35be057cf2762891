/**
 * The device's f32 multiply-add peak, measured: every invocation runs long chains of independent
 * vec4 multiply-adds in registers (no memory traffic but one store at the end, so the compiler
 * keeps the work), and the rate is 2 FLOPs per lane per multiply-add over the GPU time.
 */
import type { GpuExecutor, Timing, TimeOptions } from './executor.ts';
import type { KernelRun } from '../kernel/types.ts';

/** Eight independent vec4 chains per invocation: enough in flight to hide the FMA latency. */
export const FMA_PEAK_WGSL = `// f32 multiply-add peak: ITERATIONS × 8 chains × 4 lanes of x = x * y + z per invocation.
override ITERATIONS: u32 = 256;

@group(0) @binding(0) var<storage, read> seed: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> sink: array<vec4<f32>>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let i = gid.y * groups.x * 256u + gid.x;
  let y = seed[0];
  let z = seed[1];
  var x0 = seed[2] + f32(i);
  var x1 = x0 + 1.0;
  var x2 = x0 + 2.0;
  var x3 = x0 + 3.0;
  var x4 = x0 + 4.0;
  var x5 = x0 + 5.0;
  var x6 = x0 + 6.0;
  var x7 = x0 + 7.0;
  for (var it = 0u; it < ITERATIONS; it++) {
    x0 = fma(x0, y, z);
    x1 = fma(x1, y, z);
    x2 = fma(x2, y, z);
    x3 = fma(x3, y, z);
    x4 = fma(x4, y, z);
    x5 = fma(x5, y, z);
    x6 = fma(x6, y, z);
    x7 = fma(x7, y, z);
  }
  // y < 1 keeps every chain finite; the sum is stored so no chain is dead code.
  sink[i] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}
`;

/** Workgroups of the measurement: enough to fill any current GPU many times over. */
const WORKGROUPS: readonly [number, number] = [1024, 16];
const ITERATIONS = 1024;

/** The measured rate and its timing. */
export interface FmaPeak {
  /** 1e9 FLOPs per second (2 per multiply-add). */
  readonly gflops: number;
  readonly flops: number;
  readonly timing: Timing;
}

/** The run `measureFmaPeak` times (exported for tests at a small size). */
export function fmaPeakRun(workgroups: readonly [number, number] = WORKGROUPS, iterations = ITERATIONS): KernelRun {
  const invocations = workgroups[0] * workgroups[1] * 256;
  return {
    code: FMA_PEAK_WGSL,
    entryPoint: 'main',
    label: 'fma-peak',
    workgroups,
    // y = 0.999, z = 1e-3: x stays near 1, never overflows, never becomes denormal.
    bindings: { 0: { 0: new Float32Array([0.999, 0.999, 0.999, 0.999, 1e-3, 1e-3, 1e-3, 1e-3, 0, 0, 0, 0]), 1: new Float32Array(invocations * 4) } },
    overrides: { ITERATIONS: iterations },
  };
}

/** FLOPs of `fmaPeakRun`: 8 chains × 4 lanes × 2 per iteration and invocation. */
export function fmaPeakFlops(workgroups: readonly [number, number] = WORKGROUPS, iterations = ITERATIONS): number {
  return workgroups[0] * workgroups[1] * 256 * iterations * 8 * 4 * 2;
}

/** Measures the f32 multiply-add peak of the executor's device (`workgroups` smaller for slow devices). */
export async function measureFmaPeak(
  gpu: GpuExecutor,
  options: TimeOptions & { readonly workgroups?: readonly [number, number]; readonly iterations?: number } = {},
): Promise<FmaPeak> {
  const workgroups = options.workgroups ?? WORKGROUPS;
  const iterations = options.iterations ?? ITERATIONS;
  const timing = await gpu.time(fmaPeakRun(workgroups, iterations), { repeats: 10, ...options });
  const flops = fmaPeakFlops(workgroups, iterations);
  return { gflops: flops / (timing.medianMs * 1e6), flops, timing };
}
