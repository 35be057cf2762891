import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { seededRandom } from '../../util/random.ts';
import type { KernelExecutor } from '../types.ts';
import { TOPK_DISTRIBUTIONS, topkInput } from './inputs.ts';
import { firstPass, runTopk, TOPK_VARIANTS } from './kernel.ts';
import { insertValue, LOWEST, topkReference, workgroupSizeFor } from './reference.ts';

const simulator: KernelExecutor = { run: (r) => Promise.resolve(simulate(r, { warpSize: 32, trace: 'summary' }).buffers) };

describe('top-k reference', () => {
  it('the seed drops repeats, the usual top-k keeps them (checked by hand)', () => {
    const values = [5, 9, 9, 1, 7, 9, 5, 3];
    expect([...topkReference(values, 4, true)]).toEqual([9, 7, 5, 3]);
    expect([...topkReference(values, 4, false)]).toEqual([9, 9, 9, 7]);
    // The seed's insert_value, value by value, agrees with the distinct semantics.
    const list = new Int32Array(4).fill(LOWEST);
    const went = values.map((v) => insertValue(list, v, true));
    expect([...list]).toEqual([9, 7, 5, 3]);
    expect(went).toEqual([true, true, false, true, true, false, false, true]);
  });

  it('pads with the lowest i32 when k exceeds the distinct values', () => {
    expect([...topkReference([2, 2, 2], 4, true)]).toEqual([2, LOWEST, LOWEST, LOWEST]);
    expect([...topkReference([2, 2, 2], 4, false)]).toEqual([2, 2, 2, LOWEST]);
    expect([...topkReference([], 2, false)]).toEqual([LOWEST, LOWEST]);
  });

  it('fits lists into 16 KiB of workgroup memory: the seed’s 256 × 20 would not', () => {
    expect(256 * 20 * 4).toBeGreaterThan(16384);
    expect(workgroupSizeFor(20)).toBe(128);
    expect(workgroupSizeFor(64)).toBe(64);
    expect(workgroupSizeFor(8)).toBe(256);
  });
});

describe('top-k kernels on the simulator', () => {
  it.each(TOPK_VARIANTS.flatMap((v) => TOPK_DISTRIBUTIONS.flatMap((d) => [true, false].map((distinct) => [v, d, distinct] as const))))(
    '%s %s distinct=%s: both passes agree with the CPU reference',
    async (variant, dist, distinct) => {
      for (const [n, k] of [[0, 3], [7, 20], [1000, 20], [3001, 64], [500, 1]] as const) {
        const values = topkInput(seededRandom(n + k), n, dist);
        const out = await runTopk(simulator, variant, values, { k, distinct });
        expect([...out], `n=${n} k=${k}`).toEqual([...topkReference(values, k, distinct)]);
      }
    },
  );

  it('the seed kernel runs without diagnostics', () => {
    const r = simulate(firstPass('seed', topkInput(seededRandom(1), 4096, 'random'), { k: 20, distinct: true }), { warpSize: 32, trace: 'summary' });
    expect(r.diagnostics).toEqual([]);
  });
});

describe('top-k trace queries', () => {
  it('reads the columns, the levels, the accepted inserts and the threshold from the seed kernel’s trace', async () => {
    const { readTopkTrace, listsAt, levelAt, laneList, threshold, mergedAway } = await import('./trace.ts');
    const { TOPK_FILES } = await import('./kernel.ts');
    // 64 invocations (k = 64 needs them), one workgroup, lane t reads values t and t + 64.
    const values = Int32Array.from({ length: 128 }, (_, i) => (i * 37) % 128);
    const run = firstPass('seed', values, { k: 64, distinct: true });
    const res = simulate(run, { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    const view = readTopkTrace(res.trace!, TOPK_FILES.seed.wgsl);
    expect(view.lanes).toBe(64);
    expect(view.k).toBe(64);
    expect(view.levels.map((l) => l.stride)).toEqual([32, 16, 8, 4, 2, 1]);
    // Both of a lane's values enter its list (all values distinct).
    expect(view.accepted.every((a) => a === 2)).toBe(true);
    expect(laneList(view, view.insertEnd, 5).slice(0, 3)).toEqual([Math.max(values[5]!, values[69]!), Math.min(values[5]!, values[69]!), LOWEST]);
    expect(levelAt(view, view.insertEnd)).toBe(0);
    expect(levelAt(view, view.levels[2]!.start)).toBe(3);
    expect(mergedAway(view, 40, 1)).toBe(true);
    expect(mergedAway(view, 20, 1)).toBe(false);
    // At the end lane 0 holds the 64 largest, and its 64th is the threshold.
    const last = res.trace!.stepCount - 1;
    expect(laneList(view, last, 0)).toEqual([...topkReference(values, 64, true)]);
    expect(threshold(view, last)).toBe(64);
    expect(listsAt(view, 0).every((v) => v === LOWEST)).toBe(true);
  });
});
