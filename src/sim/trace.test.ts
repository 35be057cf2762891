import { bankOf, DEFAULT_HARDWARE, requestSectors, requestWavefronts, sectorOf } from './hardware.ts';
import { traceBytes as bytesOf } from './trace.ts';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OpKind, provenanceOf, simulate, stepOfRecord, traceBytes, traceStep, traceTransferables } from './index.ts';
import { DEFAULT_TRACE_BYTES } from './trace.ts';

const INTERLEAVED = readFileSync('src/sim/testdata/reduce-interleaved.wgsl', 'utf8');

function reduceRun(workgroups: number) {
  const n = workgroups * 256;
  return {
    code: INTERLEAVED,
    entryPoint: 'main',
    workgroups: [workgroups] as [number],
    bindings: { 0: { 0: new Uint32Array(n).map((_, i) => i), 1: new Uint32Array(workgroups), 2: Uint32Array.of(n) } },
  };
}

describe('full trace', () => {
  const r = simulate(reduceRun(1));
  const t = r.trace!;

  it('has one step per warp instruction, seekable in O(1)', () => {
    expect(t.stepCount).toBe(r.metrics.warpInstructions);
    let lastStore = 0;
    for (let i = 0; i < t.stepCount; i++) if (t.opKind[t.stepOp[i]!] === OpKind.storeGlobal) lastStore = i;
    const last = traceStep(t, lastStore);
    const first = traceStep(t, 0);
    expect(first.workgroup).toBe(0);
    expect(first.line).toBeGreaterThan(0);
    expect(first.column).toBeGreaterThan(0);
    expect(first.activeCount).toBe(32);
    expect(last.kindName).toBe('store.global');
    expect(last.activeCount).toBe(1);
    expect(last.accesses()).toEqual([
      { record: t.recordCount - 1, lane: 0, addr: 0, value: (255 * 256) / 2, bank: 0, sector: 0 },
    ]);
  });

  it('records the hardware model, the workgroup size and each request’s wavefronts and sectors', () => {
    expect(t.hardware).toEqual(DEFAULT_HARDWARE);
    expect(t.workgroupSize).toEqual([256, 1, 1]);
    expect(t.invocations).toBe(256);
    let shared = 0;
    for (let s = 0; s < t.stepCount; s++) {
      const space = t.stepMemory[s]! >= 0 ? t.memories[t.stepMemory[s]!]!.space : undefined;
      const a = t.stepRecStart[s]!;
      const b = t.stepRecStart[s + 1]!;
      expect(t.stepWavefronts[s]).toBe(space === 'workgroup' ? requestWavefronts(DEFAULT_HARDWARE, t.recAddr, a, b) : 0);
      expect(t.stepSectors[s]).toBe(space === 'storage' ? requestSectors(DEFAULT_HARDWARE, t.recAddr, a, b) : 0);
      if (space === 'workgroup') shared++;
    }
    expect(shared).toBeGreaterThan(0);
    // Interleaved addressing: every request is served in one wavefront; the first load reads 32 words = 4 sectors.
    expect(Math.max(...t.stepWavefronts)).toBe(1);
    expect(Math.max(...t.stepSectors)).toBe(4);
    expect(bytesOf(t)).toBeGreaterThan(t.stepWavefronts.byteLength + t.stepSectors.byteLength);
  });

  it('takes banks and sectors from the hardware model: 32 banks of 4-byte words, 32-byte sectors', () => {
    expect([bankOf(DEFAULT_HARDWARE, 33), bankOf(DEFAULT_HARDWARE, 64), sectorOf(DEFAULT_HARDWARE, 7), sectorOf(DEFAULT_HARDWARE, 8)]).toEqual([1, 0, 0, 1]);
    // Lanes 0…31 at stride 2: words 0, 2, … 62 fall on the 16 even banks twice each.
    expect(requestWavefronts(DEFAULT_HARDWARE, Array.from({ length: 32 }, (_, l) => 2 * l))).toBe(2);
    // All lanes on one word: a broadcast, one wavefront.
    expect(requestWavefronts(DEFAULT_HARDWARE, new Array<number>(32).fill(5))).toBe(1);
  });

  it('records barrier arrivals of every warp', () => {
    let arrivals = 0;
    for (let i = 0; i < t.stepCount; i++) if (t.opKind[t.stepOp[i]!] === OpKind.barrier) arrivals++;
    expect(arrivals).toBe(9 * 8);
  });

  it('recovers the reduction tree from workgroup-memory provenance', () => {
    // The last write to s[0] (stride 1) reads s[0] and s[1], both written at stride 2.
    let lastWrite = -1;
    for (let rec = 0; rec < t.recordCount; rec++) {
      const step = stepOfRecord(t, rec);
      if (t.opKind[t.stepOp[step]!] === OpKind.storeShared && t.recAddr[rec] === 0) lastWrite = rec;
    }
    expect(lastWrite).toBeGreaterThanOrEqual(0);
    const srcs = provenanceOf(t, lastWrite);
    expect(srcs.map((s) => t.recAddr[s]).sort()).toEqual([0, 1]);
    // Walk the tree down to the leaves: 256 initial writes s[lid] = v feed the root.
    const leaves = new Set<number>();
    const stack = [lastWrite];
    while (stack.length) {
      const rec = stack.pop()!;
      const p = provenanceOf(t, rec);
      if (p.length === 0) leaves.add(t.recAddr[rec]!);
      else stack.push(...p);
    }
    expect(leaves.size).toBe(256);
  });

  it('transfers as typed arrays', () => {
    expect(traceTransferables(t).length).toBeGreaterThan(5);
  });
});

describe('traceWorkgroups', () => {
  it('keeps the full trace only for the chosen workgroups, metrics for all', () => {
    const r = simulate(reduceRun(4), { traceWorkgroups: [2] });
    const t = r.trace!;
    expect(t.workgroups).toEqual([2]);
    expect(new Set(t.stepWorkgroup)).toEqual(new Set([2]));
    expect(t.stepCount * 4).toBe(r.metrics.warpInstructions);
    expect(Array.from(r.buffers[0]![1]!)).toEqual([0, 1, 2, 3].map((w) => 256 * 256 * w + (255 * 256) / 2));
  });

  it('summary mode has no trace', () => {
    expect(simulate(reduceRun(1), { trace: 'summary' }).trace).toBeUndefined();
  });
});

describe('trace arrays of long runs', () => {
  it('keeps one record start per step and one provenance start per record past several regrowths', () => {
    // 256 invocations × 64 iterations of a shared-memory read–write: ~10 000 steps, ~40 000 records.
    const code = `
var<workgroup> s: array<u32, 256>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32) {
  s[lid] = lid;
  workgroupBarrier();
  for (var k = 0u; k < 64u; k++) {
    let v = s[(lid + k) % 256u];
    workgroupBarrier();
    s[lid] = v + 1u;
    workgroupBarrier();
  }
  out[lid] = s[lid];
}`;
    const r = simulate({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(256) } } }, { warpSize: 32, trace: 'full' });
    const t = r.trace!;
    expect(t.stepCount).toBeGreaterThan(5000);
    expect(t.stepRecStart.length).toBe(t.stepCount + 1);
    expect(t.recProvStart.length).toBe(t.recordCount + 1);
    expect(t.stepMask.length).toBe(t.stepCount * t.maskWords);
    expect(t.stepRecStart[t.stepCount]).toBe(t.recordCount);
    // The last store's records are readable and carry the value the kernel wrote.
    const last = t.stepCount - 1;
    expect(t.stepRecStart[last + 1]! - t.stepRecStart[last]!).toBe(32);
    let model = Array.from({ length: 256 }, (_, i) => i);
    for (let k = 0; k < 64; k++) model = model.map((_, lid) => model[(lid + k) % 256]! + 1);
    expect(Array.from(r.buffers[0]![0]!)).toEqual(model);
  });
});

describe('trace byte budget', () => {
  // A loop that never ends (its exit is never taken: i < 32), loading and storing every iteration:
  // about 160 bytes a step at 32 lanes. `loop {}` with no exit at all the front end refuses.
  const endless = {
    code: `@group(0) @binding(0) var<storage, read_write> c: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
  loop {
    c[i] = c[i] + 1.0;
    if (i > 32u) { break; }
  }
}
`,
    entryPoint: 'main',
    workgroups: [1] as [number],
    bindings: { 0: { 0: new Float32Array(32) } },
    file: 'endless.wgsl',
  };

  it('stops recording at maxTraceBytes with a diagnostic at the line, and keeps counting', () => {
    const budget = 2 * 2 ** 20;
    const r = simulate(endless, { maxSteps: 400_000, maxTraceBytes: budget });
    const t = r.trace!;
    expect(traceBytes(t)).toBeLessThanOrEqual(budget);
    expect(t.stepCount).toBeGreaterThan(1000);
    expect(t.truncatedAt).toBe(t.stepCount);
    const limit = r.diagnostics.find((d) => d.kind === 'trace-limit');
    expect(limit).toBeDefined();
    expect(limit!.line).toBeGreaterThanOrEqual(4);
    expect(limit!.line).toBeLessThanOrEqual(6);
    expect(limit!.message).toMatch(/^trace too large at line \d of endless\.wgsl: the trace reached its 2 MiB budget after [\d,]+ steps/);
    expect(limit!.message).toContain('2 MiB');
    // The counters go on past the trace, to the step limit.
    expect(r.metrics.warpInstructions).toBeGreaterThan(t.stepCount * 2);
    expect(r.diagnostics.some((d) => d.kind === 'step-limit')).toBe(true);
    expect(r.incomplete).toBe(true);
  });

  it('has a default that fits a browser tab', () => {
    expect(DEFAULT_TRACE_BYTES).toBe(256 * 2 ** 20);
  });

  it('leaves a trace within the budget untouched', () => {
    const r = simulate(reduceRun(1), { maxTraceBytes: 64 * 2 ** 20 });
    expect(r.trace!.truncatedAt).toBeUndefined();
    expect(r.diagnostics).toEqual([]);
    expect(r.trace!.stepCount).toBe(r.metrics.warpInstructions);
  });
});

describe('cancel', () => {
  it('stops a workgroup that never ends, not only between workgroups', () => {
    const run = {
      code: `@group(0) @binding(0) var<storage, read_write> c: array<u32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
  loop { c[i] = c[i] + 1u; if (i > 32u) { break; } }
}
`,
      entryPoint: 'main',
      workgroups: [1] as [number],
      bindings: { 0: { 0: new Uint32Array(32) } },
    };
    let polls = 0;
    // The first poll (before the workgroup) says go on; every later one says stop.
    const r = simulate(run, { trace: 'summary', maxSteps: 5_000_000, shouldStop: () => ++polls > 1 });
    expect(r.incomplete).toBe(true);
    expect(polls).toBeGreaterThan(1);
    expect(r.metrics.warpInstructions).toBeLessThan(200_000);
    expect(r.diagnostics.filter((d) => d.kind === 'step-limit')).toEqual([]);
  });
});
