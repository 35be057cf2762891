/**
 * §2 Math functions on float, with the CUDA Math API's documented error bounds (maximum ulp error
 * against the correctly rounded result): sqrtf 0 (IEEE, the default -prec-sqrt=true), rsqrtf 2,
 * expf 2, logf 1, powf 4, __fdividef 2, __expf 2 + floor(|1.173·x|), and exact results for fabsf,
 * fminf, fmaxf, floorf, ceilf, including -0, infinities and NaN. Inputs and results avoid
 * denormals, which WGSL lets a GPU flush to zero. References are JavaScript's
 * double-precision functions rounded to float. Integer intrinsics are in expressions.ts (g++).
 */
import { dim3, group } from '../harness.ts';
import { at, cu } from './source.ts';

export const g = group('math');
const API = 'CUDA Math API, Single Precision Mathematical Functions';
const INTRINSICS = 'CUDA Math API, Single Precision Intrinsics';
const f = Math.fround;

interface MathCase {
  fn: string;
  call: string;
  xs: readonly number[];
  ys?: readonly number[];
  ref: (x: number, y: number) => number;
  ulp: number;
  spec: string;
}

const MATH: MathCase[] = [
  { fn: 'sqrtf', call: 'sqrtf(x)', xs: [0, -0, 1, 2, 4, 16, 0.25, 3, 1e-10, 1e30, -1, Infinity], ref: (x) => Math.sqrt(x), ulp: 0, spec: API },
  { fn: 'sqrt (float overload)', call: 'sqrt(x)', xs: [2, 9, 0.5], ref: (x) => Math.sqrt(x), ulp: 0, spec: `${API}; C++ [c.math]: sqrt(float) is the float overload` },
  { fn: 'rsqrtf', call: 'rsqrtf(x)', xs: [1, 4, 0.25, 2, 10, 1e-6, 0, Infinity, -1], ref: (x) => 1 / Math.sqrt(x), ulp: 2, spec: API },
  { fn: 'expf', call: 'expf(x)', xs: [0, 1, -1, 0.5, 10, -10, 80, -80, 89, -87, -Infinity, Infinity], ref: Math.exp, ulp: 2, spec: API },
  { fn: '__expf', call: '__expf(x)', xs: [0, 0.5, -0.5, 1, -1, 0.25], ref: Math.exp, ulp: 3, spec: `${INTRINSICS}: 2 + floor(|1.173·x|) ulp` },
  { fn: 'logf', call: 'logf(x)', xs: [1, 2, Math.E, 10, 0.5, 1e-3, 1e30, 0, -1, Infinity], ref: Math.log, ulp: 1, spec: API },
  { fn: 'powf', call: 'powf(x, y)', xs: [2, -2, 9, 1.5, 10, 0, 5, NaN, 1, 4], ys: [10, 3, 0.5, 2, -2, 2, 0, 0, NaN, -0.5], ref: (x, y) => (x === 1 ? 1 : Math.pow(x, y)), ulp: 4, spec: `${API}; powf(x, 0) is 1 even for NaN, powf(1, y) is 1 even for NaN` },
  { fn: 'fabsf', call: 'fabsf(x)', xs: [-2.5, 2.5, -0, 0, -Infinity, NaN, -1e-30], ref: Math.abs, ulp: 0, spec: API },
  { fn: 'fminf', call: 'fminf(x, y)', xs: [1, -1, NaN, 3, -Infinity, 2], ys: [2, -3, 4, NaN, 0, 2], ref: (x, y) => (Number.isNaN(x) ? y : Number.isNaN(y) ? x : Math.min(x, y)), ulp: 0, spec: `${API}: a NaN operand yields the other operand` },
  { fn: 'fmaxf', call: 'fmaxf(x, y)', xs: [1, -1, NaN, 3, Infinity, 2], ys: [2, -3, 4, NaN, 0, 2], ref: (x, y) => (Number.isNaN(x) ? y : Number.isNaN(y) ? x : Math.max(x, y)), ulp: 0, spec: `${API}: a NaN operand yields the other operand` },
  { fn: 'floorf', call: 'floorf(x)', xs: [2.5, -2.5, -0.5, 0.5, -0, 1e10, -1e-30, 3, Infinity], ref: Math.floor, ulp: 0, spec: `${API}: floorf(-0.5) is -1; floorf(-0) is -0` },
  { fn: 'ceilf', call: 'ceilf(x)', xs: [2.5, -2.5, -0.5, 0.5, -0, 1e10, 1e-30, -3, -Infinity], ref: Math.ceil, ulp: 0, spec: `${API}: ceilf(-0.5) is -0` },
  { fn: '__fdividef', call: '__fdividef(x, y)', xs: [1, 10, -7, 2, 1e6, 3], ys: [3, 4, 2, 0.1, 7, -9], ref: (x, y) => x / y, ulp: 2, spec: `${INTRINSICS}: 2 ulp for |y| in [2^-126, 2^126]` },
  { fn: 'min/max float overloads', call: 'max(min(x, y), -1.0f)', xs: [0.5, -3, 2, -0.25], ys: [1, -2, 1.5, 7], ref: (x, y) => Math.max(Math.min(x, y), -1), ulp: 0, spec: `${API}: min and max overloads on float` },
  { fn: 'division', call: 'x / y', xs: [1, -1, 0, 1, 7, 1e-30], ys: [0, 0, 0, 3, -0.5, 1e30], ref: (x, y) => x / y, ulp: 0, spec: 'IEEE 754 division, correctly rounded by default (-prec-div=true): x/0 is ±inf, 0/0 is NaN' },
];

g.test('float_function', API)
  .params(MATH.map((m) => ({ fn: m.fn })))
  .run(({ fn }) => {
    const m = MATH.find((q) => q.fn === fn)!;
    const two = m.ys !== undefined;
    const n = m.xs.length;
    return {
      from: 'reference',
      source: cu`
__global__ void eval(const float* xs, ${two ? 'const float* ys, ' : ''}float* out, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        float x = xs[i];
${two ? '        float y = ys[i];\n' : ''}        out[i] = ${m.call};
    }
}
`,
      kernel: 'eval',
      launch: { grid: dim3(1), block: dim3(32) },
      args: { xs: Float32Array.from(m.xs), ...(two ? { ys: Float32Array.from(m.ys!) } : {}), out: new Float32Array(n), n },
      expect: { out: { values: m.xs.map((x, i) => f(m.ref(f(x), f(m.ys?.[i] ?? 0)))), ulp: m.ulp } },
    };
  });

g.test('float_compare_nan', 'IEEE 754 comparisons: NaN is unordered, so only != holds').run(() => ({
  from: 'literal',
  source: cu`
__global__ void nanCompare(const float* in, int* out)
{
    float nan = in[0] / in[1];
    float one = in[2];
    out[0] = nan == nan;
    out[1] = nan != nan;
    out[2] = nan < one;
    out[3] = nan >= one;
    out[4] = !(nan <= one) && !(nan > one);
    out[5] = -0.0f == 0.0f;
}
`,
  kernel: 'nanCompare',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { in: Float32Array.from([0, 0, 1]), out: new Int32Array(6) },
  expect: { out: [0, 1, 0, 0, 1, 1] },
}));

g.test('float_rounding_of_arithmetic', 'IEEE 754 binary32: each operation rounds to nearest even').run(() => ({
  from: 'reference',
  source: cu`
__global__ void rounding(const float* in, float* out)
{
    float a = in[0], b = in[1], big = in[2];
    out[0] = a + b;
    out[1] = (big + 1.0f) - big;
    out[2] = 1.0f / 3.0f;
    out[3] = a * a;
    out[4] = (float)16777217;
}
`,
  kernel: 'rounding',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { in: Float32Array.from([0.1, 0.2, 16777216]), out: new Float32Array(5) },
  expect: { out: [f(f(0.1) + f(0.2)), 0, f(1 / 3), f(f(0.1) * f(0.1)), 16777216] },
}));

const UNSUPPORTED = cu`
__global__ void k(const float* in, float* out)
{
    out[threadIdx.x] = erfcinvf(in[threadIdx.x]);
}
`;
g.test('function_outside_subset', 'Issue §2: a math function outside the subset is named in the diagnostic').error(() => ({
  nvccAccepts: true,
  source: UNSUPPORTED,
  error: { ...at(UNSUPPORTED, 'erfcinvf'), includes: ['erfcinvf'] },
}));
