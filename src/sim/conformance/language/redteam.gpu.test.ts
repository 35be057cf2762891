/**
 * Red-team kernels (issue 12): whole programs in the style of public WebGPU projects (samples,
 * prefix sums, a 2-D renderer's pipeline, generated tensor shaders, the CTS), each mixing the
 * language features such code leans on. Each runs on the simulator and on Dawn; every output
 * buffer must agree word for word, and where the spec pins a value down it is written out by hand.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bindings, KernelRun, Workgroups } from '../../../kernel/types.ts';
import { simulate } from '../../simulate.ts';
import { CORPUS, type CorpusKernel } from './redteam-corpus.ts';

interface Gpu {
  run(run: KernelRun): Promise<Bindings>;
  adapter?: { subgroupMinSize?: number | undefined; subgroupMaxSize?: number | undefined } | undefined;
}
let gpu: Gpu;
beforeAll(async () => {
  const { sharedNodeGpu } = await import('../../../gpu/node.ts');
  gpu = await sharedNodeGpu();
});

interface Case {
  name: string;
  code: string;
  workgroups?: Workgroups;
  /** Extra bindings in group 0 (binding 0 is `out`, 64 words unless `outWords`). */
  bindings?: Record<number, Uint32Array | Float32Array | Int32Array>;
  outWords?: number;
  overrides?: Record<string, number>;
  /** Leading words of `out` derived by hand from the spec. */
  expect?: readonly number[];
  subgroups?: boolean;
}

const hex = (w: number | undefined): string => (w === undefined ? 'none' : `0x${w.toString(16)}`);
const OUT = `@group(0) @binding(0) var<storage, read_write> out: array<u32>;`;

export const CASES: Case[] = [
  {
    name: 'particles: struct array with vec3 (16-byte stride), uniform params, 2-D dispatch with num_workgroups',
    code: `struct Particle { pos: vec3f, life: f32, vel: vec3f, id: u32 }
struct Params { dt: f32, gravity: vec3f, count: u32 }
@group(0) @binding(1) var<storage, read_write> ps: array<Particle>;
@group(0) @binding(2) var<uniform> params: Params;
${OUT}
@compute @workgroup_size(4, 2) fn main(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let width = nw.x * 4u;
  let i = g.y * width + g.x;
  if (i >= params.count) { return; }
  var p = ps[i];
  p.vel += params.gravity * params.dt;
  p.pos = p.pos + p.vel * params.dt;
  p.life -= params.dt;
  p.id = i;
  ps[i] = p;
  out[i] = bitcast<u32>(p.pos.y);
}`,
    workgroups: [2, 2],
    bindings: {
      1: Float32Array.from({ length: 16 * 8 }, (_, k) => (k % 8 === 7 ? 0 : (k % 13) * 0.25)),
      2: Float32Array.of(0.5, 0, 0, 0, 0, -9.8, 0.1, 0, ...new Float32Array(Uint32Array.of(13, 0, 0, 0).buffer)),
    },
  },
  {
    name: 'nested structs with @align and @size, in storage and in a uniform',
    code: `struct Inner { @size(12) a: u32, @align(16) b: vec2u }
struct Outer { x: u32, @align(32) inner: Inner, @size(20) y: f32, z: array<u32, 2> }
@group(0) @binding(1) var<uniform> u: Outer;
@group(0) @binding(2) var<storage, read_write> s: array<Outer, 2>;
${OUT}
@compute @workgroup_size(1) fn main() {
  out[0] = u.x; out[1] = u.inner.a; out[2] = u.inner.b.y; out[3] = bitcast<u32>(u.y); out[4] = u.z[1];
  s[1] = u; s[0].inner.b = vec2u(77u, 78u); s[0].z[0] = 99u;
}`,
    bindings: { 1: Uint32Array.from({ length: 32 }, (_, k) => k + 1), 2: new Uint32Array(48) },
    // Inner: a at 0 (size 12), b at 16, size 24 → align 16, size 32. Outer: x 0, inner 32, y 64 (size 20), z at 84, size 96 (align 32).
    expect: [1, 9, 14, 17, 23],
  },
  {
    name: 'matrices in a uniform (mat3x3 column stride 16), mat4x4 × vec4, matrix arrays in storage',
    code: `struct Cam { view: mat4x4f, normal: mat3x3f, scale: vec2f }
@group(0) @binding(1) var<uniform> cam: Cam;
@group(0) @binding(2) var<storage, read_write> mats: array<mat2x2f>;
${OUT}
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  let p = cam.view * vec4f(f32(i), 1.0, 2.0, 1.0);
  let n = cam.normal * vec3f(1.0, f32(i), 0.5);
  let m = mats[i] * mat2x2f(cam.scale, cam.scale.yx);
  mats[i] = m + transpose(m);
  out[i * 4u] = bitcast<u32>(p.x + p.w);
  out[i * 4u + 1u] = bitcast<u32>(n.z);
  out[i * 4u + 2u] = bitcast<u32>(m[i % 2u][1u - i % 2u]);
  out[i * 4u + 3u] = bitcast<u32>(determinant(mat3x3f(cam.view[0].xyz, cam.view[1].xyz, cam.view[2].xyz)));
}`,
    bindings: {
      1: Float32Array.from({ length: 16 + 12 + 4 }, (_, k) => (k * 7) % 5 - 1.5),
      2: Float32Array.from({ length: 16 }, (_, k) => k * 0.5 - 2),
    },
  },
  {
    name: 'float atomic add by a compare-exchange loop, atomicMax/atomicMin on i32, exchange, and/or/xor',
    code: `struct Acc { sum: atomic<u32>, hi: atomic<i32>, lo: atomic<i32>, bits: atomic<u32>, x: atomic<u32>, last: atomic<u32> }
@group(0) @binding(0) var<storage, read_write> acc: Acc;
@group(0) @binding(1) var<storage, read> vals: array<f32>;
fn atomicAddF32(p: ptr<storage, atomic<u32>, read_write>, v: f32) {
  var old = atomicLoad(p);
  loop {
    let r = atomicCompareExchangeWeak(p, old, bitcast<u32>(bitcast<f32>(old) + v));
    if (r.exchanged) { break; }
    old = r.old_value;
  }
}
@compute @workgroup_size(32) fn main(@builtin(global_invocation_id) g: vec3u) {
  let v = vals[g.x];
  atomicAddF32(&acc.sum, v);
  atomicMax(&acc.hi, i32(v * 4.0));
  atomicMin(&acc.lo, i32(v * 4.0));
  // Or sets bits 0-15 and And clears only bits 16-31, so the word does not depend on the order
  // the invocations' atomics run in (a GPU may run them in any order).
  atomicOr(&acc.bits, 1u << (g.x % 16u));
  atomicXor(&acc.x, g.x);
  atomicAnd(&acc.bits, 0x0000ffffu | (u32(g.x != 5u) << 31u));
  _ = atomicExchange(&acc.last, 1u);
}`,
    workgroups: [2],
    outWords: 6,
    bindings: { 1: Float32Array.from({ length: 64 }, (_, k) => (k % 7) - 3.5) },
  },
  {
    name: 'workgroup histogram: atomics in a workgroup struct, workgroupUniformLoad of a count, early exit',
    code: `struct Bins { counts: array<atomic<u32>, 8>, total: atomic<u32> }
var<workgroup> bins: Bins;
var<workgroup> maxBin: u32;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
${OUT}
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3u) {
  let k = keys[wg.x * 64u + li] % 8u;
  atomicAdd(&bins.counts[k], 1u);
  atomicAdd(&bins.total, 1u);
  workgroupBarrier();
  if (li == 0u) {
    var m = 0u;
    for (var b = 0u; b < 8u; b++) { m = max(m, atomicLoad(&bins.counts[b])); }
    maxBin = m;
  }
  let m = workgroupUniformLoad(&maxBin);
  if (m == 0u) { return; }
  if (li < 8u) { out[wg.x * 9u + li] = atomicLoad(&bins.counts[li]) * 100u / m; }
  if (li == 8u) { out[wg.x * 9u + 8u] = atomicLoad(&bins.total); }
}`,
    workgroups: [3],
    bindings: { 1: Uint32Array.from({ length: 192 }, (_, k) => (Math.imul(k, 2654435761) >>> 7)) },
  },
  {
    name: 'overrides with expressions: workgroup size, tile arrays, bool and f32 overrides, const-exprs',
    code: `override TILE: u32 = 4u;
override ROWS = TILE * 2u;
override USE_SCALE: bool = true;
override SCALE: f32 = 1.5 * 2.0;
const OFFS = vec3(1, 2, 3) * 2;
const K = array<i32, 3>(OFFS.x, OFFS.y, OFFS.z);
const LIM = clamp(100, 0, 50) + select(1, 2, OFFS.z > 5);
var<workgroup> tile: array<array<f32, 8>, ROWS>;
${OUT}
@compute @workgroup_size(TILE, ROWS) fn main(@builtin(local_invocation_id) l: vec3u) {
  tile[l.y][l.x] = f32(l.x + l.y * TILE) * select(1.0, SCALE, USE_SCALE);
  workgroupBarrier();
  let t = tile[ROWS - 1u - l.y][TILE - 1u - l.x];
  out[l.x + l.y * TILE] = u32(t) + u32(K[l.x % 3u]) + u32(LIM);
}`,
    overrides: { TILE: 2, USE_SCALE: 0 },
    outWords: 16,
  },
  {
    name: 'pointers to functions: ptr<function> arrays, ptr<workgroup> atomics, ptr<storage> structs with member sugar',
    code: `struct Seg { a: vec2f, b: vec2f, n: u32 }
@group(0) @binding(1) var<storage, read_write> segs: array<Seg>;
var<workgroup> counter: atomic<u32>;
${OUT}
fn sortTwo(v: ptr<function, array<f32, 4>>, i: u32, j: u32) { if ((*v)[i] > v[j]) { let t = v[i]; v[i] = (*v)[j]; v[j] = t; } }
fn bump(c: ptr<workgroup, atomic<u32>>) -> u32 { return atomicAdd(c, 1u); }
fn len2(s: ptr<storage, Seg, read_write>) -> f32 { let d = s.b - (*s).a; s.n += 1u; return dot(d, d); }
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  var v = array<f32, 4>(f32(3u - i), 1.5, f32(i) * 2.0, 0.25);
  sortTwo(&v, 0u, 1u); sortTwo(&v, 2u, 3u); sortTwo(&v, 0u, 2u); sortTwo(&v, 1u, 3u); sortTwo(&v, 1u, 2u);
  let slot = bump(&counter);
  let l = len2(&segs[i]);
  out[i * 6u] = bitcast<u32>(v[0]); out[i * 6u + 1u] = bitcast<u32>(v[1]); out[i * 6u + 2u] = bitcast<u32>(v[2]); out[i * 6u + 3u] = bitcast<u32>(v[3]);
  out[i * 6u + 4u] = bitcast<u32>(l); out[i * 6u + 5u] = u32(slot < 4u);
}`,
    bindings: { 1: Float32Array.from({ length: 24 }, (_, k) => (k % 6 === 4 ? 0 : k * 0.5 - 3)) },
  },
  {
    name: 'control flow: loop/continuing/break if with continue, switch with default in the middle, labelled-free nested breaks',
    code: `${OUT}
fn classify(x: i32) -> u32 {
  switch (x) {
    case -1, -2: { return 10u; }
    case 0, default, 7: { if (x == 7) { return 70u; } }
    case 3: { return 30u; }
  }
  return 99u;
}
@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {
  var n = 0u; var acc = 0u;
  loop {
    n++;
    if (n % 3u == 0u) { continue; }
    acc += n * (i + 1u);
    continuing { break if n >= 5u + i; }
  }
  var k = 0u;
  for (;;) { k += 2u; if (k > i) { break; } for (var z = 0u; z < 10u; z++) { if (z == 2u) { break; } acc += 1u; } }
  var w = i32(i) - 2;
  while (w < 10) { w += 4; if (w == 6) { break; } }
  out[i] = acc * 1000u + classify(i32(i) - 2) + u32(w) * 100000u;
}`,
    outWords: 8,
  },
  {
    name: 'let shadowing across blocks, loops and function parameters',
    code: `${OUT}
const v = 3u;
fn f(v: u32) -> u32 { let w = v * 2u; { let v = w + 1u; { let w = v * 10u; return w + v; } } }
@compute @workgroup_size(2) fn main(@builtin(local_invocation_index) i: u32) {
  let x = i + v;
  var s = 0u;
  for (var x = 0u; x < 3u; x++) { let x = x * 2u; s += x; }
  { let x = 100u; s += x; }
  let j = x + s;
  { let i = j; out[i % 8u] = f(i) + x; }
}`,
  },
  {
    name: 'bitcast across vector types, NaN and infinity bit patterns, pack/unpack round trips',
    code: `@group(0) @binding(1) var<storage, read> inp: array<u32>;
${OUT}
@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {
  let w = vec4u(inp[i], inp[i + 1u], inp[i + 2u], inp[i + 3u]);
  let f = bitcast<vec4f>(w);
  let back = bitcast<vec4i>(f);
  let p = inp[i + 4u];
  let h = unpack2x16float(p);
  let r = pack2x16float(h);
  let u = pack4x8unorm(unpack4x8unorm(inp[i]));
  let s = pack2x16snorm(unpack2x16snorm(p));
  let q = bitcast<vec2f>(vec2i(back.xy));
  out[i * 6u] = bitcast<u32>(back.w); out[i * 6u + 1u] = r; out[i * 6u + 2u] = u; out[i * 6u + 3u] = s;
  out[i * 6u + 4u] = bitcast<u32>(q.y); out[i * 6u + 5u] = pack2x16unorm(unpack2x16unorm(p));
}`,
    // No f16 NaN or infinity halves: packing those to f16 is an indeterminate value (WGSL §17.9).
    bindings: { 1: Uint32Array.of(0x7fc00000, 0xff800000, 0x3c00bc00, 0x3555d555, 0x7bff0001, 0x00010001, 0x80008000, 0x12345678, 0xfbff7bff, 0x03ff8001, 0x0400c400, 0x3c013bff) },
  },
  {
    name: 'f32 edge cases: fract, modf and frexp structs on negatives, ldexp, extractBits/insertBits signed',
    code: `@group(0) @binding(1) var<storage, read> inp: array<f32>;
${OUT}
@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {
  let x = inp[i];
  let m = modf(x);
  let e = frexp(x);
  out[i * 8u] = bitcast<u32>(fract(x));
  out[i * 8u + 1u] = bitcast<u32>(m.fract);
  out[i * 8u + 2u] = bitcast<u32>(m.whole);
  out[i * 8u + 3u] = bitcast<u32>(e.fract);
  out[i * 8u + 4u] = bitcast<u32>(e.exp);
  out[i * 8u + 5u] = bitcast<u32>(ldexp(x, i32(i) * 20 - 60));
  out[i * 8u + 6u] = bitcast<u32>(extractBits(bitcast<i32>(x), i * 4u, 5u));
  out[i * 8u + 7u] = bitcast<u32>(insertBits(-1, i32(i) - 4, i * 3u, 4u));
}`,
    // No denormals (an implementation may flush them) and no negative whole numbers (modf's fract
    // is then a zero whose sign WGSL lets an implementation ignore; Dawn's is -0 at run time).
    bindings: { 1: Float32Array.of(-0.5, -2.75, 1.5e-30, 3.5, -98765.4375, 0.125, -7.125, 123456.789) },
  },
  {
    name: 'subgroup reduce-then-scan (GPUPrefixSums style): inclusive/exclusive add, shuffle, broadcast, ballot, elect',
    code: `enable subgroups;
@group(0) @binding(1) var<storage, read> inp: array<u32>;
${OUT}
var<workgroup> partials: array<u32, 64>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) li: u32, @builtin(subgroup_invocation_id) sid: u32,
  @builtin(subgroup_size) ssz: u32) {
  let x = inp[li];
  let inc = subgroupInclusiveAdd(x);
  let exc = subgroupExclusiveAdd(x);
  let warp = li / ssz;
  if (sid == ssz - 1u) { partials[warp] = inc; }
  workgroupBarrier();
  if (li == 0u) {
    var run = 0u;
    for (var w = 0u; w < 64u / ssz; w++) { let t = partials[w]; partials[w] = run; run += t; }
  }
  workgroupBarrier();
  let prefix = partials[warp] + exc;
  let b = subgroupBallot(x > 5u);
  let first = subgroupBroadcastFirst(x);
  let sh = subgroupShuffle(x, (sid + 1u) % ssz);
  let xr = subgroupShuffleXor(x, 1u);
  let el = subgroupElect();
  out[li] = prefix;
  out[64u + li] = countOneBits(b.x) + countOneBits(b.y) * 100u + first * 10000u;
  out[128u + li] = sh + xr * 1000u + u32(el) * 1000000u + subgroupBroadcast(x, 0u) * 100u;
}`,
    bindings: { 1: Uint32Array.from({ length: 64 }, (_, k) => (k * 7) % 11) },
    outWords: 192,
    subgroups: true,
  },
  {
    name: '3-D dispatch: ids linearised with num_workgroups and workgroup_id',
    code: `${OUT}
@compute @workgroup_size(2, 2, 2) fn main(@builtin(global_invocation_id) g: vec3u, @builtin(num_workgroups) n: vec3u,
  @builtin(workgroup_id) w: vec3u, @builtin(local_invocation_index) li: u32, @builtin(local_invocation_id) l: vec3u) {
  let dims = n * vec3u(2u, 2u, 2u);
  let i = g.x + dims.x * (g.y + dims.y * g.z);
  out[i] = (w.x + 10u * w.y + 100u * w.z) * 1000u + li * 10u + l.z;
}`,
    workgroups: [2, 3, 2],
    outWords: 96,
  },
  {
    name: 'tensor-shader style: uniform with array of vec4 shapes, strides, index math, arrayLength of a read buffer',
    code: `struct Uniforms { xShape: vec4<i32>, outShape: vec4<i32>, strides: array<vec4<u32>, 2>, size: i32 }
@group(0) @binding(1) var<uniform> uniforms: Uniforms;
@group(0) @binding(2) var<storage, read> A: array<f32>;
@group(0) @binding(0) var<storage, read_write> result: array<f32>;
fn getCoordsFromIndex(index: i32) -> vec4<i32> {
  var index2 = index;
  let d0 = index2 / i32(uniforms.strides[0].x); index2 = index2 - d0 * i32(uniforms.strides[0].x);
  let d1 = index2 / i32(uniforms.strides[0].y); index2 = index2 - d1 * i32(uniforms.strides[0].y);
  let d2 = index2 / i32(uniforms.strides[0].z); let d3 = index2 - d2 * i32(uniforms.strides[0].z);
  return vec4<i32>(d0, d1, d2, d3);
}
fn getX(d0: i32, d1: i32, d2: i32, d3: i32) -> f32 {
  let s = vec4<i32>(uniforms.strides[1]);
  return A[dot(vec4<i32>(d0, d1, d2, d3), s)];
}
@compute @workgroup_size(16, 1, 1) fn main(@builtin(global_invocation_id) globalId: vec3<u32>) {
  let index = i32(globalId.x);
  if (index < uniforms.size) {
    let coords = getCoordsFromIndex(index);
    let v = getX(coords.x, coords.w, coords.y, coords.z);
    result[index] = max(v, 0.0) + f32(arrayLength(&A) % 7u);
  }
}`,
    workgroups: [2],
    outWords: 32,
    bindings: {
      1: Uint32Array.of(1, 2, 3, 4, 1, 2, 3, 4, 12, 4, 1, 0, 12, 1, 4, 0, 24, 0, 0, 0),
      2: Float32Array.from({ length: 30 }, (_, k) => k - 10.5),
    },
  },
];

function runOf(c: Case): KernelRun {
  return {
    code: c.code,
    entryPoint: 'main',
    workgroups: c.workgroups ?? [1],
    bindings: { 0: { 0: new Uint32Array(c.outWords ?? 64), ...(c.bindings ?? {}) } },
    ...(c.overrides ? { overrides: c.overrides } : {}),
  };
}

describe('red-team kernels: simulator vs Dawn', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_n, c) => {
    const run = runOf(c);
    const warpSize = c.subgroups ? (gpu.adapter?.subgroupMinSize ?? 32) : 32;
    const sim = simulate(run, { trace: 'summary', warpSize });
    expect(sim.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([]);
    const g = await gpu.run(run);
    const diffs: string[] = [];
    for (const [b, data] of Object.entries(g[0]!)) {
      const gw = new Uint32Array(data.buffer, data.byteOffset, data.length);
      const sd = sim.buffers[0]![Number(b)]!;
      const sw = new Uint32Array(sd.buffer, sd.byteOffset, sd.length);
      for (let k = 0; k < Math.max(gw.length, sw.length); k++) {
        if (sw[k] !== gw[k]) diffs.push(`binding ${b} word ${k}: sim ${hex(sw[k])} gpu ${hex(gw[k])}`);
      }
    }
    expect(diffs).toEqual([]);
    if (c.expect) expect(Array.from(sim.buffers[0]![0]!).slice(0, c.expect.length)).toEqual(Array.from(c.expect, (x) => x >>> 0));
  });
});

function corpusRun(c: CorpusKernel): KernelRun {
  const out = new Uint32Array(c.words);
  if (c.fill !== undefined) out.fill(c.fill);
  const extra = Object.fromEntries(Object.entries(c.bindings ?? {}).map(([b, w]) => [Number(b), Uint32Array.from(w)]));
  return { code: c.code, entryPoint: 'main', workgroups: c.workgroups ?? [1], bindings: { 0: { 0: out, ...extra } } };
}

describe('red-team corpus: one language corner per kernel, simulator vs Dawn', () => {
  it.each(CORPUS.filter((c) => !c.rejectedAt).map((c) => [c.name, c] as const))('%s', async (_n, c) => {
    const run = corpusRun(c);
    const sim = simulate(run, { trace: 'summary', ...(c.warpSize ? { warpSize: c.warpSize } : {}) });
    expect(sim.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([]);
    const g = await gpu.run(run);
    // Dawn returns the buffers the entry point uses; each must agree with the simulator's.
    for (const [b, data] of Object.entries(g[0]!)) {
      expect([b, Array.from(sim.buffers[0]![Number(b)]! as Uint32Array)]).toEqual([b, Array.from(data as Uint32Array)]);
    }
  });

  it.each(CORPUS.filter((c) => c.rejectedAt).map((c) => [c.name, c] as const))('rejected as Dawn rejects it: %s', async (_n, c) => {
    const run = corpusRun(c);
    const sim = simulate(run, { trace: 'summary', ...(c.warpSize ? { warpSize: c.warpSize } : {}) });
    expect(sim.diagnostics.length).toBeGreaterThan(0);
    expect([sim.diagnostics[0]!.line, sim.diagnostics[0]!.column]).toEqual(c.rejectedAt);
    await expect(gpu.run(run)).rejects.toThrow(`kernel.wgsl:${c.rejectedAt![0]}:${c.rejectedAt![1]}`);
  });
});

describe('where Dawn departs from the spec, the simulator follows the spec', () => {
  // WGSL §7.3: a function-scope `var` without an initializer holds the zero value each time its
  // declaration runs, so one declared in a loop body starts at 0 in every iteration. Dawn (Tint's
  // SPIR-V output, SwiftShader) zeroes it once, on entry, and it carries the last iteration's value
  // (naga had the same bug: gfx-rs/wgpu#9489). Kernels that rely on either behaviour should write
  // `var x = 0u;`, which both run the same.
  const cases: [string, string, number, number][] = [
    ['a var in a for body', `for (var k = 0u; k < 3u; k++) { var x: u32; x += k + 1u; s = s * 10u + x; }`, 123, 136],
    ['a var in a loop body', `var k = 0u; loop { if k >= 3u { break; } var x: u32; x += k + 1u; s = s * 10u + x; k++; }`, 123, 136],
    ['a var in a continuing block', `var k = 0u; loop { k++; continuing { var z: u32; z += 5u; s += z; break if k >= 3u; } }`, 15, 30],
  ];
  it.each(cases)('%s', async (_n, body, spec, dawn) => {
    const run: KernelRun = {
      code: `${OUT}\n@compute @workgroup_size(1) fn main() { var s = 0u; ${body} out[0] = s; }`,
      entryPoint: 'main',
      workgroups: [1],
      bindings: { 0: { 0: new Uint32Array(4) } },
    };
    const sim = simulate(run, { trace: 'summary' });
    expect(sim.diagnostics).toEqual([]);
    expect(sim.buffers[0]![0]![0]).toBe(spec);
    const g = (await gpu.run(run))[0]![0]![0];
    expect([spec, dawn]).toContain(g);
  });
});

describe('a binding below its type’s minimum size: refused on both sides, accepted on both sides', () => {
  const code = `struct Config { n: u32, tol: f32, @align(16) pad: u32 }
struct Lines { count: u32, seen: u32, data: array<vec2f> }
@group(0) @binding(0) var<uniform> config: Config;
@group(0) @binding(1) var<storage, read_write> lines: Lines;
@compute @workgroup_size(1) fn main() { lines.count = config.n + 1u; }`;
  // [config words, lines words, accepted]: the uniform block needs 32 bytes (the executor pads it
  // to 16-byte multiples), the storage struct 16 (room for one vec2f).
  const cases: [number, number, boolean][] = [[4, 4, false], [8, 2, false], [5, 4, true], [8, 4, true]];
  it.each(cases)('config %i words, lines %i words', async (cfg, ln, accepted) => {
    const run: KernelRun = { code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(cfg), 1: new Uint32Array(ln) } } };
    const sim = simulate(run, { trace: 'summary' });
    expect(sim.diagnostics.length === 0).toBe(accepted);
    if (accepted) expect(Array.from((await gpu.run(run))[0]![1]!)).toEqual(Array.from(sim.buffers[0]![1]!));
    else await expect(gpu.run(run)).rejects.toThrow(/too small/);
  });
});

describe('subgroupMin and subgroupMax on f32 skip a NaN, as min and max do (WGSL §17.5)', () => {
  it('one NaN lane in the subgroup', async () => {
    const run: KernelRun = {
      code: `enable subgroups;
${OUT}
@group(0) @binding(1) var<storage, read> inp: array<u32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  let x = bitcast<f32>(inp[i]);
  out[i] = bitcast<u32>(subgroupMin(x)); out[4u + i] = bitcast<u32>(subgroupMax(x));
}`,
      entryPoint: 'main',
      workgroups: [1],
      bindings: { 0: { 0: new Uint32Array(8), 1: Uint32Array.of(0x7fc00000, 0x3f800000, 0x40000000, 0xbf800000) } },
    };
    const sim = simulate(run, { trace: 'summary', warpSize: 4 });
    expect(sim.diagnostics).toEqual([]);
    expect(Array.from(sim.buffers[0]![0]!)).toEqual([...new Array<number>(4).fill(0xbf800000), ...new Array<number>(4).fill(0x40000000)]);
    if ((gpu.adapter?.subgroupMinSize ?? 0) === 4) expect(Array.from((await gpu.run(run))[0]![0]!)).toEqual(Array.from(sim.buffers[0]![0]!));
  });
});
