/**
 * Every lab's CUDA twins on the simulator (issue #26): each CUDA file translates without a
 * diagnostic, and each case's generated WGSL gives the same outputs as the hand-written variant
 * and as the lab's CPU reference. The same cases run on Dawn in cudaTwins.gpu.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TWIN_LIMITS, runTwinCase, twinMismatches, twinProgram, type TwinExecutor } from '../cuda/index.ts';
import { simulate } from '../sim/index.ts';
import { LABS } from './all.ts';
import { LAB_TWINS, NOT_TWINNED } from './cudaTwins.ts';

const simulator: TwinExecutor = {
  run(run) {
    const result = simulate(run, { trace: 'summary' });
    const stop = result.diagnostics.find((d) => d.kind === 'unsupported' || d.kind === 'step-limit' || d.kind === 'race' || d.kind === 'out-of-bounds');
    if (stop || result.incomplete) return Promise.reject(new Error(`simulator: ${run.file ?? 'kernel'}:${stop?.line}:${stop?.column}: ${stop?.kind}: ${stop?.message ?? 'stopped early'}`));
    return Promise.resolve(result.buffers);
  },
};

describe("the labs' CUDA twins on the simulator, against the hand-written WGSL and the CPU", () => {
  it.each(LAB_TWINS.map((t) => [`${t.lab}/${t.variant}`, t] as const))('%s', async (_name, twin) => {
    expect(twinProgram(twin).kernels.length).toBeGreaterThan(0);
    for (const c of twin.cases(DEFAULT_TWIN_LIMITS)) {
      const results = await runTwinCase(simulator, twin, c);
      expect(twinMismatches(c, results), c.label).toEqual([]);
      expect(c.reference.some((r) => r && Object.keys(r).length > 0), `${c.label}: checked against the CPU`).toBe(true);
    }
  });

  it('every variant of every lab but the reduction (twinned in reduce/) is twinned or says why not', () => {
    const listed = new Set([...LAB_TWINS, ...NOT_TWINNED].map((t) => `${t.lab}/${t.variant}`));
    const variants = LABS.filter((l) => l.id !== 'reduce').flatMap((l) => l.variants.map((v) => `${l.id}/${v.id}`));
    expect(variants.filter((v) => !listed.has(v))).toEqual([]);
    for (const n of NOT_TWINNED) expect(n.reason.length, `${n.lab}/${n.variant}`).toBeGreaterThan(20);
  });
});
