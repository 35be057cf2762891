import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { seededRandom } from '../../util/random.ts';
import type { KernelExecutor } from '../../workbench/labTypes.ts';
import { TOPK_DISTRIBUTIONS, topkInput } from './inputs.ts';
import { firstPass, RADIX_WG, radixAheadLists, runTopk, supportsDistinct, TOPK_FILES, topkRun, TOPK_VARIANTS } from './kernel.ts';
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
  it.each(TOPK_VARIANTS.flatMap((v) => TOPK_DISTRIBUTIONS.flatMap((d) => [true, false].filter((distinct) => !distinct || supportsDistinct(v)).map((distinct) => [v, d, distinct] as const))))(
    '%s %s distinct=%s: both passes agree with the CPU reference',
    async (variant, dist, distinct) => {
      for (const [n, k] of [[0, 3], [7, 20], [1000, 20], [3001, 64], [500, 1]] as const) {
        const values = topkInput(seededRandom(n + k), n, dist);
        const out = await runTopk(simulator, variant, values, { k, distinct });
        expect([...out], `n=${n} k=${k}`).toEqual([...topkReference(values, k, distinct)]);
      }
    },
  );

  it.each(['radix', 'radix-ahead'] as const)('%s: one workgroup over many rounds cuts its pool and keeps duplicates, on every distribution', (variant) => {
    // 9001 values in one workgroup: five rounds of 2048, the pool cut after the first and, on
    // ascending input, after every round; the size is not a multiple of 4 or of the round.
    for (const dist of TOPK_DISTRIBUTIONS) {
      for (const k of [1, 20, 64]) {
        const values = topkInput(seededRandom(k + 11), 9001, dist);
        const opts = { k, distinct: false };
        const res = simulate(topkRun(variant, values, 1, opts), { warpSize: 32, trace: 'summary' });
        expect(res.diagnostics, `${dist} k=${k}`).toEqual([]);
        const out = (res.buffers[0]![1] as Int32Array).slice(0, k);
        expect([...out], `${dist} k=${k}`).toEqual([...topkReference(values, k, false)]);
      }
    }
  });

  it.each(['radix', 'radix-ahead'] as const)('%s: equal values are kept as often as they occur, in descending order (checked by hand)', async (variant) => {
    // 3000 sevens, two nines and one eight: the top 5 are 9, 9, 8, 7, 7.
    const values = new Int32Array(3000).fill(7);
    values[17] = 9;
    values[2500] = 8;
    values[2999] = 9;
    expect([...(await runTopk(simulator, variant, values, { k: 5, distinct: false }))]).toEqual([9, 9, 8, 7, 7]);
    // The lowest i32 is a value like any other, and k above n pads with it.
    const low = Int32Array.from([LOWEST, -1, LOWEST]);
    expect([...(await runTopk(simulator, variant, low, { k: 4, distinct: false }))]).toEqual([-1, LOWEST, LOWEST, LOWEST]);
  });

  it('radix-ahead: pass 1 publishes the highest k-th value of a full list, and pass 2 keeps the copies equal to it', async () => {
    // Two workgroups' shares (one round of 2048 values each): workgroup 0 holds five 50s among
    // zeros, workgroup 1 three 50s and two 40s. With k = 5 the shared floor is 50 (workgroup 0's
    // 5th) and pass 2 must let in the values equal to it: a pass 2 that took only values above the
    // floor would return nothing. With k = 9 both lists end in zeros, the floor is 0, and the 40s
    // come through.
    const values = new Int32Array(4096);
    [3, 9, 100, 700, 2047].forEach((i) => (values[i] = 50));
    [2048, 3000, 4095].forEach((i) => (values[i] = 50));
    [2100, 2200].forEach((i) => (values[i] = 40));
    const first = simulate(topkRun('radix-ahead', values, 2, { k: 5, distinct: false }), { warpSize: 32, trace: 'summary' });
    expect(first.diagnostics).toEqual([]);
    expect((first.buffers[0]![3] as Uint32Array)[0]).toBe((50 ^ LOWEST) >>> 0);
    expect([...(first.buffers[0]![1] as Int32Array).slice(0, 10)]).toEqual([50, 50, 50, 50, 50, 50, 50, 50, 40, 40]);
    expect([...(await runTopk(simulator, 'radix-ahead', values, { k: 5, distinct: false }))]).toEqual([50, 50, 50, 50, 50]);
    expect([...(await runTopk(simulator, 'radix-ahead', values, { k: 9, distinct: false }))]).toEqual([50, 50, 50, 50, 50, 50, 50, 50, 40]);
  });

  it('radix-ahead: pass 2 picks the k largest at or above the shared floor by the digits of their distance above it, on every distribution', () => {
    // Pass 2 alone, from a floor with at least k values at or above it (or none: every value is a
    // candidate). The floors put more than 256 candidates above them (a histogram on the distance's
    // digits, one digit or several, then a gather), fewer (a gather alone), or only copies of one
    // value (the digits run out: the k-th value exactly, then copies of it).
    const pass2 = (values: Int32Array, k: number, floorKey: number) => {
      const res = simulate(topkRun('radix-ahead', values, 1, { k, distinct: false, floorKey }), { warpSize: 32, trace: 'summary' });
      expect(res.diagnostics).toEqual([]);
      return [...(res.buffers[0]![1] as Int32Array).slice(0, k)];
    };
    const keyOf = (v: number) => (v ^ LOWEST) >>> 0;
    for (const dist of TOPK_DISTRIBUTIONS) {
      const values = topkInput(seededRandom(29), 9001, dist);
      const sorted = Int32Array.from(values).sort().reverse();
      for (const k of [1, 20, 64]) {
        const want = [...topkReference(values, k, false)];
        for (const above of [k, 200, 300, 5000]) expect(pass2(values, k, keyOf(sorted[above - 1]!)), `${dist} k=${k}, floor at the ${above}th`).toEqual(want);
        expect(pass2(values, k, 0), `${dist} k=${k}, no floor`).toEqual(want);
      }
    }
    // 3000 copies of the floor and three values above it: the last digit decides.
    const copies = new Int32Array(3000).fill(-5);
    copies[4] = 1 << 30;
    copies[1000] = -4;
    copies[2999] = 2147483647;
    expect(pass2(copies, 20, keyOf(-5))).toEqual([2147483647, 1 << 30, -4, ...new Array<number>(17).fill(-5)]);
    // No floor and fewer than k values: the rest is the lowest i32 (the highest i32 counts too).
    expect(pass2(Int32Array.from([2147483647, LOWEST, 3, 0, 0]), 8, 0)).toEqual([2147483647, 3, 0, 0, LOWEST, LOWEST, LOWEST, LOWEST]);
  });

  it('radix-ahead: the CPU stand-in of pass 1 is what pass 1 writes, as a multiset per list, with the same shared floor', () => {
    const values = topkInput(seededRandom(5), 50_000, 'random');
    const groups = 5;
    const res = simulate(topkRun('radix-ahead', values, groups, { k: 20, distinct: false }), { warpSize: 32, trace: 'summary' });
    const { lists, floorKey } = radixAheadLists(values, groups, 20);
    const got = res.buffers[0]![1] as Int32Array;
    for (let w = 0; w < groups; w++) expect([...got.slice(20 * w, 20 * w + 20)].sort(), `list ${w}`).toEqual([...lists.slice(20 * w, 20 * w + 20)].sort());
    expect((res.buffers[0]![3] as Uint32Array)[0]).toBe(floorKey);
  });

  it('radix: the driver’s workgroup size is the shader’s constant, one invocation per histogram bin', () => {
    expect(Number(/^const WORKGROUP_SIZE: u32 = (\d+)u;$/m.exec(TOPK_FILES.radix.wgsl)?.[1])).toBe(RADIX_WG);
    expect(Number(/^const WORKGROUP_SIZE: u32 = (\d+)u;$/m.exec(TOPK_FILES['radix-ahead'].wgsl)?.[1])).toBe(RADIX_WG);
    expect(RADIX_WG).toBe(256);
  });

  it('radix refuses the distinct semantics with a message that says what to use', () => {
    expect(() => firstPass('radix', new Int32Array(8), { k: 3, distinct: true })).toThrow(/keeps duplicates.*distinct = false.*seed or fast/);
    expect(() => firstPass('radix-ahead', new Int32Array(8), { k: 3, distinct: true })).toThrow(/keeps duplicates.*distinct = false.*seed or fast/);
  });

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

describe('radix select trace queries', () => {
  it('reads every round’s pool size and every floor from the trace (checked by hand on ascending input)', async () => {
    const { readRadixTrace, floorAt } = await import('./trace.ts');
    // 9001 ascending values, one workgroup: five rounds of up to 2048 values (the last 809), so the
    // pool (room for 1024 before a round) is cut after rounds 1–4 to the 20 largest seen so far,
    // and once more at the end.
    const values = Int32Array.from({ length: 9001 }, (_, i) => 3 * i - 5000);
    const res = simulate(topkRun('radix', values, 1, { k: 20, distinct: false }), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    const view = readRadixTrace(res.trace!);
    expect(view.rounds.map((r) => r.size)).toEqual([2048, 2068, 2068, 2068, 829, 829]);
    expect(view.floors.map((f) => f.value)).toEqual([LOWEST, values[2048 - 20], values[4096 - 20], values[6144 - 20], values[8192 - 20], values[9001 - 20]]);
    expect(floorAt(view, 0)).toBe(LOWEST);
    expect(floorAt(view, view.rounds[1]!.step)).toBe(values[2048 - 20]);
    expect(floorAt(view, res.trace!.stepCount - 1)).toBe(values[9001 - 20]);
    // The seed's lists are not there: its reader finds none.
    expect(readRadixTrace(simulate(firstPass('seed', values.subarray(0, 64), { k: 4, distinct: true }), { warpSize: 32, trace: 'full', traceWorkgroups: [0] }).trace!).rounds).toEqual([]);
  });
});

describe('the top-k Tree tab', () => {
  it('is titled in the lab’s terms (lists merging), not “Reduction tree”', async () => {
    const { topkUi } = await import('./ui/index.ts');
    expect(topkUi.treeTitle).toBe('How the lists merge, level by level');
  });
});
