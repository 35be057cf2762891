/**
 * The reduction lab's CUDA sources on the simulator: each translates without a diagnostic, and
 * every pass of the lab's chain gives the same partial sums as the variant's WGSL, for each
 * workgroup size the variant is written for. The same runs on Dawn: cuda.gpu.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { randomU32, seededRandom } from '../../util/random.ts';
import type { KernelRun } from '../../kernel/types.ts';
import { simulate } from '../../sim/index.ts';
import type { KernelExecutor } from '../../workbench/labTypes.ts';
import { reduceCudaProgram, reduceTwinChain } from './cudaTwins.ts';
import { sumU32 } from './reference.ts';
import { REDUCE_VARIANTS } from './variants.ts';

const N_TABLE = [1, 1000, 4099] as const;

/** The simulator as an executor; `onDiagnostics` gets each run's kinds of diagnostic (race, …). */
function simulatorExecutor(onDiagnostics: (run: KernelRun, kinds: string[]) => void): KernelExecutor {
  return {
    run(run) {
      const result = simulate(run, { trace: 'summary' });
      const stop = result.diagnostics.find((d) => d.kind === 'unsupported' || d.kind === 'step-limit');
      if (stop || result.incomplete) return Promise.reject(new Error(`simulator: ${run.file ?? 'kernel'}:${stop?.line}:${stop?.column}: ${stop?.message ?? 'stopped early'}`));
      onDiagnostics(run, [...new Set(result.diagnostics.map((d) => d.kind))].sort());
      return Promise.resolve(result.buffers);
    },
  };
}

describe("the reduce lab's CUDA sources on the simulator, against the WGSL variants", () => {
  it.each(REDUCE_VARIANTS.map((v) => [v.id, v] as const))('%s', async (_id, variant) => {
    const kinds: { cuda: string[][]; wgsl: string[][] } = { cuda: [], wgsl: [] };
    const executor = simulatorExecutor((run, k) => (run.label?.startsWith('cuda.') ? kinds.cuda : kinds.wgsl).push(k));
    for (const workgroupSize of variant.workgroupSizes) {
      for (const n of N_TABLE) {
        const input = randomU32(seededRandom(n), n);
        const passes = await reduceTwinChain(executor, variant, input, workgroupSize);
        for (const [i, p] of passes.entries()) expect(p.cuda, `${variant.id} wg=${workgroupSize} n=${n} pass ${i + 1}`).toEqual(p.wgsl);
        const last = Object.values(passes[passes.length - 1]!.cuda)[0]!;
        if (!variant.racy) expect(last[0], `${variant.id} wg=${workgroupSize} n=${n}: the sum`).toBe(sumU32(input));
      }
    }
    // The simulator finds the same hazards in both: none, or the naive last warp's races.
    expect(kinds.cuda).toEqual(kinds.wgsl);
    if (variant.racy) expect(kinds.cuda.flat()).toContain('race');
  });

  it('every variant has its CUDA kernel, at the block sizes the lab offers', () => {
    for (const v of REDUCE_VARIANTS) {
      const names = reduceCudaProgram(v).kernels.map((k) => k.name);
      expect(names.length, v.id).toBe(v.id === 'unrolled' ? v.workgroupSizes.length : 1);
    }
  });
});
