/**
 * The reduction chain through the SIMT simulator, wrapped as a `KernelExecutor`, for the same N
 * table as the GPU tests. Skipped until `src/sim/index.ts` exists (the simulator is being
 * written); the import goes through `import.meta.glob` so this file typechecks without it.
 */
import { describe, expect, it } from 'vitest';
import type { Bindings, KernelRun } from '../../kernel/types.ts';
import { randomU32, seededRandom } from '../../util/random.ts';
import type { KernelExecutor } from '../../workbench/labTypes.ts';
import { reduce } from './driver.ts';
import { sumU32 } from './reference.ts';
import { REDUCE_VARIANTS } from './variants.ts';

/** The part of the simulator's API this test relies on. */
interface SimModule {
  simulate(
    run: KernelRun,
    options: { warpSize: number; trace: 'summary' },
  ): {
    buffers: Bindings;
    diagnostics: readonly { kind: string; line: number; column: number; message: string }[];
    incomplete?: boolean;
  };
}

const loaders = import.meta.glob<SimModule>('../../sim/index.ts');
const load = loaders['../../sim/index.ts'];

/** The GPU tests' sizes (src/labs/reduce/driver.gpu.test.ts says why 2^18 + 5 is the largest). */
const N_TABLE = [1, 31, 1000, 2 ** 16, 2 ** 18 + 5] as const;
const WARP_SIZE = 32;

/** The simulator as a `KernelExecutor`; a construct it cannot run fails the test with its place. */
function simExecutor(sim: SimModule, warpSize: number): KernelExecutor {
  return {
    run: (run) => {
      const result = sim.simulate(run, { warpSize, trace: 'summary' });
      const stop = result.diagnostics.find((d) => d.kind === 'unsupported' || d.kind === 'step-limit');
      if (stop || result.incomplete) {
        const where = stop
          ? `${run.file ?? 'kernel'}:${stop.line}:${stop.column}: ${stop.message}`
          : 'stopped early';
        return Promise.reject(new Error(`simulator: ${where}`));
      }
      return Promise.resolve(result.buffers);
    },
  };
}

describe.skipIf(!load)('reduce in the simulator, u32: every variant, N and workgroup size', () => {
  const inputs = new Map(N_TABLE.map((n) => [n, randomU32(seededRandom(n), n)]));
  it.each(REDUCE_VARIANTS.filter((v) => !v.racy).map((v) => [v.id, v] as const))(
    '%s',
    async (_id, variant) => {
      const sim = await load!();
      const executor = simExecutor(sim, WARP_SIZE);
      for (const workgroupSize of variant.workgroupSizes) {
        for (const n of N_TABLE) {
          const input = inputs.get(n)!;
          const { value } = await reduce(executor, variant.id, input, { workgroupSize });
          expect(value, `${variant.id} wg=${workgroupSize} n=${n}`).toBe(sumU32(input));
        }
      }
    },
  );

  it.each([4, 16])(
    'gives the same sums with %i-lane warps (subgroup variants work for any size)',
    async (warpSize) => {
      const sim = await load!();
      for (const variant of REDUCE_VARIANTS.filter((v) => v.needsSubgroups)) {
        for (const n of [1000, 2 ** 16]) {
          const input = inputs.get(n)!;
          const { value } = await reduce(simExecutor(sim, warpSize), variant.id, input, {
            workgroupSize: 256,
          });
          expect(value, `${variant.id} warp=${warpSize} n=${n}`).toBe(sumU32(input));
        }
      }
    },
  );

  it('flags the naive warp-synchronous variant as a race, and sums right in lockstep', async () => {
    // A 32-lane warp in lockstep is exactly what the naive code assumes, so the simulator's sum is
    // right; what the lesson shows is its race diagnostic on the unsynchronised steps.
    const sim = await load!();
    const input = inputs.get(1000)!;
    const { value, passes } = await reduce(simExecutor(sim, WARP_SIZE), 'last-warp-naive', input, {
      workgroupSize: 64,
    });
    expect(value).toBe(sumU32(input));
    const races = sim
      .simulate(passes[0]!, { warpSize: WARP_SIZE, trace: 'summary' })
      .diagnostics.filter((d) => d.kind === 'race');
    expect(races.length).toBeGreaterThan(0);
    // Every race is on the six warp-synchronous lines and nowhere else.
    const lines = passes[0]!.code.split('\n');
    const first = lines.findIndex((l) => l.includes('sdata[lid] += sdata[lid + 32u]')) + 1;
    expect(races.every((d) => d.line >= first && d.line < first + 6)).toBe(true);
  });

  it('finds no race in any correct variant', async () => {
    const sim = await load!();
    for (const variant of REDUCE_VARIANTS.filter((v) => !v.racy)) {
      const { passes } = await reduce(simExecutor(sim, WARP_SIZE), variant.id, inputs.get(1000)!, {
        workgroupSize: 64,
      });
      const diagnostics = sim.simulate(passes[0]!, { warpSize: WARP_SIZE, trace: 'summary' }).diagnostics;
      expect(diagnostics, variant.id).toEqual([]);
    }
  });
});
