import { describe, expect, it } from 'vitest';
import { findLab } from '../labs/all.ts';
import { openingStep, resolveParams } from './lab.ts';
import { simulate, type SimOptions } from '../sim/index.ts';
import { indexTrace } from '../trace/index.ts';
import { defaultWatch, needsLocals, warpWatch } from './debugger.ts';
import { createWatchRunner } from './warpWatch.ts';

describe('warp watch re-run', () => {
  const reduce = findLab('reduce');
  const { params } = resolveParams(reduce, 'neighbored', { n: 4096, workgroupSize: 256 });
  const run = reduce.stepRun('neighbored', params, reduce.inputs(params, 1));
  const options: SimOptions = { warpSize: 32, trace: 'full', traceWorkgroups: [3] };
  const first = simulate(run, options);
  const index = indexTrace(first.trace!);
  const calls: SimOptions[] = [];
  const runner = createWatchRunner((r, o) => {
    calls.push(o);
    return { promise: Promise.resolve(simulate(r, o)), cancel: () => undefined };
  });

  it('shows the loop counter s beside sdata in every lane, the same whether re-run from the start or from the checkpoint', async () => {
    const addLine = run.code.split('\n').findIndex((l) => l.includes('sdata[lid] += sdata[lid + s];')) + 1;
    const steps: number[] = [];
    for (let s = 0; s < index.trace.stepCount; s++) if (index.trace.opLine[index.trace.stepOp[s]!] === addLine && index.trace.stepWarp[s] === 0) steps.push(s);
    expect(steps.length).toBeGreaterThan(4);
    const whole = await runner.watch(run, options, steps[2]!, 0).promise;
    expect(calls[0]).toMatchObject({ trace: 'summary', checkpointAt: 3, watch: { step: steps[2], warp: 0 } });
    expect(runner.hasCheckpoint(run)).toBe(true);
    expect(whole?.workgroup).toBe(3);
    const again = await runner.watch(run, options, steps[2]!, 0).promise;
    expect(calls[1]).toMatchObject({ resumeAt: 3 });
    expect(again).toEqual(whole);
    // The watch of an expression over a local and workgroup memory, with the capture.
    const cells = warpWatch(index, steps[2]!, 0, 'sdata[lid] + s', again);
    const s = again!.values.find((v) => v.name === 's')!.lanes[0]!;
    const plain = warpWatch(index, steps[2]!, 0, 'sdata[lid]');
    expect(cells.map((c) => c.value)).toEqual(plain.map((c) => (c.value ?? 0) + s));
    // Without a capture for this step, a local is an error, not a stale value.
    expect(warpWatch(index, steps[3]!, 0, 's', again).every((c) => c.error !== undefined)).toBe(true);
  });
});

describe("the watch's first expression comes from the kernel loaded", () => {
  const runner = createWatchRunner((r, o) => ({ promise: Promise.resolve(simulate(r, o)), cancel: () => undefined }));
  it.each([
    ['reduce', 'neighbored', 'sdata[lid]'],
    ['matmul', 'tiled', 'tileA[lid]'],
    ['matmul', 'naive', 'row'],
    ['histogram', 'grid-stride', 'i'],
    ['histogram', 'privatized', 'histo_private[lid % 7u]'],
  ] as const)('%s, %s: %s, with a value in every lane at the opening step', async (labId, variantId, expected) => {
    const lab = findLab(labId);
    const { params } = resolveParams(lab, variantId, {});
    const run = lab.stepRun(variantId, params, lab.inputs(params, 1));
    const options: SimOptions = { warpSize: 32, trace: 'full', traceWorkgroups: [0] };
    const index = indexTrace(simulate(run, options).trace!);
    const expression = defaultWatch(index.trace, run);
    if (expected) expect(expression).toBe(expected);
    const step = openingStep(lab, index, variantId);
    const locals = needsLocals(index.trace, expression) ? await runner.watch(run, options, step, 0).promise : undefined;
    const cells = warpWatch(index, step, 0, expression, locals);
    expect(cells.filter((c) => c.error !== undefined)).toEqual([]);
    expect(cells.every((c) => typeof c.value === 'number')).toBe(true);
  });
});
