/**
 * Language features that public compute kernels use, one small program each, written from the
 * WGSL spec (section in each name). Every program runs on the simulator and on Dawn and the
 * output buffer must agree word for word; where the spec pins the value down, the expected words
 * are also written out by hand, so a shared mistake of both sides still fails.
 */
import { describe, expect, it } from 'vitest';
import type { KernelRun } from '../../../kernel/types.ts';
import { simulate } from '../../simulate.ts';
import { nodeGpu } from '../harness.ts';

const OUT = `@group(0) @binding(0) var<storage, read_write> out: array<u32>;`;

interface Feature {
  name: string;
  code: string;
  threads?: number;
  /** Expected leading words of `out`, derived from the spec by hand. */
  expect?: readonly number[];
  overrides?: Record<string, number>;
  /** Extra read-only buffer at binding 1. */
  input?: Uint32Array;
}

const fw = (x: number): number => new Uint32Array(Float32Array.of(x).buffer)[0]!;

const FEATURES: Feature[] = [
  {
    name: '§7.2.3 override with a default, derived override, pipeline constant',
    code: `override N: u32 = 4u; override M = N * 2u; @id(7) override K: i32;
${OUT}
@compute @workgroup_size(1) fn main() { out[0] = M; out[1] = bitcast<u32>(K); }`,
    overrides: { 7: -3 },
    expect: [8, 0xfffffffd],
  },
  {
    name: '§7.2.3 override sizing the workgroup and a workgroup array',
    code: `override WG: u32 = 16u;
var<workgroup> sh: array<u32, WG>;
${OUT}
@compute @workgroup_size(WG) fn main(@builtin(local_invocation_index) i: u32) { sh[i] = i * 3u; workgroupBarrier(); out[i] = sh[WG - 1u - i]; }`,
    overrides: { WG: 8 },
    threads: 8,
    expect: [21, 18, 15, 12, 9, 6, 3, 0],
  },
  {
    name: '§17.8.8 atomicCompareExchangeWeak returns a struct (old_value, exchanged)',
    code: `@group(0) @binding(0) var<storage, read_write> out: array<atomic<u32>>;
@compute @workgroup_size(1) fn main() {
  let a = atomicCompareExchangeWeak(&out[0], 0u, 5u);
  let b = atomicCompareExchangeWeak(&out[0], 0u, 9u);
  atomicStore(&out[1], a.old_value + 10u * u32(a.exchanged));
  atomicStore(&out[2], b.old_value + 10u * u32(b.exchanged));
}`,
    // A weak exchange may fail spuriously on a GPU; with one invocation and no contention neither side does.
    expect: [5, 10, 5],
  },
  {
    name: '§17.12 workgroupUniformLoad broadcasts a workgroup value',
    code: `var<workgroup> w: u32;
${OUT}
@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 3u) { w = 40u + i; }
  let v = workgroupUniformLoad(&w);
  if (v > 40u) { out[i] = v; }
}`,
    threads: 8,
    expect: [43, 43, 43, 43, 43, 43, 43, 43],
  },
  {
    name: '§17.7.1 arrayLength of a runtime-sized struct member',
    code: `struct S { n: u32, pad: u32, data: array<u32> }
@group(0) @binding(0) var<storage, read_write> out: S;
@compute @workgroup_size(1) fn main() { out.n = arrayLength(&out.data); out.data[arrayLength(&out.data) - 1u] = 7u; }`,
    expect: [62, 0],
  },
  {
    name: '§14.4 nested arrays and vectors inside structs in storage (layout)',
    code: `struct Inner { a: array<u32, 3>, b: vec2<f32> }
struct S { items: array<Inner, 2>, c: u32 }
@group(0) @binding(0) var<storage, read_write> out: S;
@compute @workgroup_size(1) fn main() { out.items[1].a[2] = 5u; out.items[0].b = vec2f(1.0, 2.0); out.c = out.items[1].a[2] + 1u; }`,
    // Inner: a at 0 (12 bytes), b at 16 (align 8), size 24; items[1] at 24; c at 48.
    expect: [0, 0, 0, 0, fw(1), fw(2), 0, 0, 5, 0, 0, 0, 6],
  },
  {
    name: '§17.2 bitcast between scalars and vectors',
    code: `${OUT}
@compute @workgroup_size(1) fn main() { let v = bitcast<vec2u>(vec2f(1.0, -2.5)); out[0] = v.x; out[1] = v.y; out[2] = bitcast<u32>(-2i); out[3] = bitcast<u32>(bitcast<f32>(0x7f7fffffu)); }`,
    // (-0.0 is left out: WGSL lets an implementation ignore the sign of a zero, and Tint's folding does.)
    expect: [0x3f800000, 0xc0200000, 0xfffffffe, 0x7f7fffff],
  },
  {
    name: '§17.9 pack/unpack: 4x8snorm, 4x8unorm, 4xU8, 4xI8Clamp, 2x16float, 2x16snorm',
    code: `${OUT}
@compute @workgroup_size(1) fn main() {
  out[0] = pack4x8snorm(vec4f(1.0, -1.0, 0.5, 0.0));
  out[1] = u32(unpack4x8unorm(0xff00ff00u).y);
  out[2] = pack4xU8(vec4u(1u, 2u, 3u, 4u));
  out[3] = pack4xI8Clamp(vec4i(-200, 200, 0, 1));
  out[4] = pack2x16float(vec2f(1.0, 2.0));
  out[5] = pack2x16snorm(vec2f(-1.0, 1.0));
  out[6] = bitcast<u32>(unpack4xI8(0x80ff7f01u).y);
}`,
    expect: [0x0040817f, 1, 0x04030201, 0x01007f80, 0x40003c00, 0x7fff8001, 127],
  },
  {
    name: '§17.3 dot4U8Packed and dot4I8Packed',
    code: `${OUT}
@compute @workgroup_size(1) fn main() { out[0] = dot4U8Packed(0x01020304u, 0x01010101u); out[1] = bitcast<u32>(dot4I8Packed(0xffffffffu, 0x01010101u)); out[2] = dot4U8Packed(0xffffffffu, 0xffffffffu); }`,
    expect: [10, 0xfffffffc, 4 * 255 * 255],
  },
  {
    name: '§17.5 countLeadingZeros, extractBits (signed), insertBits, on vectors too',
    code: `${OUT}
@compute @workgroup_size(1) fn main() {
  out[0] = countLeadingZeros(1u); out[1] = extractBits(0xf0u, 4u, 4u); out[2] = insertBits(0u, 3u, 4u, 2u);
  out[3] = bitcast<u32>(extractBits(-16, 4u, 4u)); let v = countTrailingZeros(vec2u(8u, 0u)); out[4] = v.x + v.y;
  out[5] = bitcast<u32>(insertBits(vec2i(1), vec2i(3), 2u, 2u).x); out[6] = countLeadingZeros(0u);
  out[7] = extractBits(0xffffffffu, 0u, 32u); out[8] = extractBits(0x12345678u, 8u, 0u);
}`,
    expect: [31, 15, 48, 0xffffffff, 35, 13, 32, 0xffffffff, 0],
  },
  {
    name: '§17.3 select with a vector condition and with a scalar condition over vectors',
    code: `${OUT}
@compute @workgroup_size(1) fn main() { let v = select(vec3u(1u, 2u, 3u), vec3u(4u, 5u, 6u), vec3<bool>(true, false, true)); out[0] = v.x; out[1] = v.y; out[2] = v.z; let w = select(vec2u(1u), vec2u(2u), true); out[3] = w.x; }`,
    expect: [4, 2, 6, 2],
  },
  {
    name: '§8.7 matrices: constructors, transpose, products, determinant, column access',
    code: `${OUT}
@compute @workgroup_size(1) fn main() {
  let m = mat2x2f(1.0, 2.0, 3.0, 4.0); let n = transpose(m) * m; let v = n * vec2f(1.0, 1.0);
  out[0] = bitcast<u32>(v.x); out[1] = bitcast<u32>(determinant(m)); out[2] = bitcast<u32>((m * 2.0)[1][0]);
  var mm: mat3x3<f32>; mm[1] = vec3f(1.0); out[3] = bitcast<u32>(mm[1].y);
  let r = vec2f(1.0, 0.0) * m; out[4] = bitcast<u32>(r.y);
  let p = mat2x3f(1.0, 0.0, 0.0, 0.0, 1.0, 0.0) * mat2x2f(1.0, 2.0, 3.0, 4.0); out[5] = bitcast<u32>(p[1][1]);
}`,
    expect: [fw(16), fw(-2), fw(6), fw(1), fw(3), fw(4)],
  },
  {
    name: '§17.3 modf and frexp return structs (fract, whole / fract, exp)',
    code: `${OUT}
@compute @workgroup_size(1) fn main() {
  let r = modf(2.5); out[0] = bitcast<u32>(r.fract); out[1] = bitcast<u32>(r.whole);
  let f = frexp(8.0); out[2] = bitcast<u32>(f.fract); out[3] = bitcast<u32>(f.exp);
  let v = modf(vec2f(1.5, -2.25)); out[4] = bitcast<u32>(v.fract.y);
  let x = 12.0 + f32(out[9]); let g = frexp(x); out[5] = bitcast<u32>(g.fract); out[6] = bitcast<u32>(g.exp);
}`,
    expect: [fw(0.5), fw(2), fw(0.5), 4, fw(-0.25), fw(0.75), 4],
  },
  {
    name: '§11 pointer parameters in function, private, workgroup and storage space',
    code: `fn inc(p: ptr<function, u32>) { *p = *p + 1u; }
fn incw(p: ptr<workgroup, array<u32, 4>>, i: u32) { (*p)[i] += 1u; }
fn sto(p: ptr<storage, array<u32>, read_write>) { p[1] = 9u; }
fn tri(p: ptr<private, u32>) -> u32 { *p *= 3u; return *p; }
var<workgroup> w: array<u32, 4>;
var<private> pv: u32 = 2u;
${OUT}
@compute @workgroup_size(1) fn main() { var x = 1u; inc(&x); incw(&w, 2u); out[0] = x; out[2] = w[2]; sto(&out); let q = &x; *q = 10u; out[3] = x; out[4] = tri(&pv); }`,
    expect: [2, 9, 1, 10, 6],
  },
  {
    name: '§10 const_assert at module and function scope; §9.3 diagnostic directive; §7.1 alias',
    code: `diagnostic(off, derivative_uniformity);
alias Arr = array<u32, 4>; alias F = f32;
const N = 4; const_assert N > 2;
@group(0) @binding(0) var<storage, read_write> out: Arr;
@compute @workgroup_size(1) fn main() { const_assert N < 5; let x: F = 2.0; out[0] = u32(x) + u32(N); }`,
    expect: [6],
  },
  {
    name: '§5.1 shadowing: a parameter, a nested let and a local named like a type shadow outer names',
    code: `const x = 1u;
${OUT}
fn f(x: u32) -> u32 { let y = x; { let x = y + 10u; return x; } }
@compute @workgroup_size(1) fn main() { let u32v = x; out[0] = f(u32v); var f32 = 5u; out[1] = f32; let vec2 = 3u; out[2] = vec2 + x; }`,
    expect: [11, 5, 4],
  },
  {
    name: '§13.3.1 builtins in an entry-point struct beside a plain builtin parameter',
    code: `struct In { @builtin(local_invocation_id) lid: vec3u, @builtin(workgroup_id) wid: vec3u }
${OUT}
@compute @workgroup_size(2) fn main(i: In, @builtin(num_workgroups) n: vec3u) { out[i.lid.x] = n.x + 10u * i.wid.x; }`,
    threads: 2,
    expect: [1, 1],
  },
  {
    name: '§9.4 loops: for with continue, loop with continuing and break if, while, switch with case lists',
    code: `${OUT}
@compute @workgroup_size(1) fn main() { var s = 0u; for (var i = 0u; i < 4u; i++) { if (i == 2u) { continue; } s += i; }
  var j = 0u; loop { j++; if j > 3u { break; } continuing { s += 100u; break if j >= 3u; } }
  while (s > 1000u) { s -= 1u; } switch s { case 1u, 2u: { s = 0u; } case default, 7u { s += 1u; } } out[0] = s; }`,
    expect: [305],
  },
  {
    name: '§6.2 arrays as values: const arrays, inferred array(), dynamic indexing, arrays of vectors',
    code: `${OUT}
const T = array<u32, 4>(1u, 2u, 3u, 4u);
@compute @workgroup_size(1) fn main(@builtin(local_invocation_index) i: u32) { var a = array(5u, 6u, 7u); let b = T; out[0] = a[i + 1u] + b[i + 2u]; var s: array<vec2f, 2>; s[1].y = 3.0; out[1] = u32(s[1].y); let c = T[i + 3u]; out[2] = c; }`,
    expect: [9, 3, 4],
  },
  {
    name: '§8.5 swizzles: read, assign through a component, rebuild from swizzles; dynamic vector index',
    code: `${OUT}
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  let a = vec4u(1u, 2u, 3u, 4u); let b = a.wzyx; var c = a; c.x = 7u; c = vec4u(c.xy, b.xy);
  var v = vec4u(10u, 20u, 30u, 40u); v[i] = 1u;
  out[i] = c.w + c.x + 100u * v[(i + 1u) % 4u] + 10000u * u32(all(a > vec4u(0u))) + 20000u * u32(any(a == vec4u(2u)));
}`,
    threads: 4,
    expect: [32010, 33010, 34010, 31010],
  },
  {
    name: '§6.4 var<private> with initialisers, modified by a helper function',
    code: `var<private> counter: u32 = 5u; var<private> tbl: array<u32, 3> = array(1u, 2u, 3u);
${OUT}
fn bump() { counter += 1u; tbl[1] = counter; }
@compute @workgroup_size(1) fn main() { bump(); out[0] = counter + tbl[2] + tbl[1]; }`,
    expect: [15],
  },
  {
    name: '§6.2.8 atomics inside a struct with a runtime-sized atomic array',
    code: `struct C { count: atomic<u32>, pad: u32, vals: array<atomic<i32>> }
@group(0) @binding(0) var<storage, read_write> out: C;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { atomicAdd(&out.count, 1u); atomicSub(&out.vals[i], 2); atomicMax(&out.vals[i], -1); }`,
    threads: 4,
    expect: [4, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff],
  },
  {
    name: '§14.4 vec3 in arrays and structs take 16 bytes; storing a whole struct copies it',
    code: `struct V { p: vec3f, w: f32 }
@group(0) @binding(0) var<storage, read_write> out: array<V>;
@compute @workgroup_size(1) fn main() { out[0].p = vec3f(1.0, 2.0, 3.0); out[0].w = 4.0; out[1] = out[0]; out[1].p.y = 9.0; }`,
    expect: [fw(1), fw(2), fw(3), fw(4), fw(1), fw(9), fw(3), fw(4)],
  },
  {
    name: '§8.6 compound assignment and increment operators',
    code: `${OUT}
@compute @workgroup_size(1) fn main() { var x = 1u; x++; x--; x <<= 2u; x >>= 1u; x |= 8u; x &= 0xfu; x ^= 1u; x *= 3u; x /= 2u; x %= 7u; out[0] = x;
  var a = array<i32, 2>(3, 4); a[1] -= 10; out[1] = bitcast<u32>(a[1]); }`,
    expect: [2, 0xfffffffa],
  },
  {
    name: '§6.8 abstract numerics: 64-bit const math, vector consts, float consts converted to u32',
    code: `const a = 1 << 40; const b = a >> 38; const c = vec3(1, 2, 3) * 2; const d = 0x7fffffffffff / 0x7fffffff;
${OUT}
@compute @workgroup_size(1) fn main() { out[0] = u32(b) + u32(c.z); out[1] = u32(0.5 * 4); out[2] = u32(d); out[3] = u32(1e3); }`,
    expect: [10, 2, 65536, 1000],
  },
  {
    name: '§11.2 a let pointer to a storage element, to a local array, pointer indexing sugar',
    code: `${OUT}
@compute @workgroup_size(1) fn main() { let p = &out[2]; *p = 3u; var arr: array<u32, 4>; let q = &arr; (*q)[1] = 5u; q[2] = 6u; out[0] = arr[1] + arr[2]; }`,
    expect: [11, 0, 3],
  },
  {
    name: '§8.7 struct values from functions, copied into a var and modified',
    code: `struct R { a: u32, b: vec2f }
fn mk(x: u32) -> R { return R(x, vec2f(f32(x))); }
${OUT}
@compute @workgroup_size(1) fn main() { let r = mk(3u); var s = r; s.a += 1u; out[0] = s.a + u32(r.b.y); let z = R(); out[1] = z.a; }`,
    expect: [7, 0],
  },
  {
    name: '§12.3 uniform buffer struct with a vec3 and an array of vec4 (16-byte stride)',
    code: `struct P { n: u32, scale: f32, v: vec3f, arr: array<vec4u, 2> }
@group(0) @binding(1) var<uniform> p: P;
${OUT}
@compute @workgroup_size(1) fn main() { out[0] = p.n; out[1] = bitcast<u32>(p.scale * 2.0); out[2] = bitcast<u32>(p.v.z); out[3] = p.arr[1].w; }`,
    input: Uint32Array.of(7, fw(1.5), 0, 0, fw(1), fw(2), fw(3), 0, 1, 2, 3, 4, 5, 6, 7, 8),
    expect: [7, fw(3), fw(3), 8],
  },
  {
    name: '§17 numeric builtins on f32 (exact cases)',
    code: `${OUT}
@compute @workgroup_size(1) fn main() { out[0] = bitcast<u32>(clamp(5.0, 0.0, 1.0) + saturate(2.0) + smoothstep(0.0, 1.0, 0.5) + step(0.5, 1.0) + mix(0.0, 10.0, 0.5) + sign(-2.0) + fract(1.25) + trunc(-1.5) + round(2.5) + inverseSqrt(4.0) + ldexp(1.0, 3) + length(vec2f(3.0, 4.0)) + dot(vec2f(1.0), vec2f(2.0)) + exp2(1.0) + pow(2.0, 3.0) + quantizeToF16(1.0) + max(1.0, 2.0) + min(vec2f(1.0), vec2f(0.0)).x); }`,
    expect: [fw(39.25)],
  },
  {
    name: '§14.3 two-dimensional workgroup and a 2-D workgroup array transposed through a barrier',
    code: `var<workgroup> tile: array<array<f32, 4>, 4>;
${OUT}
@compute @workgroup_size(4, 4) fn main(@builtin(local_invocation_id) l: vec3u) { tile[l.y][l.x] = f32(l.x + l.y * 4u); workgroupBarrier(); out[l.x + l.y * 4u] = u32(tile[l.x][l.y]); }`,
    threads: 16,
    expect: [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15],
  },
  {
    name: '§8.13 short-circuit && and || guard an out-of-range index',
    code: `${OUT}
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) { var a = array<u32, 4>(9u, 8u, 7u, 6u); let ok = i > 0u && a[i - 1u] > 7u; let no = i == 0u || a[i - 1u] < 7u; out[i] = u32(ok) + 2u * u32(no); }`,
    threads: 4,
    expect: [2, 1, 1, 0],
  },
];

function runOf(f: Feature): KernelRun {
  const input = f.input ?? new Uint32Array(16);
  return {
    code: f.code,
    entryPoint: 'main',
    workgroups: [1],
    bindings: { 0: { 0: new Uint32Array(64), ...(f.code.includes('@binding(1)') ? { 1: input } : {}) } },
    ...(f.overrides ? { overrides: f.overrides } : {}),
  };
}

describe('language features: simulator vs spec vs Dawn', () => {
  it.each(FEATURES.map((f) => [f.name, f] as const))('%s', async (_n, f) => {
    const run = runOf(f);
    const sim = simulate(run, { trace: 'summary' });
    expect(sim.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([]);
    const words = Array.from(sim.buffers[0]![0]!);
    if (f.expect) expect(words.slice(0, f.expect.length)).toEqual(Array.from(f.expect, (x) => x >>> 0));
    const gpu = await (await nodeGpu()).run(run);
    expect(words).toEqual(Array.from(gpu[0]![0]! as Uint32Array));
  });
});

describe('what the simulator does not run is refused with its line, column and a way out', () => {
  const cases: [string, string, number, number][] = [
    ['texture_2d', `@group(0) @binding(1) var t: texture_2d<f32>;\n${OUT}\n@compute @workgroup_size(1) fn main() { out[0] = u32(textureLoad(t, vec2i(0, 0), 0).x); }`, 1, 30],
    ['sampler', `${OUT}\n@group(0) @binding(1) var s: sampler;\n@compute @workgroup_size(1) fn main() { out[0] = 1u; }`, 2, 30],
    ['texture_storage_2d', `${OUT}\n@group(0) @binding(1) var t: texture_storage_2d<rgba8unorm, write>;\n@compute @workgroup_size(1) fn main() { textureStore(t, vec2i(0), vec4f(1.0)); }`, 2, 30],
  ];
  it.each(cases)('%s', (name, code, line, column) => {
    const sim = simulate({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(4) } } });
    expect(sim.diagnostics).toHaveLength(1);
    const d = sim.diagnostics[0]!;
    expect([d.kind, d.line, d.column]).toEqual(['unsupported', line, column]);
    expect(d.message).toContain(`'${name}'`);
    expect(d.message).toMatch(/textures and samplers are not simulated.*var<storage>/);
  });
});

describe('f16 (WGSL §6.2.4, needs `enable f16;`): refused by the simulator with what to do', () => {
  const F16 = (body: string) => `enable f16;\n${OUT}\n@compute @workgroup_size(1) fn main() {\n${body}\n}`;
  const cases: [string, string, number, number, string][] = [
    ['f16 scalar type', F16(`let a: f16 = f16(out[1]);\nout[0] = u32(a);`), 4, 8, `'f16'`],
    ['vec2h alias', F16(`var v: vec2h;\nout[0] = u32(v.x);`), 4, 8, `'vec2h'`],
    ['h literal', F16(`out[0] = u32(1.5h);`), 4, 14, `'1.5h'`],
    ['mat2x2h', F16(`var m: mat2x2h;\nout[0] = u32(m[0].x);`), 4, 8, `'mat2x2h'`],
  ];
  it.each(cases)('%s', (_n, code, line, column, what) => {
    const sim = simulate({ code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(4) } } });
    expect(sim.diagnostics.length).toBeGreaterThan(0);
    const d = sim.diagnostics[0]!;
    expect([d.kind, d.line, d.column]).toEqual(['unsupported', line, column]);
    expect(d.message).toContain(what);
    expect(d.message).toMatch(/does not run half precision.*shader-f16.*quantizeToF16/);
  });

  it('without `enable f16;` the front end rejects f16 as Tint does', () => {
    const sim = simulate({ code: `${OUT}\n@compute @workgroup_size(1) fn main() { let a: f16 = 1.0h; out[0] = u32(a); }`, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(4) } } });
    expect(sim.diagnostics[0]!.message).toMatch(/f16.*extension/);
    expect([sim.diagnostics[0]!.line, sim.diagnostics[0]!.column]).toEqual([2, 48]);
  });
});
