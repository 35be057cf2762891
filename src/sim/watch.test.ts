/**
 * The warp watch's simulator side: a run with `watch` stops after the asked trace step and hands
 * back every scalar name in scope where the warp stands, lane by lane; re-running is deterministic,
 * so the capture agrees with the trace of the first run.
 */
import { describe, expect, it } from 'vitest';
import { simulate, traceStep } from './index.ts';

const KERNEL = `
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
const SCALE: u32 = 3u;
var<workgroup> sdata: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  var acc = lid * SCALE + wid.x;
  sdata[lid] = acc;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s >>= 1u) {
    if (lid < s) {
      sdata[lid] += sdata[lid + s];
    }
    workgroupBarrier();
  }
  let total = sdata[0];
  if (lid == 0u) {
    out[wid.x] = total;
  }
}
`;
const ADD_LINE = KERNEL.split('\n').findIndex((l) => l.includes('sdata[lid] += sdata[lid + s];')) + 1;
const run = (groups: number) => ({ code: KERNEL, entryPoint: 'main', workgroups: [groups] as [number], bindings: { 0: { 0: new Uint32Array(groups) } } });

describe('warp watch', () => {
  it('captures the loop counter, a var and a const in every lane at each add step of warp 0', () => {
    const full = simulate(run(1));
    const t = full.trace!;
    // The last step of each visit of warp 0 to the add line (its store).
    const adds: number[] = [];
    for (let s = 0; s < t.stepCount; s++) {
      const step = traceStep(t, s);
      const next = s + 1 < t.stepCount ? traceStep(t, s + 1) : undefined;
      if (step.line === ADD_LINE && step.warp === 0 && !(next && next.line === ADD_LINE && next.warp === 0)) adds.push(s);
    }
    expect(adds).toHaveLength(6);
    const levels: number[] = [];
    for (const step of adds) {
      const r = simulate(run(1), { watch: { step, warp: 0 }, trace: 'summary' });
      const w = r.watch!;
      expect(w).toMatchObject({ step, warp: 0, workgroup: 0, line: ADD_LINE });
      const by = Object.fromEntries(w.values.map((v) => [v.name, v]));
      expect(by.lid!.lanes).toEqual(Array.from({ length: 32 }, (_, l) => l));
      expect(by.acc!.lanes).toEqual(Array.from({ length: 32 }, (_, l) => l * 3));
      expect(by.acc!.type).toBe('u32');
      expect(by.SCALE!.lanes.every((v) => v === 3)).toBe(true);
      expect(new Set(by.s!.lanes).size).toBe(1);
      levels.push(by.s!.lanes[0]!);
      // `total` is declared after the loop: not in scope yet.
      expect(by.total).toBeUndefined();
    }
    expect(levels).toEqual([32, 16, 8, 4, 2, 1]);
  });

  it('counts steps as the trace of the same workgroups does, and sees a later-declared let', () => {
    const full = simulate(run(3), { traceWorkgroups: [2] });
    const t = full.trace!;
    const last = t.stepCount - 1;
    const step = traceStep(t, last);
    const r = simulate(run(3), { traceWorkgroups: [2], trace: 'summary', watch: { step: last, warp: step.warp } });
    expect(r.watch).toMatchObject({ step: last, warp: step.warp, workgroup: 2, line: step.line });
    const total = r.watch!.values.find((v) => v.name === 'total')!;
    // Workgroup 2 sums lid * 3 + 2 over 64 lanes.
    const want = Array.from({ length: 64 }, (_, l) => l * 3 + 2).reduce((a, b) => a + b, 0);
    expect(total.lanes[0]).toBe(want);
    expect(full.buffers[0]![0]![2]).toBe(want);
  });

  it('resumes from a checkpoint at the traced workgroup with the same trace steps and the same capture', () => {
    // A kernel whose workgroups depend on each other through a buffer: each adds into out[0].
    const chained = KERNEL.replace('out[wid.x] = total;', 'out[0] = out[0] + total;');
    const at = (bindings: { 0: { 0: Uint32Array } }) => ({ ...run(3), code: chained, bindings });
    const first = simulate(at({ 0: { 0: new Uint32Array(3) } }), { traceWorkgroups: [2], checkpointAt: 2 });
    const cp = first.checkpoint!;
    expect(cp.at).toBe(2);
    const sum = (g: number) => Array.from({ length: 64 }, (_, l) => l * 3 + g).reduce((a, b) => a + b, 0);
    expect(cp.buffers[0]![0]![0]).toBe(sum(0) + sum(1));
    const t = first.trace!;
    for (const step of [0, Math.floor(t.stepCount / 2), t.stepCount - 1]) {
      const warp = traceStep(t, step).warp;
      const whole = simulate(at({ 0: { 0: new Uint32Array(3) } }), { traceWorkgroups: [2], trace: 'summary', watch: { step, warp } });
      const resumed = simulate(at(cp.buffers as { 0: { 0: Uint32Array } }), { traceWorkgroups: [2], trace: 'summary', resumeAt: 2, watch: { step, warp } });
      expect(resumed.watch).toEqual(whole.watch);
      expect(resumed.watch?.workgroup).toBe(2);
    }
    const resumedTrace = simulate(at(cp.buffers as { 0: { 0: Uint32Array } }), { traceWorkgroups: [2], resumeAt: 2 });
    expect(resumedTrace.trace!.stepCount).toBe(t.stepCount);
    expect(resumedTrace.buffers[0]![0]![0]).toBe(first.buffers[0]![0]![0]);
  });

  it('captures nothing past the end of the trace and leaves runs without a watch alone', () => {
    const r = simulate(run(1), { watch: { step: 1e9, warp: 0 } });
    expect(r.watch).toBeUndefined();
    expect(r.incomplete).toBeUndefined();
    expect(simulate(run(1)).watch).toBeUndefined();
  });
});
