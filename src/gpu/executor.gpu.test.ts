import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vectorAddReference, vectorAddRun } from '../labs/basics/vectorAdd.ts';
import { foldWorkgroups, type KernelRun } from '../kernel/types.ts';
import { randomF32, seededRandom } from '../util/random.ts';
import { dataMismatch, gpuErrorOf } from './testkit.ts';
import { GpuExecutor } from './executor.ts';
import { createNodeGpu } from './node.ts';
import LINEAR_WGSL from '../../shaders/common/linear-workgroup.wgsl?raw';

let gpu: GpuExecutor;
beforeAll(async () => {
  gpu = await createNodeGpu();
});
afterAll(() => gpu.destroy());

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
    // Identity compared directly: `not.toBe` compares equal arrays deeply, twice, to word its message.
    expect(back === a).toBe(false);
    expect(back.every((v, i) => Object.is(v, a[i]))).toBe(true);
  });

  it('covers n with a grid smaller than n (grid-stride loop)', async () => {
    const n = 10_000;
    const rng = seededRandom(7);
    const a = randomF32(rng, n);
    const b = randomF32(rng, n);
    const out = await gpu.run(vectorAddRun({ a, b, workgroups: 3, workgroupSize: 64 }));
    expect(dataMismatch(out[0]![2]!, vectorAddReference(a, b))).toBeNull();
  });

  it('reports a WGSL syntax error with line and column', async () => {
    const code = 'fn helper() -> u32 { return 1u; }\n@compute @workgroup_size(1)\nfn main() {\n  let x = 1u +;\n}\n';
    const err = await gpuErrorOf(gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: {}, file: 'broken.wgsl' }));
    expect(err.kind).toBe('compile');
    expect(err.location?.line).toBe(4);
    expect(err.location?.column).toBeGreaterThan(0);
    expect(err.message).toContain('broken.wgsl:4:');
  });

  it('turns a missing binding and a bad entry point into typed errors', async () => {
    const code = '@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(1) fn main() { o[0] = 1u; }';
    expect((await gpuErrorOf(gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: {} }))).kind).toBe('bindings');
    const bad = await gpuErrorOf(gpu.run({ code, entryPoint: 'nope', workgroups: [1], bindings: { 0: { 0: new Uint32Array(1) } } }));
    expect(bad.kind).toBe('validation');
    // The executor still works afterwards.
    const ok = await gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(1) } } });
    expect(ok[0]![0]![0]).toBe(1);
  });

  it('binds only the buffers the chosen entry point uses, even where another entry point reuses the slot', async () => {
    const code = `@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@group(0) @binding(0) var<storage, read_write> b: array<f32>;
@group(0) @binding(1) var<storage, read_write> c: array<u32>;
@compute @workgroup_size(1) fn first() { a[0] = 7u; }
@compute @workgroup_size(1) fn second() { b[0] = 2.5; c[0] = 3u; }`;
    const one = await gpu.run({ code, entryPoint: 'first', workgroups: [1], bindings: { 0: { 0: new Uint32Array(1) } } });
    expect([...one[0]![0]!]).toEqual([7]);
    const two = await gpu.run({ code, entryPoint: 'second', workgroups: [1], bindings: { 0: { 0: new Float32Array(1), 1: new Uint32Array(1) } } });
    expect([...two[0]![0]!, ...two[0]![1]!]).toEqual([2.5, 3]);
  });

  it('keeps the reason a bind group is refused (a uniform over the binding limit), not just "invalid due to a previous error"', async () => {
    const code = 'struct P { v: array<vec4<u32>, 4> }\n@group(0) @binding(0) var<uniform> p: P;\n@group(0) @binding(1) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(1) fn main() { o[0] = p.v[0].x; }';
    const err = await gpuErrorOf(gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(1 << 15), 1: new Uint32Array(4) } }, label: 'too-big' }));
    expect(err.kind).toBe('validation');
    expect(err.message).toContain('131072');
    expect(err.message).not.toContain('previous error');
    // The executor still works afterwards.
    const ok = await gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(16).fill(7), 1: new Uint32Array(4) } } });
    expect(ok[0]![1]![0]).toBe(7);
  });

  it('binds storage buffers at the length passed, so arrayLength counts those elements (not the 16-byte-rounded buffer)', async () => {
    const code = `@group(0) @binding(0) var<storage, read> a: array<u32>;
struct Out { n: u32, m: u32, rest: array<u32> }
@group(0) @binding(1) var<storage, read_write> o: Out;
@compute @workgroup_size(1) fn main() { o.n = arrayLength(&a); o.m = arrayLength(&o.rest); }`;
    const out = await gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(5), 1: new Uint32Array(7) } } });
    // The simulator counts the same: 5 words, and 7 - 2 header words.
    expect(Array.from(out[0]![1]!)).toEqual([5, 5, 0, 0, 0, 0, 0]);
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
    expect(dataMismatch(out[0]![2]!, vectorAddReference(a, b))).toBeNull();
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

  it('by default measures three times on a GPU, once on a software adapter (its spread is the CPU\'s other work)', async () => {
    const run = vectorAddRun({ a: new Float32Array(4096).fill(1), b: new Float32Array(4096).fill(2) });
    const software = (await gpu.ready()).summary.isFallbackAdapter;
    const never = await gpu.time(run, { repeats: 4, dispatchesPerPass: 1, maxSpread: 1 });
    expect(never.attempts).toBe(software ? 1 : 3);
    expect(never.steady).toBe(false);
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
    expect(dataMismatch(out[0]![2]!, vectorAddReference(a, a))).toBeNull();
  });

  it('measures read and copy baselines', async () => {
    const b = await gpu.baselines(1 << 22, { repeats: 3, minPassMs: 0.5 });
    expect(b.bytes).toBe(1 << 22);
    expect(b.readGBps).toBeGreaterThan(0);
    expect(b.copyGBps).toBeGreaterThan(0);
  });
});

describe('edge cases of edited code', () => {
  it('places a NUL character at its line and column, not at 0:0', async () => {
    const code = '@compute @workgroup_size(1)\nfn main() {\n  let x = 1u;\u0000\n}\n';
    const err = await gpuErrorOf(gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: {}, file: 'nul.wgsl' }));
    expect(err.kind).toBe('compile');
    expect(err.location).toEqual({ line: 3, column: 14, file: 'nul.wgsl' });
    expect(err.messages[0]!.sourceLine).toBe('  let x = 1u;\u0000');
    expect(err.message).toContain('nul.wgsl:3:14');
  });

  it('keeps at most cacheSize compiled pipelines, evicting the least recently used', async () => {
    const own = new GpuExecutor(() => undefined, 3);
    // Share the suite's device rather than acquiring another.
    const ctx = await gpu.ready();
    (own as unknown as { context: unknown }).context = ctx;
    const kernel = (k: number): KernelRun => ({
      code: `@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(1) fn main() { o[0] = ${k}u; }`,
      entryPoint: 'main',
      workgroups: [1],
      bindings: { 0: { 0: new Uint32Array(1) } },
    });
    const a = await own.prepare(kernel(1));
    const b = await own.prepare(kernel(2));
    await own.prepare(kernel(3));
    expect(await own.prepare(kernel(1))).toBe(a); // a hit: now the most recently used
    await own.prepare(kernel(4)); // evicts 2, the least recently used
    expect(own.cachedPipelines).toBe(3);
    expect(await own.prepare(kernel(1))).toBe(a);
    expect(await own.prepare(kernel(2))).not.toBe(b);
    for (let k = 10; k < 50; k++) await own.prepare(kernel(k));
    expect(own.cachedPipelines).toBe(3);
  });
});

describe('timeout and cancel', () => {
  // Each invocation counts to limit[0]: finite, but long on a software rasterizer.
  const slow = (limit: number): KernelRun => ({
    code: `@group(0) @binding(0) var<storage, read> limit: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  var acc = 0u;
  for (var k = 0u; k < limit[0]; k++) { acc = acc * 1664525u + (k ^ gid.x); }
  out[gid.x] = acc;
}`,
    entryPoint: 'main',
    workgroups: [4],
    bindings: { 0: { 0: new Uint32Array([limit]), 1: new Uint32Array(256) } },
    label: 'slow',
  });

  it('gives up on GPU work past timeoutMs, then runs again on a new device', async () => {
    const own = await createNodeGpu();
    const first = (await own.ready()).device;
    // Dawn in Node runs SwiftShader's work inside submit, on this thread, so the timer fires once
    // the submit returns; in a browser the GPU process runs it and the timer fires on time.
    const err = await gpuErrorOf(own.run(slow(1 << 20), { timeoutMs: 100 }));
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe('slow did not finish on the GPU within 0.1 s and was abandoned.');
    expect(own.lastLoss).toBe('slow did not finish within 0.1 s');
    const out = await own.run(slow(3));
    expect(out[0]![1]![0]).toBe(((0 * 1664525 + 0) * 1664525 + 1) * 1664525 + 2);
    expect((await own.ready()).device).not.toBe(first);
    own.destroy();
  });

  it('gives up at once when the signal aborts', async () => {
    const own = await createNodeGpu();
    const controller = new AbortController();
    const pending = own.run(slow(1 << 20), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const err = await gpuErrorOf(pending);
    expect(err.kind).toBe('cancelled');
    const already = new AbortController();
    already.abort();
    expect((await gpuErrorOf(own.time(slow(3), { signal: already.signal }))).kind).toBe('cancelled');
    expect((await own.run(slow(1)))[0]![1]![5]).toBe(5);
    own.destroy();
  });

  it('bounds a timing against its baseline too: past timeoutMs it is abandoned, and the next one runs on a new device', async () => {
    const own = await createNodeGpu();
    const first = (await own.ready()).device;
    const err = await gpuErrorOf(own.time(slow(1 << 20), { timeoutMs: 100, repeats: 2, warmupMs: 0, baseline: { kind: 'read', bytes: 1024 } }));
    expect(err.kind).toBe('timeout');
    expect(own.lastLoss).toBe('slow did not finish within 0.1 s');
    const t = await own.time(slow(3), { repeats: 2, dispatchesPerPass: 1, warmupMs: 0, maxSpread: Infinity, baseline: { kind: 'copy', bytes: 1024 } });
    expect(t.relative!.ratios).toHaveLength(2);
    expect((await own.ready()).device).not.toBe(first);
    own.destroy();
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
  it('forgets the baselines\' best figures with the device: a new device is judged against its own', async () => {
    const own = await createNodeGpu();
    const first = await own.ready();
    // As if the lost device had copied at 1 PB/s: against that, every figure of a new one looks slow.
    (own as unknown as { fastestBaseline: Map<string, number> }).fastestBaseline.set('copy', 1e6);
    first.device.destroy();
    await first.device.lost;
    const n = 1 << 12;
    const a = new Float32Array(n).fill(1);
    const t = await own.time(vectorAddRun({ a, b: a }), {
      repeats: 3,
      dispatchesPerPass: 1,
      warmupMs: 0,
      maxSpread: Infinity,
      maxAttempts: 2,
      slowBaseline: 0.01,
      slowCheckBytes: 0,
      baseline: { kind: 'copy', bytes: 12 * n },
    });
    expect(t.unsteadyReason ?? '').not.toMatch(/baseline ran at/);
    expect(t.attempts).toBe(1);
    own.destroy();
  });
});

describe('f16 on an adapter without shader-f16', () => {
  it('a kernel with `enable f16;` fails with its place and a hint that names the missing feature', async (ctx) => {
    if (gpu.adapter!.features.includes('shader-f16')) ctx.skip();
    const code = `enable f16;\n@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n@compute @workgroup_size(1) fn main() { out[0] = f32(1.5h); }`;
    const e = await gpuErrorOf(gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Float32Array(1) } } }));
    expect(e.kind).toBe('compile');
    expect(e.location?.line).toBe(1);
    expect(e.hint).toMatch(/shader-f16/);
  });

  it('an `enable f16;` in a comment does not turn an ordinary compile error into the shader-f16 hint', async (ctx) => {
    if (gpu.adapter!.features.includes('shader-f16')) ctx.skip();
    const code = `// enable f16; once, before this kernel went to f32\n@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n@compute @workgroup_size(1) fn main() { out[0] = missing; }`;
    const e = await gpuErrorOf(gpu.run({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Float32Array(1) } } }));
    expect(e.kind).toBe('compile');
    expect(e.location?.line).toBe(3);
    expect(e.hint).not.toMatch(/shader-f16/);
  });
});
