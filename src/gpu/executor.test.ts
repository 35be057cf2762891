import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vectorAddReference, vectorAddRun } from '../labs/basics/vectorAdd.ts';
import { foldWorkgroups, type KernelRun } from '../kernel/types.ts';
import { randomF32, seededRandom } from '../util/random.ts';
import { isGpuError, type GpuError } from './errors.ts';
import type { GpuExecutor } from './executor.ts';
import { createNodeGpu } from './node.ts';
import LINEAR_WGSL from '../../shaders/common/linear-workgroup.wgsl?raw';

let gpu: GpuExecutor;
beforeAll(async () => {
  gpu = await createNodeGpu();
});
afterAll(() => gpu.destroy());

async function expectGpuError(promise: Promise<unknown>): Promise<GpuError> {
  try {
    await promise;
  } catch (e) {
    if (isGpuError(e)) return e;
    throw e;
  }
  throw new Error('expected a GpuError');
}

describe('GPU executor on Dawn', () => {
  it('names the adapter it got', () => {
    const a = gpu.adapter!;
    expect(a.name.length).toBeGreaterThan(0);
    expect(a.limits.maxComputeWorkgroupsPerDimension).toBeGreaterThanOrEqual(65_535);
  });

  it.each([1, 255, 256, 1000, 65_537, 1 << 20])('vector add of %i elements matches the CPU in every element', async (n) => {
    const rng = seededRandom(n);
    const a = randomF32(rng, n, -1000, 1000);
    const b = randomF32(rng, n, -1000, 1000);
    const out = await gpu.run(vectorAddRun({ a, b }));
    const c = out[0]![2] as Float32Array;
    const expected = vectorAddReference(a, b);
    expect(c.length).toBe(n);
    let mismatches = 0;
    for (let i = 0; i < n; i++) if (!Object.is(c[i], expected[i])) mismatches++;
    expect(mismatches).toBe(0);
    // Inputs come back untouched and unshared.
    const back = out[0]![0] as Float32Array;
    expect(back).not.toBe(a);
    expect(back.every((v, i) => Object.is(v, a[i]))).toBe(true);
  });

  it('covers n with a grid smaller than n (grid-stride loop)', async () => {
    const n = 10_000;
    const rng = seededRandom(7);
    const a = randomF32(rng, n);
    const b = randomF32(rng, n);
    const out = await gpu.run(vectorAddRun({ a, b, workgroups: 3, workgroupSize: 64 }));
    expect(out[0]![2]).toEqual(vectorAddReference(a, b));
  });

  it('reports a WGSL syntax error with line and column', async () => {
    const code = 'fn helper() -> u32 { return 1u; }\n@compute @workgroup_size(1)\nfn main() {\n  let x = 1u +;\n}\n';
    const err = await expectGpuError(gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: {}, file: 'broken.wgsl' }));
    expect(err.kind).toBe('compile');
    expect(err.location?.line).toBe(4);
    expect(err.location?.column).toBeGreaterThan(0);
    expect(err.message).toContain('broken.wgsl:4:');
  });

  it('turns a missing binding and a bad entry point into typed errors', async () => {
    const code = '@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(1) fn main() { o[0] = 1u; }';
    expect((await expectGpuError(gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: {} }))).kind).toBe('bindings');
    const bad = await expectGpuError(gpu.run({ code, entryPoint: 'nope', workgroups: [1], bindings: { 0: { 0: new Uint32Array(1) } } }));
    expect(bad.kind).toBe('validation');
    // The executor still works afterwards.
    const ok = await gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(1) } } });
    expect(ok[0]![0]![0]).toBe(1);
  });

  it('folds dispatches above 65 535 workgroups into 2-D and recovers the linear index', async () => {
    const count = 70_000;
    const [x, y] = foldWorkgroups(count);
    expect(x).toBeLessThanOrEqual(65_535);
    expect(x * y).toBeGreaterThanOrEqual(count);
    const code = `@group(0) @binding(0) var<storage, read_write> hits: array<u32>;
@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linear_workgroup_index(wid, nwg);
  if (i < arrayLength(&hits)) { hits[i] = i + 1u; }
}
${LINEAR_WGSL}`;
    const run: KernelRun = { code, entryPoint: 'main', workgroups: [x, y], bindings: { 0: { 0: new Uint32Array(count) } } };
    const hits = (await gpu.run(run))[0]![0]!;
    let wrong = 0;
    for (let i = 0; i < count; i++) if (hits[i] !== i + 1) wrong++;
    expect(wrong).toBe(0);
  });

  it('times a kernel with timestamp queries and gives median, min and max', async () => {
    const n = 1 << 16;
    const rng = seededRandom(1);
    const t = await gpu.time(vectorAddRun({ a: randomF32(rng, n), b: randomF32(rng, n) }), { repeats: 5, minPassMs: 0.5 });
    expect(t.repeats).toBe(5);
    expect(t.samplesMs).toHaveLength(5);
    expect(t.minMs).toBeLessThanOrEqual(t.medianMs);
    expect(t.medianMs).toBeLessThanOrEqual(t.maxMs);
    expect(t.medianMs).toBeGreaterThan(0);
    expect(t.source).toBe(gpu.adapter!.hasTimestamps ? 'timestamp-query' : 'wall-clock');
  });

  it('queues the timed passes back to back, each read from its own timestamps', async () => {
    const n = 1 << 14;
    const rng = seededRandom(2);
    const run = vectorAddRun({ a: randomF32(rng, n), b: randomF32(rng, n) });
    const t0 = performance.now();
    const t = await gpu.time(run, { repeats: 7, dispatchesPerPass: 2, warmupMs: 0 });
    const wallMs = performance.now() - t0;
    expect(t.samplesMs).toHaveLength(7);
    expect(t.dispatchesPerPass).toBe(2);
    for (const ms of t.samplesMs) expect(ms).toBeGreaterThan(0);
    // Seven separate measurements, not one pass's figure repeated; together within the call's time.
    expect(new Set(t.samplesMs).size).toBeGreaterThan(1);
    expect(t.samplesMs.reduce((a, b) => a + b, 0) * 2).toBeLessThan(wallMs);
  });

  it('runs untimed passes for warmupMs before timing, to bring the clocks up', async () => {
    const run = vectorAddRun({ a: new Float32Array(1024), b: new Float32Array(1024) });
    const t0 = performance.now();
    await gpu.time(run, { repeats: 3, dispatchesPerPass: 1, warmupMs: 300 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(300);
  });

  it('times kernel and read baseline in alternating rounds: one ratio per round, on the kernel\'s largest buffer', async () => {
    const n = 1 << 16;
    const rng = seededRandom(3);
    const run = vectorAddRun({ a: randomF32(rng, n), b: randomF32(rng, n) });
    const t = await gpu.time(run, { repeats: 6, minPassMs: 0.5, warmupMs: 0, maxSpread: Infinity, baseline: { kind: 'read', bytes: 12 * n } });
    const rel = t.relative!;
    expect(rel.kind).toBe('read');
    expect(rel.ratios).toHaveLength(6);
    expect(rel.baseline.samplesMs).toHaveLength(6);
    expect(rel.baselineBytes).toBe(4 * n); // one of a, b, c: all 4n bytes
    expect(rel.kernelBytes).toBe(12 * n);
    // Each round's ratio is that round's kernel GB/s over that round's baseline GB/s.
    const r0 = (12 * n) / t.samplesMs[0]! / ((4 * n) / rel.baseline.samplesMs[0]!);
    expect(rel.ratios[0]).toBeCloseTo(r0, 9);
    expect(rel.ratioMin).toBeLessThanOrEqual(rel.ratio);
    expect(rel.ratio).toBeLessThanOrEqual(rel.ratioMax);
    expect(rel.kernelGBps).toBeCloseTo((12 * n) / (t.medianMs * 1e6), 9);
    expect(t.spread).toBeCloseTo(t.maxMs / t.minMs, 9);
  });

  it('copies between the kernel\'s own buffers for the copy baseline, leaving its inputs as they were', async () => {
    const n = 1 << 14;
    const rng = seededRandom(4);
    const a = randomF32(rng, n);
    const b = randomF32(rng, n);
    const t = await gpu.time(vectorAddRun({ a, b }), { repeats: 3, dispatchesPerPass: 2, warmupMs: 0, maxSpread: Infinity, baseline: { kind: 'copy', bytes: 12 * n } });
    expect(t.relative!.baselineBytes).toBe(2 * 4 * n);
    expect(t.relative!.baseline.dispatchesPerPass).toBe(2);
    // The executor works on copies: the caller's arrays are untouched.
    const out = await gpu.run(vectorAddRun({ a, b }));
    expect(out[0]![2]).toEqual(vectorAddReference(a, b));
  });

  it('measures an unsteady figure again and returns it flagged when it never settles', async () => {
    const run = vectorAddRun({ a: new Float32Array(4096).fill(1), b: new Float32Array(4096).fill(2) });
    // No two timings are exactly equal, so a limit of 1.0 can never be met.
    const never = await gpu.time(run, { repeats: 4, dispatchesPerPass: 1, warmupMs: 0, maxSpread: 1, maxAttempts: 3 });
    expect(never.attempts).toBe(3);
    expect(never.steady).toBe(false);
    const always = await gpu.time(run, { repeats: 4, dispatchesPerPass: 1, warmupMs: 0, maxSpread: Infinity, maxAttempts: 3 });
    expect(always.attempts).toBe(1);
    expect(always.steady).toBe(true);
  });

  it('measures a figure whose baseline ran slow again, on newly allocated buffers', async () => {
    const n = 1 << 14;
    const rng = seededRandom(5);
    const a = randomF32(rng, n);
    const run = vectorAddRun({ a, b: a });
    // A share of 2 marks every baseline as slow: each attempt re-binds and measures again.
    const t = await gpu.time(run, {
      repeats: 3,
      dispatchesPerPass: 1,
      warmupMs: 0,
      maxSpread: Infinity,
      maxAttempts: 3,
      slowBaseline: 2,
      slowCheckBytes: 0,
      baseline: { kind: 'copy', bytes: 12 * n },
    });
    expect(t.attempts).toBe(3);
    expect(t.steady).toBe(false);
    expect(t.unsteadyReason).toMatch(/copy baseline ran at \d+ % of its best/);
    expect(t.relative!.ratios).toHaveLength(3);
    // The executor still works afterwards: the old buffers were freed, not the new ones in use.
    const out = await gpu.run(run);
    expect(out[0]![2]).toEqual(vectorAddReference(a, a));
  });

  it('measures read and copy baselines', async () => {
    const b = await gpu.baselines(1 << 22, { repeats: 3, minPassMs: 0.5 });
    expect(b.bytes).toBe(1 << 22);
    expect(b.readGBps).toBeGreaterThan(0);
    expect(b.copyGBps).toBeGreaterThan(0);
  });
});

describe('device loss', () => {
  it('re-acquires a device on the next run after the device is lost', async () => {
    const own = await createNodeGpu();
    const first = await own.ready();
    first.device.destroy();
    await first.device.lost;
    const n = 100;
    const a = new Float32Array(n).fill(1);
    const out = await own.run(vectorAddRun({ a, b: a }));
    expect(Array.from(out[0]![2]!).every((v) => v === 2)).toBe(true);
    expect(own.lastLoss).toMatch(/destroyed/);
    expect((await own.ready()).device).not.toBe(first.device);
    own.destroy();
  });
});
