/** fma follows the device: the probe in src/gpu/fma.ts, then bit-for-bit agreement with Dawn. */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../../index.ts';
import type { KernelRun } from '../../../../kernel/types.ts';

describe('fma probe', () => {
  // src/sim may not import src/gpu statically (eslint); tests load it on demand, as the
  // differential test does.
  const probe = () => import('../../../../gpu/fma.ts');

  it('the probe distinguishes fused from unfused (run on the simulator both ways)', async () => {
    const { fmaProbeRun, fusedFromProbe } = await probe();
    expect(fusedFromProbe(simulate(fmaProbeRun(), { fusedFma: true, trace: 'summary' }).buffers)).toBe(true);
    expect(fusedFromProbe(simulate(fmaProbeRun(), { fusedFma: false, trace: 'summary' }).buffers)).toBe(false);
  });

  it('the simulator following the probe agrees with the device bit for bit on fma', async () => {
    const { sharedNodeGpu } = await import('../../../../gpu/node.ts');
    const { probeFusedFma } = await probe();
    const gpu = await sharedNodeGpu();
    const fused = await probeFusedFma(gpu);
    const n = 256;
    const abc = new Float32Array(3 * n);
    for (let i = 0; i < abc.length; i++) abc[i] = Math.fround(Math.sin(i * 12.9898) * 100);
    const run: KernelRun = {
      code: `
@group(0) @binding(0) var<storage, read> abc: array<f32>;
@group(0) @binding(1) var<storage, read_write> r: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.x;
  r[i] = fma(abc[3u * i], abc[3u * i + 1u], abc[3u * i + 2u]);
}`,
      entryPoint: 'main',
      workgroups: [n / 64],
      bindings: { 0: { 0: abc, 1: new Float32Array(n) } },
    };
    const sim = simulate(run, { fusedFma: fused, trace: 'summary' });
    const out = await gpu.run(run);
    expect(Array.from(sim.buffers[0]![1]!)).toEqual(Array.from(out[0]![1]!));
  });
});
