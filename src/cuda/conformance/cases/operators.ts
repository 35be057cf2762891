/**
 * §2 Operators with C semantics beyond the oracle's expression table (expressions.ts): compound
 * assignment (including on narrow types), ++/--, the conditional operator, short-circuit
 * evaluation with side effects, precedence, the comma operator and chained assignment
 * (C++ [expr.ass], [expr.post.incr], [expr.pre.incr], [expr.cond], [expr.log.and], [expr.log.or]).
 */
import { dim3, group, iota } from '../harness.ts';
import { at, cu } from './source.ts';

export const g = group('operators');
const N = 64;
const one = { grid: dim3(1), block: dim3(N) };
const X = iota(N).map((t) => t * 7 - 200);

g.test('compound_assignment', 'C++ [expr.ass]: E1 op= E2 is E1 = E1 op E2, E1 evaluated once').run(() => ({
  from: 'reference',
  source: cu`
__global__ void compound(const int* in, int* out)
{
    int t = threadIdx.x;
    int x = in[t];
    int* r = out + 10 * t;
    int a = x; a += 13;  r[0] = a;
    a = x;     a -= 13;  r[1] = a;
    a = x;     a *= -3;  r[2] = a;
    a = x;     a /= 4;   r[3] = a;
    a = x;     a %= 6;   r[4] = a;
    a = x;     a <<= 3;  r[5] = a;
    a = x;     a >>= 2;  r[6] = a;
    a = x;     a &= 0xF0; r[7] = a;
    a = x;     a |= 5;   r[8] = a;
    a = x;     a ^= -1;  r[9] = a;
}
`,
  kernel: 'compound',
  launch: one,
  args: { in: Int32Array.from(X), out: new Int32Array(10 * N) },
  expect: {
    out: X.flatMap((x) => [x + 13, x - 13, x * -3, Math.trunc(x / 4), x % 6, x << 3, x >> 2, x & 0xf0, x | 5, x ^ -1]),
  },
}));

g.test('compound_assignment_narrow', 'C++ [expr.ass], [conv.integral]: c += 10 on unsigned char is computed in int, then wraps on the store').run(() => ({
  from: 'reference',
  source: cu`
__global__ void narrow(const unsigned char* in, unsigned char* bytes, short* shorts)
{
    int t = threadIdx.x;
    unsigned char c = in[t];
    c += 10;
    c *= 3;
    bytes[t] = c;
    short s = (short)(in[t] * 200);
    s += 30000;
    shorts[t] = s;
}
`,
  kernel: 'narrow',
  launch: one,
  args: { in: Uint8Array.from(iota(N), (t) => t * 4), bytes: new Uint8Array(N), shorts: new Int16Array(N) },
  expect: {
    bytes: iota(N).map((t) => (((((t * 4) & 255) + 10) & 255) * 3) & 255),
    shorts: iota(N).map((t) => ((((((t * 4) & 255) * 200) << 16) >> 16) + 30000) << 16 >> 16),
  },
}));

g.test('increment_decrement', 'C++ [expr.post.incr], [expr.pre.incr]: postfix yields the old value, prefix the new').run(() => ({
  from: 'reference',
  source: cu`
__global__ void incdec(int* out)
{
    int t = threadIdx.x;
    int a = t;
    int b = a++;
    int c = ++a;
    int d = a--;
    int e = --a;
    unsigned int u = 0;
    u--;
    out[6 * t + 0] = b;
    out[6 * t + 1] = c;
    out[6 * t + 2] = d;
    out[6 * t + 3] = e;
    out[6 * t + 4] = a;
    out[6 * t + 5] = (int)(u >> 28);
}
`,
  kernel: 'incdec',
  launch: one,
  args: { out: new Int32Array(6 * N) },
  expect: { out: iota(N).flatMap((t) => [t, t + 2, t + 2, t, t, 15]) },
}));

g.test('conditional_operator', 'C++ [expr.cond]: nested ?:, and the common type of int and float operands').run(() => ({
  from: 'reference',
  source: cu`
__global__ void pick(const int* in, int* sign, float* mixed)
{
    int t = threadIdx.x;
    int x = in[t];
    sign[t] = x > 0 ? 1 : x < 0 ? -1 : 0;
    mixed[t] = (x % 2 == 0) ? x / 2 : 0.5f;
}
`,
  kernel: 'pick',
  launch: one,
  args: { in: Int32Array.from(iota(N), (t) => t - 32), sign: new Int32Array(N), mixed: new Float32Array(N) },
  expect: { sign: iota(N).map((t) => Math.sign(t - 32)), mixed: iota(N).map((t) => ((t - 32) % 2 === 0 ? Math.trunc((t - 32) / 2) : 0.5)) },
}));

g.test('short_circuit_side_effects', 'C++ [expr.log.and], [expr.log.or]: the right operand is not evaluated when the left decides').run(() => ({
  from: 'reference',
  source: cu`
__global__ void shortCircuit(const int* in, int* out, int n)
{
    int t = threadIdx.x;
    int calls = 0;
    bool a = (t % 2 == 0) || (++calls > 0);
    bool b = (t % 3 == 0) && (++calls > 0);
    bool c = (t < n && in[t] > 10);
    out[t] = calls * 100 + a * 10 + b * 2 + c;
}
`,
  kernel: 'shortCircuit',
  launch: one,
  // in has n = 40 elements: threads 40 … 63 must not read it.
  args: { in: Int32Array.from(iota(40), (t) => t % 20), out: new Int32Array(N), n: 40 },
  expect: {
    out: iota(N).map((t) => {
      let calls = 0;
      const a = t % 2 === 0 || ++calls > 0;
      const b = t % 3 === 0 && ++calls > 0;
      const c = t < 40 && t % 20 > 10;
      return calls * 100 + Number(a) * 10 + Number(b) * 2 + Number(c);
    }),
  },
}));

g.test('precedence', 'C++ [expr]: * before +, + before <<, == before &, && before ||').run(() => ({
  from: 'reference',
  source: cu`
__global__ void precedence(const int* in, int* out)
{
    int t = threadIdx.x;
    int a = in[t], b = 3, c = 5;
    int* r = out + 5 * t;
    r[0] = a + b * c;
    r[1] = a << 1 + 1;
    r[2] = a & b == 3;
    r[3] = a > 0 || b > 10 && c > 10;
    r[4] = -a % 4 * 2;
}
`,
  kernel: 'precedence',
  launch: one,
  args: { in: Int32Array.from(X), out: new Int32Array(5 * N) },
  expect: { out: X.flatMap((a) => [a + 15, a << 2, a & 1, a > 0 ? 1 : 0, ((-a % 4) * 2) | 0]) },
}));

g.test('comma_and_chained_assignment', 'C++ [expr.comma], [expr.ass]: a = b = 5, and two variables stepped in one for').run(() => ({
  from: 'reference',
  source: cu`
__global__ void commas(int* out)
{
    int t = threadIdx.x;
    int a, b;
    a = b = t + 5;
    int steps = 0;
    for (int lo = 0, hi = t; lo < hi; ++lo, --hi) {
        steps++;
    }
    out[t] = a * 1000 + b * 10 + steps;
}
`,
  kernel: 'commas',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => (t + 5) * 1000 + (t + 5) * 10 + Math.ceil(t / 2)) },
}));

g.test('integer_division_before_float', 'C++ [expr.mul], [expr.arith.conv]: 7 / 2 is the int 3 before any conversion to float').run(() => ({
  from: 'literal',
  source: cu`
__global__ void intThenFloat(const int* in, float* out)
{
    int seven = in[0], two = in[1];
    out[0] = seven / two;
    out[1] = seven / two * 2.0f;
    out[2] = (float)seven / two;
    out[3] = seven / 2.0f;
}
`,
  kernel: 'intThenFloat',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { in: Int32Array.from([7, 2]), out: new Float32Array(4) },
  expect: { out: [3, 6, 3.5, 3.5] },
}));

g.test('division_of_bounded_values', 'C++ [expr.mul]: / truncates towards zero and (a/b)*b + a%b == a, whether or not the operands can be negative').run(() => ({
  from: 'reference',
  source: cu`
__global__ void bounded(const int* in, int* out, int n)
{
    int t = threadIdx.x;                       // 0 … 1023
    int* r = out + 12 * t;
    for (int j = 0; j < 2; ++j) {
        int e = t + j * 64;                    // never negative
        r[j * 4 + 0] = e / 16;
        r[j * 4 + 1] = e % 16;
        r[j * 4 + 2] = e / 7 + e % 7;
        r[j * 4 + 3] = (e % 64) / (j + 1);
    }
    int d = t - 32;                            // negative for t < 32
    r[8] = d / 16;
    r[9] = d % 16;
    r[10] = t / -4 + t % -4;                   // a negative divisor
    int x = in[t];                             // anything
    r[11] = x / 8 + x % 8 + t % n;
}
`,
  kernel: 'bounded',
  launch: one,
  args: { in: Int32Array.from(X), out: new Int32Array(12 * N), n: 5 },
  expect: {
    out: iota(N).flatMap((t) => [
      ...[0, 1].flatMap((j) => {
        const e = t + j * 64;
        return [Math.trunc(e / 16), e % 16, Math.trunc(e / 7) + (e % 7), Math.trunc((e % 64) / (j + 1))];
      }),
      Math.trunc((t - 32) / 16), (t - 32) % 16, Math.trunc(t / -4) + (t % -4), Math.trunc(X[t]! / 8) + (X[t]! % 8) + (t % 5),
    ]),
  },
}));

g.test('logical_results_are_int', 'C++ [expr.rel]: a comparison is a bool that promotes to 0 or 1').run(() => ({
  from: 'reference',
  source: cu`
__global__ void logic(const int* in, int* out)
{
    int t = threadIdx.x;
    int a = in[t], b = in[(t + 1) % 64];
    out[t] = (a < b) + (a == b) * 2 + (!a) * 4 + (a != 0 && b != 0) * 8;
}
`,
  kernel: 'logic',
  launch: one,
  args: { in: Int32Array.from(iota(N), (t) => (t % 5) - 2), out: new Int32Array(N) },
  expect: {
    out: iota(N).map((t) => {
      const a = (t % 5) - 2;
      const b = (((t + 1) % 64) % 5) - 2;
      return Number(a < b) + Number(a === b) * 2 + Number(!a) * 4 + Number(a !== 0 && b !== 0) * 8;
    }),
  },
}));

g.test('float_special_values', 'IEEE 754: -0, ±inf and NaN through arithmetic').run(() => ({
  from: 'literal',
  source: cu`
__global__ void specials(const float* in, float* out)
{
    float zero = in[0], one = in[1];
    out[0] = -zero;
    out[1] = one / zero;
    out[2] = -one / zero;
    out[3] = zero / zero;
    out[4] = (one / zero) - (one / zero);
    out[5] = zero * -one;
}
`,
  kernel: 'specials',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { in: Float32Array.from([0, 1]), out: new Float32Array(6) },
  expect: { out: [-0, Infinity, -Infinity, NaN, NaN, -0] },
}));

const ASSIGN_RVALUE = cu`
__global__ void k(int* out)
{
    int a = 1, b = 2;
    a + b = 3;
    out[0] = a;
}
`;
g.test('assignment_to_rvalue', 'C++ [expr.ass]: the left operand must be a modifiable lvalue').error(() => ({
  source: ASSIGN_RVALUE,
  error: { ...at(ASSIGN_RVALUE, 'a + b ='), includes: ['assign'] },
}));

g.test('conditional_of_vector_structs', 'C++ [expr.cond]: both operands are float4 lvalues or prvalues of the same class type; the result is that type').run(() => ({
  from: 'reference',
  source: cu`
__global__ void pick(const float4* a, const float4* b, float* out)
{
    int i = threadIdx.x;
    float4 v = (i % 3 == 0) ? a[i] : b[i];
    float4 w = i < 32 ? make_float4(1.0f, 2.0f, 3.0f, 4.0f) : v;
    out[i] = v.x + 10.0f * v.y + 100.0f * v.z + 1000.0f * v.w + w.w;
}
`,
  kernel: 'pick',
  launch: one,
  args: { a: Float32Array.from(iota(4 * N), (k) => k % 4 + 1), b: Float32Array.from(iota(4 * N), (k) => (k % 4) * 2), out: new Float32Array(N) },
  expect: {
    out: iota(N).map((i) => {
      const v = i % 3 === 0 ? [1, 2, 3, 4] : [0, 2, 4, 6];
      const w = i < 32 ? 4 : v[3]!;
      return v[0]! + 10 * v[1]! + 100 * v[2]! + 1000 * v[3]! + w;
    }),
  },
}));
