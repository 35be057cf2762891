/**
 * Simulator vs GPU (Dawn; SwiftShader when the machine has no GPU) for every kernel under
 * `shaders/`, over at least 50 seeded inputs each, sizes cycling through the case's list (which
 * includes sizes that are not multiples of the workgroup size). Integer outputs must agree bit for
 * bit; f32 outputs too, unless the case states an ulp bound (the GPU may reorder subgroup sums).
 * Subgroup kernels run with warpSize = the GPU's subgroup size. That every kernel under `shaders/`
 * has a case is checked by `src/kernel/cases.test.ts` (in the unit project).
 */
import { describe, expect, it } from 'vitest';
import type { KernelCase } from '../kernel/cases.ts';
import { kernelCases } from '../labs/all.ts';
import type { BindingData, Bindings } from '../kernel/types.ts';
import { simulate } from './index.ts';
import { seededRandom } from '../util/random.ts';
import { ulpDistance } from '../util/ulp.ts';
import { fixedSubgroupSize, nodeGpu } from './conformance/harness.ts';

const INPUTS_PER_KERNEL = 50;

/** First mismatch between two buffers, or null. */
function compare(sim: BindingData, gpu: BindingData, ulps: number | undefined): string | null {
  if (sim.length !== gpu.length) return `length ${sim.length} vs ${gpu.length}`;
  if (sim instanceof Float32Array && gpu instanceof Float32Array) {
    const a = new Uint32Array(sim.buffer, sim.byteOffset, sim.length);
    const b = new Uint32Array(gpu.buffer, gpu.byteOffset, gpu.length);
    for (let i = 0; i < sim.length; i++) {
      if (a[i] === b[i]) continue;
      if (Number.isNaN(sim[i]) && Number.isNaN(gpu[i])) continue;
      const d = ulpDistance(sim[i]!, gpu[i]!);
      if (ulps !== undefined && d <= ulps) continue;
      return `[${i}] sim ${sim[i]} gpu ${gpu[i]} (${d} ulp${ulps !== undefined ? `, bound ${ulps}` : ', bit for bit required'})`;
    }
    return null;
  }
  for (let i = 0; i < sim.length; i++) if (sim[i] !== gpu[i]) return `[${i}] sim ${sim[i]} gpu ${gpu[i]}`;
  return null;
}

function compareAll(sim: Bindings, gpu: Bindings, ulps: number | undefined): string | null {
  for (const [g, rec] of Object.entries(gpu)) {
    for (const [b, data] of Object.entries(rec)) {
      const s = sim[Number(g)]?.[Number(b)];
      if (!s) return `binding ${g}/${b} missing from the simulator's result`;
      const m = compare(s, data, ulps);
      if (m) return `binding ${g}/${b}: ${m}`;
    }
  }
  return null;
}

describe('simulator equals GPU', () => {
  it('has a GPU to compare with', async () => {
    // No silent skip: without a device this and every comparison below fail with the reason.
    await expect(nodeGpu()).resolves.toBeDefined();
  });

  it.each(kernelCases.map((c) => [c.name, c] as [string, KernelCase]))('%s', async (_name, c) => {
    const gpu = await nodeGpu();
    const warpSize = c.subgroups ? fixedSubgroupSize(gpu) : 32;
    for (let seed = 0; seed < INPUTS_PER_KERNEL; seed++) {
      const n = c.sizes[seed % c.sizes.length]!;
      const run = c.build(seededRandom(seed * 7919 + 17), n);
      const sim = simulate(run, { warpSize, trace: 'summary' });
      const unsupported = sim.diagnostics.filter((d) => d.kind === 'unsupported' || d.kind === 'step-limit');
      expect(unsupported, `${c.name} n=${n} seed=${seed}`).toEqual([]);
      const out = await gpu.run(run);
      const mismatch = compareAll(sim.buffers, out, c.f32UlpBound);
      expect(mismatch, `${c.name} n=${n} seed=${seed} warpSize=${warpSize}`).toBeNull();
    }
  });
});
