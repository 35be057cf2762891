/**
 * WGSL §17.5 numeric builtins on f32 and integers, simulator vs Dawn, over edge-case inputs.
 * Bounds are the spec's accuracy per builtin (§15.7.3); "exact" ones must agree bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { conform, f32Edges, I32_EDGES, pairs, randomVecs, U32_EDGES, type Suite, type Tolerance } from '../../harness.ts';

const fr = Math.fround;
const EDGES = f32Edges({ inf: true });
const FINITE = f32Edges();
const one = (xs: number[]) => xs.map((x) => [[x]]);
const two = (xs: number[], ys: number[]) => pairs(xs, ys).map(([x, y]) => [[x], [y]]);
const SMALL = [0, -0, 0.25, -0.5, 1, -1, 1.5, -2.75, 3, 10.5, -100].map(fr);
/** The inputs where sin/cos/tan are specified: [-π, π]. */
const ANGLES = [0, -0, 0.1, -0.5, 1, -1, 1.5, 2, -2.5, 3, -3.1].map(fr);

const exact: Tolerance = {};
const f1 = (name: string, xs: number[], tolerance: Suite['tolerance'] = exact): Suite => ({
  name, expr: `${name}(a0)`, args: ['f32'], result: 'f32', cases: one(xs), tolerance,
});
const f2 = (name: string, xs: number[], ys: number[], tolerance: Suite['tolerance'] = exact): Suite => ({
  name, expr: `${name}(a0, a1)`, args: ['f32', 'f32'], result: 'f32', cases: two(xs, ys), tolerance,
});
const positive = f32Edges({ negative: false }).filter((x) => x > 0);
/** Positive normal inputs: for denormal inputs SwiftShader's log returns about log(2^-127). */
const positiveNormal = positive.filter((x) => x >= 2 ** -126);
/** Finite normal inputs (and zero): SwiftShader's frexp returns a denormal unchanged with exp 0. */
const finiteNormal = FINITE.filter((x) => x === 0 || Math.abs(x) >= 2 ** -126);

const suites: Suite[] = [
  f1('abs', EDGES),
  f1('sign', EDGES),
  f1('floor', EDGES),
  f1('ceil', EDGES),
  f1('round', [...EDGES, 0.5, 1.5, 2.5, -0.5, -2.5, 3.5].map(fr)),
  f1('trunc', EDGES),
  f1('fract', FINITE.filter((x) => Math.abs(x) < 1e7), { ulp: 1 }),
  f1('saturate', EDGES),
  f1('sqrt', f32Edges({ negative: false, inf: true }), { ulp: 5 }),
  f1('inverseSqrt', positive, { ulp: 2 }),
  f1('exp', SMALL, (a) => ({ ulp: 3 + 2 * Math.abs(a[0]![0]!) })),
  f1('exp2', SMALL, (a) => ({ ulp: 3 + 2 * Math.abs(a[0]![0]!) })),
  f1('log', positiveNormal, { ulp: 3, abs: 2 ** -21 }),
  f1('log2', positiveNormal, { ulp: 3, abs: 2 ** -22 }),
  f1('sin', ANGLES, { abs: 2 ** -11 }),
  f1('cos', ANGLES, { abs: 2 ** -11 }),
  f1('tan', ANGLES.filter((x) => Math.abs(x) < 1.2), { ulp: 4096, abs: 2 ** -10 }),
  f1('asin', [0, -0, 0.25, -0.5, 0.9, -1, 1].map(fr), { ulp: 4096, abs: 2 ** -11 }),
  f1('acos', [0, -0, 0.25, -0.5, 0.9, -1, 1].map(fr), { ulp: 4096, abs: 2 ** -11 }),
  f1('atan', FINITE, { ulp: 4096 }),
  f1('sinh', SMALL, { ulp: 4096, abs: 2 ** -11 }),
  f1('cosh', SMALL, { ulp: 4096, abs: 2 ** -11 }),
  // Beyond |x| ≈ 10 SwiftShader's tanh overflows to NaN (the spec inherits tanh's accuracy from sinh/cosh).
  f1('tanh', SMALL.filter((x) => Math.abs(x) <= 10), { ulp: 4096, abs: 2 ** -11 }),
  f1('asinh', SMALL, { ulp: 4096, abs: 2 ** -11 }),
  f1('acosh', [1, 1.5, 2, 10.5, 100].map(fr), { ulp: 4096, abs: 2 ** -11 }),
  f1('atanh', [0, -0, 0.25, -0.5, 0.9].map(fr), { ulp: 4096, abs: 2 ** -11 }),
  f1('degrees', FINITE.filter((x) => Math.abs(x) < 1e30), { ulp: 2 }),
  f1('radians', FINITE, { ulp: 2 }),
  // f16 subnormal results may be flushed to zero (SwiftShader does), so only normal f16 values.
  f1('quantizeToF16', [0, -0, 1, -1, 0.1, 1 / 3, 65504, -65504, 2 ** -14, -(2 ** -13), 1000.7, 3.0e-4].map(fr)),
  f2('min', EDGES, EDGES),
  f2('max', EDGES, EDGES),
  f2('step', EDGES, EDGES),
  // §17.5: where one operand of min or max is a NaN, the other is returned; clamp and saturate
  // are built on them. (A NaN input comes from the buffer, so neither side can fold it away.)
  { ...f2('min', [NaN, 1, -2.5, 0], [NaN, 1, -2.5, 0]), name: 'min with a NaN' },
  { ...f2('max', [NaN, 1, -2.5, 0], [NaN, 1, -2.5, 0]), name: 'max with a NaN' },
  { ...f1('saturate', [NaN]), name: 'saturate of a NaN' },
  {
    name: 'clamp with a NaN', expr: 'clamp(a0, a1, a2)', args: ['f32', 'f32', 'f32'], result: 'f32',
    cases: [[[NaN], [0], [2]], [[NaN], [-1], [1]], [[0.5], [NaN], [1]], [[3], [0], [NaN]]],
  },
  // y = ±0 is left out: SwiftShader returns 0 or π there regardless of the signs.
  f2('atan2', SMALL.filter((x) => x !== 0), SMALL.filter((x) => x !== 0), { ulp: 4096 }),
  f2('pow', [0.5, 1, 2, 3.75, 10].map(fr), [-2, -0.5, 0, 0.5, 1, 2, 3].map(fr), { ulp: 8192, abs: 1e-6 }),
  {
    name: 'ldexp', expr: 'ldexp(a0, a1)', args: ['f32', 'i32'], result: 'f32',
    cases: pairs([0, -0, 1, -1.5, 0.75, 2 ** -126, 3.0e38].map(fr), [0, 1, -1, 10, -10, 127, -126, -149, 128]).map(([x, k]) => [[x], [k]]),
    // The spec leaves overflow indeterminate; only finite results are compared.
    tolerance: exact,
  },
  {
    name: 'clamp', expr: 'clamp(a0, a1, a2)', args: ['f32', 'f32', 'f32'], result: 'f32',
    cases: pairs(EDGES, [[-1, 1], [0, 0.5], [2, 100]]).map(([x, [lo, hi]]) => [[x], [lo!], [hi!]]),
  },
  {
    name: 'mix', expr: 'mix(a0, a1, a2)', args: ['f32', 'f32', 'f32'], result: 'f32',
    cases: randomVecs(64, 3, -10, 10, 5).map(([a, b, t]) => [[a!], [b!], [Math.fround(t! / 10)]]),
    tolerance: { ulp: 8, abs: 1e-5 },
  },
  {
    name: 'smoothstep', expr: 'smoothstep(a0, a1, a2)', args: ['f32', 'f32', 'f32'], result: 'f32',
    cases: pairs([[0, 1], [-2, 3]], [-3, -0.5, 0, 0.25, 0.5, 0.9, 1, 2.5, 4].map(fr)).map(([[lo, hi], x]) => [[lo!], [hi!], [x]]),
    tolerance: { abs: 1e-6 },
  },
  {
    name: 'fma', expr: 'fma(a0, a1, a2)', args: ['f32', 'f32', 'f32'], result: 'f32',
    cases: [
      ...randomVecs(48, 3, -100, 100, 9).map(([a, b, c]) => [[a!], [b!], [c!]]),
      // Cancellation: a*b + c where the unfused and fused results differ most.
      [[fr(1 + 2 ** -12)], [fr(1 - 2 ** -12)], [-1]],
      [[fr(1 / 3)], [3], [-1]],
      [[0.1], [10], [-1]].map((v) => v.map(fr)),
    ],
  },
  { name: 'frexp.fract', expr: 'frexp(a0).fract', args: ['f32'], result: 'f32', cases: one(finiteNormal) },
  { name: 'frexp.exp', expr: 'frexp(a0).exp', args: ['f32'], result: 'i32', cases: one(finiteNormal.filter((x) => x !== 0)) },
  { name: 'modf.fract', expr: 'modf(a0).fract', args: ['f32'], result: 'f32', cases: one(FINITE) },
  { name: 'modf.whole', expr: 'modf(a0).whole', args: ['f32'], result: 'f32', cases: one(FINITE) },
  { name: 'frexp vec2', expr: 'frexp(a0).fract', args: ['vec2f'], result: 'vec2f', cases: [[[0.75, -12]], [[3, 2 ** -120]]] },
  // Integers: bit for bit.
  { name: 'abs i32', expr: 'abs(a0)', args: ['i32'], result: 'i32', cases: one(I32_EDGES) },
  { name: 'sign i32', expr: 'sign(a0)', args: ['i32'], result: 'i32', cases: one(I32_EDGES) },
  { name: 'min i32', expr: 'min(a0, a1)', args: ['i32', 'i32'], result: 'i32', cases: two(I32_EDGES, [0, -1, 2147483647, -2147483648]) },
  { name: 'max u32', expr: 'max(a0, a1)', args: ['u32', 'u32'], result: 'u32', cases: two(U32_EDGES, [0, 1, 0xffffffff]) },
  {
    name: 'clamp i32', expr: 'clamp(a0, a1, a2)', args: ['i32', 'i32', 'i32'], result: 'i32',
    cases: I32_EDGES.map((x) => [[x], [-8], [31]]),
  },
  {
    name: 'clamp u32', expr: 'clamp(a0, a1, a2)', args: ['u32', 'u32', 'u32'], result: 'u32',
    cases: U32_EDGES.map((x) => [[x], [7], [0x10000]]),
  },
];

describe('numeric builtins: simulator vs GPU', () => {
  it.each(suites.map((s) => [s.name, s] as [string, Suite]))('%s', async (_n, s) => {
    expect(await conform(s, { fma: s.name === 'fma' })).toEqual([]);
  });
});
