/**
 * Does this device fuse `fma`? WGSL lets `fma(a, b, c)` round once (fused multiply-add) or twice
 * (a·b rounded to f32, then + c), and devices differ. One tiny dispatch tells: with a = f32(1/3),
 * b = 3, c = -1 the product is 1 + 2^-25 exactly, so a fused fma returns 2^-25 and an unfused
 * one rounds the product to 1 and returns 0. The inputs come from a buffer, so the shader
 * compiler cannot fold the call. The simulator follows the answer (`SimOptions.fusedFma`).
 */
import type { Bindings, KernelRun } from '../kernel/types.ts';

export const FMA_PROBE_WGSL = `
@group(0) @binding(0) var<storage, read> abc: array<f32, 3>;
@group(0) @binding(1) var<storage, read_write> result: array<u32, 1>;
@compute @workgroup_size(1)
fn main() {
  result[0] = bitcast<u32>(fma(abc[0], abc[1], abc[2]));
}
`;

/** The probe as a `KernelRun`, for any executor. */
export function fmaProbeRun(): KernelRun {
  return {
    code: FMA_PROBE_WGSL,
    entryPoint: 'main',
    workgroups: [1],
    bindings: { 0: { 0: Float32Array.of(Math.fround(1 / 3), 3, -1), 1: new Uint32Array(1) } },
    label: 'fma probe',
  };
}

/** Reads the probe's result: true when the device fused the multiply-add. */
export function fusedFromProbe(out: Bindings): boolean {
  const word = out[0]?.[1]?.[0];
  if (word === undefined) throw new Error('fma probe: the result buffer came back empty');
  return word !== 0;
}

/** Runs the probe on `executor` (a `GpuExecutor`): true when the device fuses `fma`. */
export async function probeFusedFma(executor: { run(run: KernelRun): Promise<Bindings> }): Promise<boolean> {
  return fusedFromProbe(await executor.run(fmaProbeRun()));
}
