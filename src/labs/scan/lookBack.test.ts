import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { seededRandom } from '../../util/random.ts';
import { singlePassRun, singlePassStatusWords } from './driver.ts';
import { scanInput } from './inputs.ts';
import { lookBackAt, lookBackOf, readyRead } from './lookBack.ts';

const WG = 64;
const TILE = WG * 8;
const sum = (a: ArrayLike<number>, from: number, to: number) => {
  let s = 0;
  for (let i = from; i < to; i++) s += a[i]!;
  return s >>> 0;
};

describe('the single-pass scan’s look-back, read from the trace', () => {
  const input = scanInput(seededRandom(7), 8 * TILE, 'u32');

  it.each([1, 3, 7])('workgroup %i: its tile’s sum, the prefix it read and the prefix it published', (workgroup) => {
    const result = simulate(singlePassRun(input, { workgroupSize: WG }), { warpSize: 32, trace: 'full', traceWorkgroups: [workgroup] });
    const look = lookBackOf(result.trace!)!;
    // Workgroups start one after another here, so tickets follow workgroup ids.
    expect(look.tile).toBe(workgroup);
    expect(look.tiles).toBe(8);
    expect(look.mark).toBe(1);
    const [aggregate, read, inclusive] = look.events;
    expect(aggregate).toMatchObject({ kind: 'publish', part: 'aggregate', tile: workgroup, ready: true, value: sum(input, workgroup * TILE, (workgroup + 1) * TILE) });
    // Its predecessor finished first: one read of its inclusive prefix is enough.
    expect(read).toMatchObject({ kind: 'read', part: 'inclusive', tile: workgroup - 1, ready: true, value: sum(input, 0, workgroup * TILE) });
    expect(readyRead(look)).toBe(read);
    expect(inclusive).toMatchObject({ kind: 'publish', part: 'inclusive', tile: workgroup, ready: true, value: sum(input, 0, (workgroup + 1) * TILE) });
    expect(look.events).toHaveLength(3);
    expect(look.ticketStep).toBeGreaterThanOrEqual(0);
    expect(look.ticketStep).toBeLessThan(aggregate!.firstStep);
    expect(lookBackAt(look, read!.step - 1)).toEqual([aggregate]);
    expect(lookBackAt(look, read!.step)).toEqual([aggregate, read]);
  });

  it('tile 0 publishes its sum as its inclusive prefix at once, and reads nothing', () => {
    const result = simulate(singlePassRun(input, { workgroupSize: WG }), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    const look = lookBackOf(result.trace!)!;
    expect(look.tile).toBe(0);
    expect(look.events.filter((e) => e.kind === 'read')).toEqual([]);
    expect(look.events).toEqual([expect.objectContaining({ kind: 'publish', part: 'inclusive', value: sum(input, 0, TILE) })]);
  });

  it('a predecessor that has not started reads as not ready, spin after spin, and the tile sums it itself', () => {
    // The ticket counter starts at 1: the first workgroup draws tile 1 while tile 0 is drawn last.
    const status = new Uint32Array(singlePassStatusWords(input.length, WG));
    status[0] = 1;
    const run = singlePassRun(input, { workgroupSize: WG, status, spinLimit: 3 });
    const result = simulate(run, { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    const look = lookBackOf(result.trace!)!;
    expect(look.tile).toBe(1);
    const reads = look.events.filter((e) => e.kind === 'read');
    // Each spin reads the inclusive prefix, then the aggregate: three spins, none ready.
    expect(reads.map((e) => `${e.tile}:${e.part}:${e.ready}`)).toEqual(Array.from({ length: 3 }, () => ['0:inclusive:false', '0:aggregate:false']).flat());
    expect(reads.every((e) => e.value === undefined)).toBe(true);
    // The prefix it published is still right: it reduced tile 0 from the input.
    expect(look.events.at(-1)).toMatchObject({ kind: 'publish', part: 'inclusive', value: sum(input, 0, 2 * TILE) });
  });

  it('f32 values are read as floats', () => {
    const floats = scanInput(seededRandom(3), 2 * TILE, 'f32');
    const result = simulate(singlePassRun(floats, { workgroupSize: WG, type: 'f32' }), { warpSize: 32, trace: 'full', traceWorkgroups: [1] });
    const read = readyRead(lookBackOf(result.trace!)!)!;
    expect(read.value).toBeCloseTo(Array.from(floats.subarray(0, TILE)).reduce((a, b) => a + b, 0), 2);
  });

  it('a trace without status words has no look-back', () => {
    const result = simulate(singlePassRun(input, { workgroupSize: WG }), { warpSize: 32, trace: 'full', traceWorkgroups: [0] });
    const trace = result.trace!;
    expect(lookBackOf({ ...trace, memories: trace.memories.map((m) => ({ ...m, name: m.name === 'status' ? 'flags' : m.name })) })).toBeUndefined();
  });
});
