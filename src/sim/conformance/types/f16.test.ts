/**
 * f16 (WGSL §6.2.4 and §14.6.1 "Floating point conversion", §13.4 memory layout), on an adapter
 * profile with `shader-f16`. Expected bits come from this file's own binary16 table (every finite
 * half decoded from its bits, nearest chosen by distance, ties to the even significand), not from
 * the simulator's rounding.
 *
 * Dawn in Node (the `webgpu` package on SwiftShader) does not offer `shader-f16`, so these cases
 * are checked against the spec only; the GPU comparison needs an adapter with the feature.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../simulate.ts';
import { bitsToF16, f16Round, f16ToBits } from '../../../wgsl/scalar.ts';

// ───────────────────────────── an independent binary16 oracle ─────────────────────────────

/** Every non-negative finite half, ascending, with its bits. */
const HALVES: { v: number; bits: number }[] = [];
for (let b = 0; b < 0x7c00; b++) {
  const e = b >> 10;
  const m = b & 0x3ff;
  HALVES.push({ v: e === 0 ? m / 16777216 : ((1024 + m) / 1024) * Math.pow(2, e - 15), bits: b });
}
const MAX = HALVES[HALVES.length - 1]!; // 65504

/** Binary16 bits nearest to `x`, ties to even; beyond 65504 by half a step or more: infinity. */
function halfBits(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= MAX.v + 16) return sign | 0x7c00;
  if (a >= MAX.v) return sign | MAX.bits;
  let lo = 0;
  let hi = HALVES.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (HALVES[mid]!.v <= a) lo = mid;
    else hi = mid;
  }
  const below = HALVES[lo]!;
  const above = HALVES[hi]!;
  const dl = a - below.v;
  const du = above.v - a;
  const pick = dl < du ? below : du < dl ? above : (below.bits & 1) === 0 ? below : above;
  return sign | pick.bits;
}

/** Two halves in one 32-bit word, low first (WGSL's little-endian layout). */
const word = (lo: number, hi: number) => ((hi << 16) | lo) >>> 0;
const f32 = (x: number) => Math.fround(x);

const F16_HW = { shaderF16: true } as const;

function run(code: string, words: number, input: Uint32Array | Float32Array = new Uint32Array(1)) {
  const sim = simulate(
    { code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(words), 1: input } } },
    F16_HW,
  );
  expect(sim.diagnostics).toEqual([]);
  return sim.buffers[0]![0] as Uint32Array;
}

describe('the simulator\'s binary16 rounding agrees with the table everywhere a tie can hide', () => {
  it('every half round-trips through bits and value', () => {
    for (let b = 0; b < 0x10000; b++) {
      if ((b & 0x7c00) === 0x7c00 && b & 0x3ff) continue; // NaN
      expect(f16ToBits(bitsToF16(b))).toBe(b);
      expect(Object.is(f16Round(bitsToF16(b)), bitsToF16(b))).toBe(true);
    }
  });

  it('every midpoint between neighbouring halves, and a hair either side of it, rounds as the table says', () => {
    const bad: string[] = [];
    for (let k = 0; k + 1 < HALVES.length; k++) {
      const mid = (HALVES[k]!.v + HALVES[k + 1]!.v) / 2;
      const eps = mid * 2 ** -30;
      for (const x of [mid, mid - eps, mid + eps, -mid, -(mid + eps)]) {
        if (f16ToBits(f16Round(x)) !== halfBits(x)) bad.push(`${x}`);
      }
    }
    // Above the largest half: 65504 + 8 (down), 65520 (the tie: infinity), and beyond.
    for (const x of [65511.99, 65512, 65519.999, 65520, 65536, 1e300]) if (f16ToBits(f16Round(x)) !== halfBits(x)) bad.push(`${x}`);
    expect(bad).toEqual([]);
  });
});

describe('f32 → f16 conversion: round to nearest even, subnormals, overflow, NaN', () => {
  const inputs = [
    0, -0, 1, -1, 0.1, 1 / 3,
    1 + 2 ** -11, // halfway between 1 and 1 + 2^-10: ties to 1 (even)
    1 + 3 * 2 ** -11, // halfway, rounds up to the even 1 + 2^-9
    1 + 2 ** -11 + 2 ** -20, // just above halfway: up
    2048 + 1, // halfway between 2048 and 2050: 2048
    65504, 65519, f32(65519.99), 65520, 65536, 1e9, -65520, -70000,
    2 ** -24, // the smallest subnormal
    2 ** -25, // halfway to 0: ties to 0
    f32(2 ** -25 + 2 ** -40), // just above: the smallest subnormal
    1.5 * 2 ** -24, // halfway between 1 and 2 steps: 2 (even)
    2.5 * 2 ** -24, // halfway between 2 and 3 steps: 2
    2 ** -14, 2 ** -14 - 2 ** -24, f32(2 ** -14 - 2 ** -26),
    Infinity, -Infinity, NaN, 3.4e38, 1e-40,
  ];
  const code = `enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@group(0) @binding(1) var<storage, read> inp: array<f32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  if (i < arrayLength(&inp)) { out[i] = f16(inp[i]); }
}`;
  const got = run(code, Math.ceil(inputs.length / 2), Float32Array.from(inputs));
  it.each(inputs.map((x, i) => [String(Object.is(x, -0) ? '-0' : x), i] as const))('f16(%s)', (_name, i) => {
    const w = got[i >> 1]!;
    const bits = i & 1 ? w >>> 16 : w & 0xffff;
    const want = halfBits(f32(inputs[i]!));
    if ((want & 0x7c00) === 0x7c00 && want & 0x3ff) {
      // NaN: any quiet or signalling NaN pattern (exponent all ones, significand not zero).
      expect(bits & 0x7c00).toBe(0x7c00);
      expect(bits & 0x3ff).not.toBe(0);
    } else expect(bits.toString(16)).toBe(want.toString(16));
  });
});

describe('f16 arithmetic rounds to binary16 after every operation', () => {
  // [a, b]: both exact halves; the exact result of each operator is rounded by the oracle.
  const pairs: [number, number][] = [
    [1, 2 ** -11], // tie: 1
    [1 + 2 ** -10, 2 ** -11], // tie: up to the even 1 + 2^-9
    [65504, 16], // 65520: overflows to infinity
    [65504, 8], // 65512: back to 65504
    [2 ** -14, -(2 ** -24)], // into the subnormals
    [2 ** -24, 0.5], // below the smallest subnormal, halfway: 0
    [3, 7], [1000, 0.1 - 0.1 + 0.0999755859375], [-2.5, 1024], [60000, 2],
  ];
  const ops = ['+', '-', '*', '/'] as const;
  const exact = (a: number, b: number, op: (typeof ops)[number]) => (op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : a / b);
  const code = `enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@group(0) @binding(1) var<storage, read> inp: array<vec2<f16>>;
@compute @workgroup_size(${pairs.length}) fn main(@builtin(local_invocation_index) i: u32) {
  let v = inp[i];
  out[i * 4u] = v.x + v.y;
  out[i * 4u + 1u] = v.x - v.y;
  out[i * 4u + 2u] = v.x * v.y;
  out[i * 4u + 3u] = v.x / v.y;
}`;
  const input = Uint32Array.from(pairs, ([a, b]) => word(halfBits(a), halfBits(b)));
  const got = run(code, pairs.length * 2, input);
  const cases = pairs.flatMap(([a, b], p) => ops.map((op, k) => [`${a} ${op} ${b}`, p * 4 + k, exact(a, b, op)] as const));
  it.each(cases)('%s', (_name, i, x) => {
    const w = got[i >> 1]!;
    expect((i & 1 ? w >>> 16 : w & 0xffff).toString(16)).toBe(halfBits(x).toString(16));
  });
});

describe('conversions from f16 (§14.6.1): to f32 exactly, to i32/u32 truncated and saturated', () => {
  const halves = [0x3c00, 0xbe00, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x0001, 0x3555, 0x57d0];
  const code = `enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<vec3u>;
@group(0) @binding(1) var<storage, read> inp: array<u32>;
@compute @workgroup_size(${halves.length}) fn main(@builtin(local_invocation_index) i: u32) {
  let h = bitcast<vec2<f16>>(inp[i]).x;
  out[i] = vec3u(bitcast<u32>(f32(h)), bitcast<u32>(i32(h)), u32(h));
}`;
  const got = run(code, halves.length * 4, Uint32Array.from(halves));
  const value = (b: number) => {
    const e = (b >> 10) & 0x1f;
    const m = b & 0x3ff;
    const s = b & 0x8000 ? -1 : 1;
    return e === 31 ? s * Infinity : s * (e === 0 ? m / 16777216 : ((1024 + m) / 1024) * 2 ** (e - 15));
  };
  it.each(halves.map((b, i) => [b.toString(16), b, i] as const))('0x%s', (_n, b, i) => {
    const x = value(b);
    const f = new Float32Array([x]);
    expect(got[i * 4]).toBe(new Uint32Array(f.buffer)[0]);
    // Saturation at the largest value representable in both (65504 for ±infinity).
    const sat = Math.max(-65504, Math.min(65504, Math.trunc(x)));
    expect(got[i * 4 + 1]! | 0).toBe(sat);
    expect(got[i * 4 + 2]).toBe(Math.max(0, sat));
  });
});

describe('f16 literals and constants', () => {
  it('h literals round to the nearest half; constant expressions fold in f16', () => {
    const got = run(`enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
  out[0] = bitcast<u32>(vec2<f16>(0.1h, 65504.0h));
  out[1] = bitcast<u32>(vec2h(1.0h + 0.00048828125h, -0.0h));
  out[2] = bitcast<u32>(vec2h(f16(1e-8), 5.9604645e-8h));
}`, 3);
    expect(got[0]!.toString(16)).toBe(word(halfBits(0.1), 0x7bff).toString(16));
    expect(got[1]!.toString(16)).toBe(word(0x3c00, 0x8000).toString(16));
    expect(got[2]!.toString(16)).toBe(word(0, 1).toString(16));
  });

  it.each([
    ['an h literal beyond 65504', 'let a = 65536.0h;', 3, 9],
    ['an abstract float converted to f16', 'let a: f16 = 1e10;', 3, 14],
    ['a constant sum that overflows f16', 'const a = 65504.0h + 65504.0h;', 3, 11],
  ])('%s is a shader-creation error, with its line and column', (_n, stmt, line, col) => {
    const sim = simulate(
      { code: `enable f16;\n@compute @workgroup_size(1) fn main() {\n${stmt}\n}`, entryPoint: 'main', workgroups: [1], bindings: {} },
      F16_HW,
    );
    expect(sim.diagnostics.length).toBeGreaterThan(0);
    const d = sim.diagnostics[0]!;
    expect([d.kind, d.line, d.column]).toEqual(['unsupported', line, col]);
    expect(d.message).toMatch(/cannot be represented as 'f16'/);
  });
});

describe('f16 memory layout (§13.4): 2-byte f16, vec2 4 bytes, vec3/vec4 8, struct offsets', () => {
  it('struct members land at WGSL offsets, @size/@align included', () => {
    // S: a@0 (2 bytes), b: vec3<f16> @8 (6 bytes, align 8), c@14, d: u32 @16, e: f16 @align(8) @24, size 32.
    const got = run(`enable f16;
struct S { a: f16, b: vec3<f16>, c: f16, d: u32, @align(8) e: f16, @size(4) f: f16 }
@group(0) @binding(0) var<storage, read_write> out: array<S>;
@compute @workgroup_size(2) fn main(@builtin(local_invocation_index) i: u32) {
  let k = f16(i * 8u);
  out[i] = S(1.0h + k, vec3h(2.0h, 3.0h, 4.0h) + k, 5.0h + k, 0xdeadbeefu, 6.0h + k, 7.0h + k);
}`, 16);
    const h = (x: number) => halfBits(x);
    for (const i of [0, 1]) {
      const k = i * 8;
      const b = i * 8; // 32-byte stride = 8 words
      expect([...got.slice(b, b + 8)].map((x) => x.toString(16))).toEqual(
        [word(h(1 + k), 0), 0, word(h(2 + k), h(3 + k)), word(h(4 + k), h(5 + k)), 0xdeadbeef, 0, word(h(6 + k), h(7 + k)), 0].map((x) => x.toString(16)),
      );
    }
  });

  it('array<f16> has stride 2, array<vec3<f16>> stride 8; runtime lengths count halves', () => {
    const got = run(`enable f16;
struct B { n: u32, h: array<f16> }
@group(0) @binding(0) var<storage, read_write> out: B;
@group(0) @binding(1) var<storage, read_write> v3: array<vec3<f16>>;
@compute @workgroup_size(5) fn main(@builtin(local_invocation_index) i: u32) {
  out.h[i] = f16(i) + 0.5h;
  if (i < 2u) { v3[i] = vec3h(f16(i), 2.0h, 3.0h); v3[i][2] = 9.0h; }
  if (i == 0u) { out.n = arrayLength(&out.h); }
}`, 4, new Uint32Array(4));
    const h = halfBits;
    expect([...got].map((x) => x.toString(16))).toEqual([6, word(h(0.5), h(1.5)), word(h(2.5), h(3.5)), word(h(4.5), 0)].map((x) => x.toString(16)));
  });

  it('a struct of two f16 at a 2-byte offset straddles a word: both halves move, a full store stays in bounds', () => {
    // Q: x@0, p: P@2 (P = {a, b}: align 2, size 4), size 6: array<Q> has a 6-byte stride, so q[1].p is at bytes 8…11.
    const sim = simulate(
      {
        code: `enable f16;
struct P { a: f16, b: f16 }
struct Q { x: f16, p: P }
@group(0) @binding(0) var<storage, read_write> q: array<Q, 2>;
@compute @workgroup_size(2) fn main(@builtin(local_invocation_index) i: u32) {
  let p = q[i].p;
  q[i].p = P(p.b, p.a + 1.0h);
}`,
        entryPoint: 'main',
        workgroups: [1],
        bindings: { 0: { 0: Uint32Array.of(word(0x1111, halfBits(1)), word(halfBits(2), 0x2222), word(halfBits(3), halfBits(4))) } },
      },
      F16_HW,
    );
    expect(sim.diagnostics).toEqual([]);
    const h = halfBits;
    expect([...(sim.buffers[0]![0] as Uint32Array)].map((x) => x.toString(16))).toEqual(
      [word(0x1111, h(2)), word(h(2), 0x2222), word(h(4), h(4))].map((x) => x.toString(16)),
    );
    // Lane 0 touches words 0 and 1, lane 1 word 2: one 32-byte sector for the load, one for the store.
    expect(sim.metrics.globalTransactions).toBe(2);
  });

  it('an @align(2) below a u32 member\'s own alignment never puts it mid-word (workgroup memory)', () => {
    const got = run(`enable f16;
struct S { a: f16, @align(2) b: u32 }
var<workgroup> w: S;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
  w.a = 2.0h;
  w.b = 1u;
  out[0] = w.b;
  out[1] = bitcast<u32>(vec2h(w.a, 0.0h));
}`, 2);
    expect([...got]).toEqual([1, halfBits(2)]);
  });

  it('an out-of-range f16 index clamps and is reported, with the word the simulator touched', () => {
    const sim = simulate(
      {
        code: `enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@compute @workgroup_size(1) fn main() { out[7] = 1.0h; }`,
        entryPoint: 'main',
        workgroups: [1],
        bindings: { 0: { 0: new Uint32Array(2) } },
      },
      F16_HW,
    );
    expect(sim.diagnostics.map((d) => [d.kind, d.line])).toEqual([['out-of-bounds', 3]]);
    expect((sim.buffers[0]![0] as Uint32Array)[1]! >>> 16).toBe(0x3c00);
  });
});

describe('f16 in workgroup memory: banks, races and provenance per half', () => {
  const code = (body: string) => `enable f16;
var<workgroup> s: array<f16, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
${body}
}`;
  const sim = (body: string) =>
    simulate({ code: code(body), entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: new Uint32Array(32) } } }, F16_HW);

  it('32 lanes writing consecutive halves touch 16 words: no bank conflict, no race', () => {
    const r = sim(`s[i] = f16(i);\nworkgroupBarrier();\nout[i] = s[i ^ 1u];`);
    expect(r.diagnostics).toEqual([]);
    expect(r.metrics.sharedBankConflicts).toBe(0);
    const out = r.buffers[0]![0] as Uint32Array;
    expect(out[0]!.toString(16)).toBe(word(halfBits(1), halfBits(0)).toString(16));
  });

  it('a stride of 64 halves puts every lane in bank 0 … of one word per two lanes: 16-way', () => {
    const r = simulate(
      {
        code: `enable f16;
var<workgroup> s: array<f16, 1024>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) { s[(i >> 1u) * 64u + (i & 1u)] = 1.0h; }`,
        entryPoint: 'main',
        workgroups: [1],
        bindings: {},
      },
      F16_HW,
    );
    // Lanes 2k and 2k+1 share word 32k (bank 0): 16 distinct words in one bank.
    expect(r.metrics.sharedBankConflicts).toBe(15);
  });

  it('two invocations writing one half without a barrier race (neighbouring halves alone do not: above)', () => {
    expect(sim(`s[i >> 1u] = 1.0h;`).diagnostics.map((d) => d.kind)).toContain('race');
    expect(sim(`s[i] = 1.0h; s[i ^ 1u] = 2.0h;`).diagnostics.map((d) => d.kind)).toContain('race');
  });

  it('a whole-word member beside f16 halves races as its word, and the message names the word', () => {
    const r = simulate(
      {
        code: `enable f16;
struct P { a: f16, b: f16, c: u32 }
var<workgroup> p: P;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { p.a = 1.0h; }
  if (i == 1u) { p.b = 2.0h; }
  if (i < 2u) { p.c = i; }
}`,
        entryPoint: 'main',
        workgroups: [1],
        bindings: {},
      },
      F16_HW,
    );
    const races = r.diagnostics.filter((d) => d.kind === 'race');
    expect(races).toHaveLength(1);
    expect(races[0]!.message).toContain(`'p' word 1 `);
  });

  it('the trace records the word of each half and follows provenance through f16 values', () => {
    const r = simulate(
      {
        code: code(`s[i] = f16(i);\nworkgroupBarrier();\nif (i < 16u) { s[i] = s[i] + s[i + 16u]; }`),
        entryPoint: 'main',
        workgroups: [1],
        bindings: { 0: { 0: new Uint32Array(32) } },
      },
      { ...F16_HW, trace: 'full' },
    );
    const t = r.trace!;
    const last = t.recordCount - 1;
    // The last write is lane 15's s[15] (word 7), made from the writes of s[15] and s[31].
    expect([t.recLane[last], t.recAddr[last], t.recValue[last]]).toEqual([15, 7, 46]);
    const srcs = [...t.provList.slice(t.recProvStart[last], t.recProvStart[last + 1])].map((p) => [t.recAddr[p], t.recValue[p]]);
    expect(srcs.sort()).toEqual([[15, 31], [7, 15]].sort());
  });
});

describe('f16 builtins', () => {
  it('bitcast between vec2<f16> / vec4<f16> and 32-bit types, dot, select, math', () => {
    const got = run(`enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read> inp: array<u32>;
@compute @workgroup_size(1) fn main() {
  let v = bitcast<vec2<f16>>(inp[0]);
  out[0] = bitcast<u32>(v.yx);
  let w = bitcast<vec4<f16>>(vec2u(inp[0], inp[0]));
  out[1] = bitcast<u32>(vec2h(dot(w, w), length(v)));
  out[2] = bitcast<u32>(select(v, vec2h(0.25h), v.x > 1.0h));
  out[3] = bitcast<u32>(vec2h(sqrt(v.x), max(v.x, v.y)));
  out[4] = bitcast<u32>(vec2h(fma(v.x, v.y, 1.0h), abs(-v.y)));
  out[5] = bitcast<u32>(bitcast<f32>(v));
}`, 6, Uint32Array.of(word(halfBits(3), halfBits(-2))));
    const h = halfBits;
    expect(got[0]!.toString(16)).toBe(word(h(-2), h(3)).toString(16));
    expect(got[1]!.toString(16)).toBe(word(h(26), h(Math.sqrt(13))).toString(16));
    expect(got[2]!.toString(16)).toBe(word(h(0.25), h(0.25)).toString(16));
    expect(got[3]!.toString(16)).toBe(word(h(Math.sqrt(3)), h(3)).toString(16));
    expect(got[4]!.toString(16)).toBe(word(h(-5), h(2)).toString(16));
    expect(got[5]!.toString(16)).toBe(word(h(3), h(-2)).toString(16));
  });
});

describe('f16 builtins: component-wise math and the geometric table, each result rounded to f16', () => {
  // [expression, expected value computed here in doubles and rounded by the oracle]
  const x = 0.75;
  const y = -2.5;
  const cases: [string, number][] = [
    ['floor(y)', Math.floor(y)],
    ['round(2.5h)', 2],
    ['fract(y)', y - Math.floor(y)],
    ['sign(y)', -1],
    ['step(x, y)', 0],
    ['clamp(y, -1.0h, 1.0h)', -1],
    ['min(x, y)', y],
    ['saturate(y)', 0],
    ['mix(x, y, 0.5h)', x * 0.5 + y * 0.5],
    ['smoothstep(0.0h, 1.0h, x)', x * x * (3 - 2 * x)],
    ['exp2(3.0h)', 8],
    ['sqrt(16.0h)', 4],
    ['ldexp(x, 4)', 12],
    ['distance(vec2h(x, 0.0h), vec2h(y, 0.0h))', 3.25],
    ['normalize(vec2h(3.0h, 4.0h)).y', 0.8],
    ['cross(vec3h(1.0h, 0.0h, 0.0h), vec3h(0.0h, x, 0.0h)).z', x],
    ['dot(vec3h(x, y, 1.0h), vec3h(4.0h, 2.0h, 0.5h))', 3 - 5 + 0.5],
    ['faceForward(vec2h(x), vec2h(1.0h), vec2h(1.0h)).x', -x],
    ['reflect(vec2h(x, y), vec2h(0.0h, 1.0h)).y', -y],
    ['abs(vec2h(y)).x', 2.5],
    ['inverseSqrt(4.0h)', 0.5],
  ];
  const code = `enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@group(0) @binding(1) var<storage, read> inp: array<vec2<f16>>;
@compute @workgroup_size(1) fn main() {
  let x = inp[0].x;
  let y = inp[0].y;
${cases.map(([e], i) => `  out[${i}] = ${e};`).join('\n')}
}`;
  const got = run(code, Math.ceil(cases.length / 2), Uint32Array.of(word(halfBits(x), halfBits(y))));
  it.each(cases.map(([e, v], i) => [e, v, i] as const))('%s', (_e, v, i) => {
    const w = got[i >> 1]!;
    expect((i & 1 ? w >>> 16 : w & 0xffff).toString(16)).toBe(halfBits(v).toString(16));
  });

  it('frexp and modf of f16 are refused with the line and a way out', () => {
    const sim = simulate(
      { code: `enable f16;
@compute @workgroup_size(1) fn main() {
  let r = frexp(1.5h);
  _ = r;
}`, entryPoint: 'main', workgroups: [1], bindings: {} },
      F16_HW,
    );
    expect(sim.diagnostics.map((d) => [d.kind, d.line])).toEqual([['unsupported', 3]]);
    expect(sim.diagnostics[0]!.message).toMatch(/frexp of f16 is not simulated.*f32/);
  });
});

describe('f16 everywhere values live', () => {
  it('dynamic component index into memory vectors, private and function arrays, pointers, subgroups, uniforms', () => {
    const got = run(`enable f16;
enable subgroups;
struct U { k: f16, v: vec3<f16> }
@group(0) @binding(0) var<storage, read_write> out: array<vec4<f16>>;
@group(0) @binding(1) var<uniform> u: U;
var<private> p: array<f16, 4>;
fn twice(q: ptr<function, f16>) { *q = *q * 2.0h; }
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  var a = array<f16, 4>(1.0h, 2.0h, 3.0h, 4.0h);
  p[i] = a[3u - i] + u.k;
  var t = p[i];
  twice(&t);
  out[i] = vec4h(0.0h);
  out[i][i] = t;
  out[i][(i + 1u) % 4u] = subgroupAdd(f16(i) + 0.5h);
  out[i][(i + 2u) % 4u] = u.v[i % 3u];
}`, 8, Uint32Array.of(word(halfBits(0.25), 0), 0, word(halfBits(10), halfBits(20)), word(halfBits(30), 0)));
    // U's layout: k at byte 0, v (vec3<f16>, 8-byte aligned) at bytes 8…13.
    const h = halfBits;
    for (let i = 0; i < 4; i++) {
      const comp = [0, 0, 0, 0];
      comp[i] = h((4 - i + 0.25) * 2);
      comp[(i + 1) % 4] = h(0.5 + 1.5 + 2.5 + 3.5);
      comp[(i + 2) % 4] = h([10, 20, 30][i % 3]!);
      expect([got[i * 2]!, got[i * 2 + 1]!].map((x) => x.toString(16))).toEqual([word(comp[0]!, comp[1]!), word(comp[2]!, comp[3]!)].map((x) => x.toString(16)));
    }
  });
});

describe('shader-f16 gates f16', () => {
  it('without it, the clear refusal with line and column stays (the compile cache keeps the two apart)', () => {
    const kernel = {
      code: `enable f16;\n@group(0) @binding(0) var<storage, read_write> out: array<f16>;\n@compute @workgroup_size(1) fn main() { out[0] = 1.0h; }`,
      entryPoint: 'main',
      workgroups: [1] as [number],
      bindings: { 0: { 0: new Uint32Array(1) } },
    };
    expect(simulate(kernel, F16_HW).diagnostics).toEqual([]);
    const sim = simulate(kernel);
    expect([sim.diagnostics[0]!.kind, sim.diagnostics[0]!.line, sim.diagnostics[0]!.column]).toEqual(['unsupported', 2, 59]);
    expect(sim.diagnostics[0]!.message).toMatch(/shader-f16/);
  });
});
