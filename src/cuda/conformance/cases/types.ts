/**
 * §2 Types: every integer type from char to unsigned long long, size_t, bool, float; double and
 * 64-bit integers, which WebGPU lacks, with the warning at their line (C++ [basic.fundamental];
 * CUDA's data model follows the host's: LP64 on Linux). Conversions between them are in
 * expressions.ts (oracle: g++).
 */
import { dim3, group, iota, seeded } from '../harness.ts';
import { at, cu } from './source.ts';

export const g = group('types');
const FUND = 'C++ [basic.fundamental]; CUDA Programming Guide, C++ Language Support (LP64 data model)';
const N = 64;
const one = { grid: dim3(1), block: dim3(N) };
const W64 = ['64'];

g.test('sizeof', `${FUND}: sizes of the fundamental types and a padded struct`).run(() => ({
  from: 'literal',
  source: cu`
#include <cstddef>

struct Padded {
    char c;
    int i;
};

__global__ void sizes(int* out)
{
    out[0] = sizeof(char);
    out[1] = sizeof(short);
    out[2] = sizeof(int);
    out[3] = sizeof(long);
    out[4] = sizeof(long long);
    out[5] = sizeof(float);
    out[6] = sizeof(double);
    out[7] = sizeof(bool);
    out[8] = sizeof(size_t);
    out[9] = sizeof(int*);
    out[10] = sizeof(Padded);
    out[11] = sizeof(unsigned char);
}
`,
  kernel: 'sizes',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { out: new Int32Array(12) },
  expect: { out: [1, 2, 4, 8, 8, 4, 8, 1, 8, 8, 8, 1] },
  warnings: [],
  mayWarn: ['64', 'double'],
}));

g.test('char_is_signed', `${FUND}: plain char is signed on x86-64 Linux, the host CUDA follows`).run(() => ({
  from: 'literal',
  source: cu`
__global__ void chars(int* out)
{
    char c = (char)200;
    unsigned char u = 200;
    signed char s = -1;
    out[0] = c;
    out[1] = u;
    out[2] = s;
    out[3] = c < 0;
}
`,
  kernel: 'chars',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { out: new Int32Array(4) },
  expect: { out: [-56, 200, -1, 1] },
}));

g.test('bool_values', 'C++ [conv.bool], [conv.prom]: bool holds true or false and promotes to 1 or 0').run(() => ({
  from: 'literal',
  source: cu`
__global__ void bools(const bool* flags, int* out)
{
    bool b = 5;
    bool z = 0.0f;
    int count = 0;
    for (int k = 0; k < 8; ++k) count += flags[k];
    out[0] = b;
    out[1] = b + b;
    out[2] = z;
    out[3] = !b;
    out[4] = count;
    out[5] = (bool)-3 == true;
}
`,
  kernel: 'bools',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { flags: Uint8Array.from([1, 0, 1, 1, 0, 0, 1, 0]), out: new Int32Array(6) },
  expect: { out: [1, 2, 0, 0, 4, 1] },
}));

g.test('literals', 'C++ [lex.icon], [lex.ccon], [lex.fcon]: hex, octal, binary, character and suffixed literals').run(() => ({
  from: 'literal',
  source: cu`
__global__ void literals(int* out, unsigned int* uout, float* fout)
{
    out[0] = 0x10;
    out[1] = 010;
    out[2] = 0b101;
    out[3] = 'A';
    out[4] = '\n';
    out[5] = -1 < 0xFFFFFFFF;
    out[6] = 1'000'000;
    uout[0] = 0xFFFFFFFFu;
    uout[1] = 10u / 3u;
    uout[2] = -1;
    fout[0] = 1e3f;
    fout[1] = .5f;
    fout[2] = 0x1p-2f;
}
`,
  kernel: 'literals',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { out: new Int32Array(7), uout: new Uint32Array(3), fout: new Float32Array(3) },
  expect: { out: [16, 8, 5, 65, 10, 0, 1000000], uout: [0xffffffff, 3, 0xffffffff], fout: [1000, 0.5, 0.25] },
}));

g.test('typedef_using_auto_const', 'C++ [dcl.typedef], [dcl.spec.auto], [dcl.constexpr]').run(() => ({
  from: 'reference',
  source: cu`
typedef unsigned int uint;
using real = float;

__global__ void aliases(uint* u, real* f)
{
    const int K = 3;
    constexpr int M = K * 2;
    auto a = 1u;
    auto b = 2.5f;
    uint t = threadIdx.x;
    u[t] = t * M + a - 2;
    f[t] = b * t;
}
`,
  kernel: 'aliases',
  launch: one,
  args: { u: new Uint32Array(N), f: new Float32Array(N) },
  expect: { u: iota(N).map((t) => (t * 6 + 1 - 2) >>> 0), f: iota(N).map((t) => 2.5 * t) },
}));

g.test('narrow_buffers', 'C++ [basic.fundamental]: char and short arrays are arrays of 1- and 2-byte elements')
  .params([
    { T: 'unsigned char', arr: 'u8' },
    { T: 'signed char', arr: 'i8' },
    { T: 'short', arr: 'i16' },
    { T: 'unsigned short', arr: 'u16' },
  ])
  .run(({ T, arr }) => {
    const make = { u8: Uint8Array, i8: Int8Array, i16: Int16Array, u16: Uint16Array }[arr as 'u8' | 'i8' | 'i16' | 'u16'];
    const n = 256;
    const input = make.from(seeded(n, 7, (r) => r));
    // out[i] = (T)(in[i] * 3 + 1): int arithmetic after promotion, then narrowed back by the store.
    const want = make.from(Array.from(input, (v) => v * 3 + 1));
    return {
      from: 'reference',
      source: cu`
__global__ void triple(const ${T}* in, ${T}* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * 3 + 1;
    }
}
`,
      kernel: 'triple',
      launch: { grid: dim3(4), block: dim3(64) },
      args: { in: input, out: new make(n), n },
      expect: { out: Array.from(want) },
      info: { params: { in: { type: T as 'short', access: 'read' }, out: { type: T as 'short' } } },
    };
  });

// ---- 64-bit: warnings at the line, results exact where they fit in 32 bits.

const LL_SMALL = cu`
__global__ void smallLong(const int* in, int* out)
{
    int i = threadIdx.x;
    long long v = in[i];
    v = v * 3 - 7;
    out[i] = (int)v;
}
`;
g.test('long_long_within_32_bits', 'Issue §2: 64-bit integers are warned about at their line').run(() => ({
  from: 'reference',
  source: LL_SMALL,
  kernel: 'smallLong',
  launch: one,
  args: { in: Int32Array.from(iota(N), (i) => i * 1000 - 30000), out: new Int32Array(N) },
  expect: { out: iota(N).map((i) => (i * 1000 - 30000) * 3 - 7) },
  warnings: [{ line: at(LL_SMALL, 'long long').line, includes: W64 }],
}));

const ULL_WIDE = cu`
__global__ void wideSum(const unsigned int* in, unsigned int* out, int n)
{
    unsigned long long acc = 0;
    for (int k = 0; k < n; ++k) {
        acc += in[k];
    }
    out[0] = (unsigned int)acc;
    out[1] = (unsigned int)(acc >> 32);
}
`;
g.test('unsigned_long_long_beyond_32_bits', 'C++ [basic.fundamental]: unsigned long long holds at least 64 bits').run(() => {
  const input = Uint32Array.from(iota(16), (k) => 0xf0000000 + k);
  const sum = Array.from(input).reduce((a, v) => a + BigInt(v), 0n);
  return {
    from: 'reference',
    source: ULL_WIDE,
    kernel: 'wideSum',
    launch: { grid: dim3(1), block: dim3(1) },
    args: { in: input, out: new Uint32Array(2), n: 16 },
    expect: { out: [Number(sum & 0xffffffffn), Number(sum >> 32n)] },
    warnings: [{ line: at(ULL_WIDE, 'unsigned long long').line, includes: W64 }],
  };
});

const LL_PRODUCT = cu`
__global__ void wideProduct(const int* a, const int* b, int* lo, int* hi)
{
    int i = threadIdx.x;
    long long p = (long long)a[i] * b[i];
    lo[i] = (int)(p & 0xFFFFFFFF);
    hi[i] = (int)(p >> 32);
}
`;
g.test('long_long_product', 'C++ [expr.mul] on long long: the full 64-bit product of two ints').run(() => {
  const a = seeded(N, 3, (r) => (r | 0) >> 4);
  const b = seeded(N, 5, (r) => (r | 0) >> 8);
  const p = a.map((x, i) => BigInt(x) * BigInt(b[i]!));
  return {
    from: 'reference',
    source: LL_PRODUCT,
    kernel: 'wideProduct',
    launch: one,
    args: { a: Int32Array.from(a), b: Int32Array.from(b), lo: new Int32Array(N), hi: new Int32Array(N) },
    expect: { lo: p.map((v) => Number(BigInt.asIntN(32, v))), hi: p.map((v) => Number(BigInt.asIntN(32, v >> 32n))) },
    warnings: [{ line: at(LL_PRODUCT, 'long long p').line, includes: W64 }],
  };
});

/** C's conversion of an integer to float: one rounding to nearest, ties to even (C++ [conv.fpint]). */
function bigToF32(v: bigint): number {
  const neg = v < 0n;
  let m = neg ? -v : v;
  const bits = m.toString(2).length;
  let scale = 1;
  if (bits > 24) {
    const shift = BigInt(bits - 24);
    const q = m >> shift;
    const rest = m - (q << shift);
    const half = 1n << (shift - 1n);
    m = rest > half || (rest === half && (q & 1n) === 1n) ? q + 1n : q;
    scale = 2 ** (bits - 24);
  }
  return (neg ? -1 : 1) * Number(m) * scale;
}

const LL_OPS = cu`
__global__ void wideOps(const unsigned int* w, unsigned int* out, float* f, int n)
{
    int i = threadIdx.x;
    if (i >= n) return;
    unsigned long long a = ((unsigned long long)w[4 * i + 1] << 32) | w[4 * i];
    unsigned long long b = ((unsigned long long)w[4 * i + 3] << 32) | w[4 * i + 2];
    long long sa = (long long)a;
    long long sb = (long long)b;
    unsigned long long r[11];
    r[0] = a + b;
    r[1] = a - b;
    r[2] = a * b;
    r[3] = b != 0 ? a / b : 0;
    r[4] = b != 0 ? a % b : 0;
    r[5] = sb != 0 ? (unsigned long long)(sa / sb) : 0;
    r[6] = sb != 0 ? (unsigned long long)(sa % sb) : 0;
    r[7] = sa >> (b & 63);
    r[8] = a >> (b & 63);
    r[9] = a << (b & 63);
    r[10] = (a < b) | ((sa < sb) << 1) | ((a == b) << 2) | ((sa >= sb) << 3) | ((-sa > 0) << 4) | ((~a == 0) << 5);
    for (int k = 0; k < 11; ++k) {
        out[(i * 11 + k) * 2] = (unsigned int)r[k];
        out[(i * 11 + k) * 2 + 1] = (unsigned int)(r[k] >> 32);
    }
    f[2 * i] = (float)a;
    f[2 * i + 1] = (float)sa;
}
`;
g.test('long_long_operators', 'C++ [expr.add], [expr.mul], [expr.shift], [expr.rel], [conv.fpint] on 64-bit operands: wrap modulo 2^64, / truncates, % takes the dividend\'s sign').run(() => {
  const T = 40;
  const M = (1n << 64n) - 1n;
  const special: [bigint, bigint][] = [
    [0n, 0n], [M, 1n], [1n << 63n, M], [M, M], [(1n << 63n) - 1n, 2n], [123456789012345n, 1000n], [-987654321987n & M, 7n],
    [-5n & M, 3n], [5n & M, -3n & M], [-5n & M, -3n & M], [0xffffffffn, 0x100000000n], [1n << 32n, 33n], [0x8000000000000001n, 63n],
  ];
  const rnd = seeded(4 * T, 77, (r) => r >>> 0);
  const pairs = Array.from({ length: T }, (_, i): [bigint, bigint] => special[i] ?? [BigInt(rnd[4 * i]!) | (BigInt(rnd[4 * i + 1]!) << 32n), BigInt(rnd[4 * i + 2]! >>> (i % 3 === 0 ? 20 : 0)) | (i % 2 ? 0n : BigInt(rnd[4 * i + 3]!) << 32n)]);
  const w = new Uint32Array(4 * T);
  pairs.forEach(([a, b], i) => w.set([Number(a & 0xffffffffn), Number(a >> 32n), Number(b & 0xffffffffn), Number(b >> 32n)], 4 * i));
  const s = (v: bigint): bigint => BigInt.asIntN(64, v);
  const u = (v: bigint): bigint => BigInt.asUintN(64, v);
  const out: number[] = [];
  const f: number[] = [];
  for (const [a, b] of pairs) {
    const sa = s(a);
    const sb = s(b);
    const sh = b & 63n;
    const r = [
      u(a + b), u(a - b), u(a * b), b ? a / b : 0n, b ? a % b : 0n, sb ? u(sa / sb) : 0n, sb ? u(sa % sb) : 0n,
      u(sa >> sh), a >> sh, u(a << sh),
      BigInt(Number(a < b) | (Number(sa < sb) << 1) | (Number(a === b) << 2) | (Number(sa >= sb) << 3) | (Number(s(-sa) > 0n) << 4) | (Number(u(~a) === 0n) << 5)),
    ];
    for (const v of r) out.push(Number(v & 0xffffffffn), Number(v >> 32n));
    f.push(bigToF32(a), bigToF32(sa));
  }
  return {
    from: 'reference',
    source: LL_OPS,
    kernel: 'wideOps',
    launch: { grid: dim3(1), block: dim3(64) },
    args: { w, out: new Uint32Array(out.length), f: new Float32Array(2 * T), n: T },
    expect: { out, f },
    warnings: [
      { line: at(LL_OPS, 'unsigned long long a').line, includes: W64 },
      { line: at(LL_OPS, 'long long sa').line, includes: W64 },
      { line: at(LL_OPS, 'unsigned long long r').line, includes: W64 },
    ],
    mayWarn: ['64 bits'],
  };
});

const LL_FROM_FLOAT = cu`
__global__ void truncWide(const float* x, int* lo, int* hi)
{
    int i = threadIdx.x;
    long long v = (long long)x[i];
    lo[i] = (int)v;
    hi[i] = (int)(v >> 32);
}
`;
g.test('long_long_from_float', 'C++ [conv.fpint]: a float converts to long long by truncation toward zero, exactly when it fits').run(() => {
  const x = Float32Array.from(iota(N), (i) => (i % 2 ? -1 : 1) * (i * 1.75 + 2 ** (i % 40) * 1.5));
  const v = Array.from(x, (f) => BigInt(Math.trunc(f)));
  return {
    from: 'reference',
    source: LL_FROM_FLOAT,
    kernel: 'truncWide',
    launch: one,
    args: { x, lo: new Int32Array(N), hi: new Int32Array(N) },
    expect: { lo: v.map((b) => Number(BigInt.asIntN(32, b))), hi: v.map((b) => Number(BigInt.asIntN(32, b >> 32n))) },
    warnings: [{ line: at(LL_FROM_FLOAT, 'long long v').line, includes: W64 }],
  };
});

const LONG = cu`
__global__ void longs(const int* in, int* out)
{
    int i = threadIdx.x;
    long v = in[i];
    v *= 4;
    out[i] = (int)(v / 2);
}
`;
g.test('long_is_64_bit', `${FUND}: long is 64-bit (LP64), so it is warned about too`).run(() => ({
  from: 'reference',
  source: LONG,
  kernel: 'longs',
  launch: one,
  args: { in: Int32Array.from(iota(N), (i) => i - 40), out: new Int32Array(N) },
  expect: { out: iota(N).map((i) => (i - 40) * 2) },
  warnings: [{ line: at(LONG, 'long v').line, includes: W64 }],
}));

const SIZE_T = cu`
#include <cstddef>

__global__ void copyWithSizeT(const float* in, float* out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i];
    }
}
`;
g.test('size_t_index', `${FUND}: size_t is unsigned long, 64-bit`).run(() => ({
  from: 'reference',
  source: SIZE_T,
  kernel: 'copyWithSizeT',
  launch: { grid: dim3(2), block: dim3(64) },
  args: { in: Float32Array.from(iota(100), (i) => i / 8), out: new Float32Array(100), n: 100 },
  expect: { out: iota(100).map((i) => i / 8) },
  warnings: [{ line: at(SIZE_T, 'size_t i').line, includes: W64 }],
}));

const DOUBLE = cu`
__global__ void halve(const float* in, float* out)
{
    int i = threadIdx.x;
    double d = in[i];
    d = d * 0.5;
    out[i] = (float)d;
}
`;
g.test('double_local', 'Issue §2: double is warned about at its line; values exact in float agree').run(() => ({
  from: 'reference',
  source: DOUBLE,
  kernel: 'halve',
  launch: one,
  args: { in: Float32Array.from(iota(N), (i) => i * 3 - 50), out: new Float32Array(N) },
  expect: { out: iota(N).map((i) => (i * 3 - 50) / 2) },
  warnings: [{ line: at(DOUBLE, 'double d').line, includes: ['double'] }],
}));

const DOUBLE_LITERAL = cu`
__global__ void scaleByLiteral(const float* in, float* out)
{
    int i = threadIdx.x;
    out[i] = in[i] * 0.5;
}
`;
g.test('double_literal_in_float_expression', 'C++ [lex.fcon], [expr.arith.conv]: 0.5 is a double, so in[i] * 0.5 is computed in double').run(() => ({
  from: 'reference',
  source: DOUBLE_LITERAL,
  kernel: 'scaleByLiteral',
  launch: one,
  args: { in: Float32Array.from(iota(N), (i) => i + 0.25), out: new Float32Array(N) },
  expect: { out: iota(N).map((i) => (i + 0.25) / 2) },
  warnings: [{ line: at(DOUBLE_LITERAL, '0.5').line, includes: ['double'] }],
}));

g.test('float_suffix_no_warning', 'C++ [lex.fcon]: 0.5f is a float: nothing to warn about').run(() => ({
  from: 'reference',
  source: cu`
__global__ void scaleByFloat(const float* in, float* out)
{
    int i = threadIdx.x;
    out[i] = in[i] * 0.5f + 1.0f;
}
`,
  kernel: 'scaleByFloat',
  launch: one,
  args: { in: Float32Array.from(iota(N)), out: new Float32Array(N) },
  expect: { out: iota(N).map((i) => i / 2 + 1) },
}));

const UNKNOWN_TYPE = cu`
__global__ void k(int* out)
{
    vec3_t p;
    out[0] = 0;
}
`;
g.test('value_initialization', 'C++ [expr.type.conv], [dcl.init]: T() value-initializes, zero for an arithmetic T').run(() => ({
  from: 'reference',
  source: cu`
template <typename T>
__device__ T orZero(const T* a, int i, int n)
{
    if (i < n) return a[i];
    return T();
}

__global__ void pad(const int* a, const float* b, int* outA, float* outB, int n)
{
    int i = threadIdx.x;
    outA[i] = orZero(a, i, n) + int();
    outB[i] = orZero(b, i, n) + float();
}
`,
  kernel: 'pad',
  launch: { grid: dim3(1), block: dim3(8) },
  args: { a: Int32Array.from([5, -6, 7]), b: Float32Array.from([0.5, -1.5, 2.5]), outA: new Int32Array(8), outB: new Float32Array(8), n: 3 },
  expect: { outA: [5, -6, 7, 0, 0, 0, 0, 0], outB: [0.5, -1.5, 2.5, 0, 0, 0, 0, 0] },
}));

g.test('unknown_type', 'C++ [dcl.type]: a type name must be declared').error(() => ({
  source: UNKNOWN_TYPE,
  error: { ...at(UNKNOWN_TYPE, 'vec3_t'), includes: ['vec3_t'] },
}));

const VEC = 'CUDA Programming Guide, Built-in Vector Types (float4, int4: structs of x, y, z, w; make_float4)';
const ARROW = 'C++ [expr.ref]: E1->E2 is (*(E1)).E2';

g.test('vector_component_through_pointer', `${VEC}; ${ARROW}: a device function stores one float of a shared float4 through float4 *`).run(() => ({
  from: 'reference',
  source: cu`
__device__ void setLane(float4 *v, unsigned k, float value)
{
    if (k == 0) v->x = value;
    else if (k == 1) v->y = value;
    else if (k == 2) v->z = value;
    else v->w = value;
}

__global__ void gather(const float* in, float4* out)
{
    __shared__ float4 tile[16];
    unsigned t = threadIdx.x;
    setLane(&tile[t / 4], t % 4, in[t]);
    __syncthreads();
    if (t < 16) out[t] = make_float4(tile[t].w, tile[t].z, tile[t].y, tile[t].x);
}
`,
  kernel: 'gather',
  launch: one,
  args: { in: Float32Array.from(iota(N), (i) => i * 1.5 - 7), out: new Float32Array(N) },
  expect: { out: iota(N).map((k) => (Math.floor(k / 4) * 4 + 3 - (k % 4)) * 1.5 - 7) },
}));

g.test('vector_component_picked_by_branches', `${VEC}: a float4 has no operator[]; an if chain on k writes the component it names, in global and shared memory, with and without a last else`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void pick(const int* key, float4* out, int4* tally, float2* half)
{
    __shared__ int4 mine[64];
    unsigned t = threadIdx.x;
    int k = key[t];
    float v = t + 0.5f;
    out[t] = make_float4(-1.0f, -1.0f, -1.0f, -1.0f);
    // 0, 1, 2 pick x, y, z; every other key (negative, 3 and up) takes the else: w.
    if (k == 0) out[t].x = v;
    else if (k == 1) out[t].y = v;
    else if (k == 2) out[t].z = v;
    else out[t].w = v;
    // No else, tests in another order: keys 0 ... 3 add to their component, the others to none.
    mine[t] = make_int4(10, 20, 30, 40);
    if (k == 1) mine[t].y += 5;
    else if (0 == k) { mine[t].x += 5; }
    else if (k == 3) mine[t].w += 5;
    else if (k == 2) mine[t].z += 5;
    tally[t] = mine[t];
    // Two components, the key an expression.
    half[t] = make_float2(0.0f, 0.0f);
    if (t % 3 == 0) half[t].x = v;
    else half[t].y = v;
}
`,
  kernel: 'pick',
  launch: one,
  args: { key: Int32Array.from(iota(N), (t) => (t % 9) - 2), out: new Float32Array(4 * N), tally: new Int32Array(4 * N), half: new Float32Array(2 * N) },
  expect: {
    out: iota(N).flatMap((t) => {
      const k = (t % 9) - 2;
      return [0, 1, 2, 3].map((c) => (c === (k >= 0 && k <= 2 ? k : 3) ? t + 0.5 : -1));
    }),
    tally: iota(N).flatMap((t) => {
      const k = (t % 9) - 2;
      return [10, 20, 30, 40].map((x, c) => (c === k ? x + 5 : x));
    }),
    half: iota(N).flatMap((t) => (t % 3 === 0 ? [t + 0.5, 0] : [0, t + 0.5])),
  },
}));

g.test('vector_built_from_one_operation_per_component', `${VEC}: make_float4 of fmaf, fmaxf or an arithmetic operator on matching components gives each component its scalar result; a shared scalar operand counts once per component`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void combine(const float4* p, const float* s, float4* fused, float4* diff, float4* scaled, float4* biggest)
{
    unsigned t = threadIdx.x;
    float4 b = p[t], c = p[t + 64];
    float a = s[t];
    fused[t] = make_float4(fmaf(a, b.x, c.x), fmaf(a, b.y, c.y), fmaf(a, b.z, c.z), fmaf(a, b.w, c.w));
    diff[t] = make_float4(c.x - b.x, c.y - b.y, c.z - b.z, c.w - b.w);
    scaled[t] = make_float4(b.x * a, b.y * a, b.z * a, b.w * a);
    biggest[t] = make_float4(fmaxf(b.x, c.x), fmaxf(b.y, c.y), fmaxf(b.z, c.z), fmaxf(b.w, c.w));
}
`,
  kernel: 'combine',
  launch: one,
  args: {
    p: Float32Array.from(iota(8 * N), (i) => ((i * 37) % 23) / 4 - 2.75),
    s: Float32Array.from(iota(N), (t) => (t % 5) + 0.5),
    fused: new Float32Array(4 * N),
    diff: new Float32Array(4 * N),
    scaled: new Float32Array(4 * N),
    biggest: new Float32Array(4 * N),
  },
  expect: (() => {
    const p = (i: number) => Math.fround(((i * 37) % 23) / 4 - 2.75);
    const a = (t: number) => (t % 5) + 0.5;
    const each = (f: (t: number, b: number, c: number) => number) => iota(4 * N).map((i) => f(Math.floor(i / 4), p(i), p(i + 4 * N)));
    return {
      fused: each((t, b, c) => Math.fround(a(t) * b + c)),
      diff: each((_t, b, c) => Math.fround(c - b)),
      scaled: each((t, b) => Math.fround(b * a(t))),
      biggest: each((_t, b, c) => Math.max(b, c)),
    };
  })(),
}));

g.test('vector_arrow_read_and_compound', `${VEC}; ${ARROW}: p->y reads, p->x += adds in place, (*p).z and p[1].w name the same members`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void mix(const int4* in, int4* out)
{
    unsigned i = threadIdx.x;
    const int4 *p = in + i;
    int4 *q = out + i;
    *q = make_int4(p->y, (*p).z, p->w - p->x, 0);
    q->x += 100;
    q->w = (i + 1 < blockDim.x) ? p[1].w : -1;
}
`,
  kernel: 'mix',
  launch: one,
  args: { in: Int32Array.from(iota(4 * N), (k) => k * 3 - 50), out: new Int32Array(4 * N) },
  expect: {
    out: iota(N).flatMap((i) => {
      const c = (j: number): number => (4 * i + j) * 3 - 50;
      return [c(1) + 100, c(2), c(3) - c(0), i + 1 < N ? (4 * i + 7) * 3 - 50 : -1];
    }),
  },
}));

g.test('struct_arrow_in_shared', `${ARROW}: a pointer to a user struct in shared memory, written and read through ->`).run(() => ({
  from: 'reference',
  source: cu`
struct Pair { int key; float weight; };

__device__ void fill(Pair *p, int key)
{
    p->key = key;
    p->weight = key * 0.5f;
}

__global__ void pairs(int* keys, float* weights)
{
    __shared__ Pair slots[64];
    unsigned t = threadIdx.x;
    fill(&slots[63 - t], (int)t - 20);
    __syncthreads();
    Pair *mine = &slots[t];
    keys[t] = mine->key;
    weights[t] = mine->weight;
}
`,
  kernel: 'pairs',
  launch: one,
  args: { keys: new Int32Array(N), weights: new Float32Array(N) },
  expect: { keys: iota(N).map((t) => 63 - t - 20), weights: iota(N).map((t) => (63 - t - 20) * 0.5) },
}));

const DOT_ON_POINTER = cu`
__global__ void k(float4* out)
{
    float4 *p = out + threadIdx.x;
    p.x = 1.0f;
}
`;
g.test('dot_on_vector_pointer', `${ARROW}: '.' needs a class object; on a pointer, the member is reached with '->'`).error(() => ({
  source: DOT_ON_POINTER,
  error: { ...at(DOT_ON_POINTER, 'p.x'), includes: ['pointer', '->x'] },
}));

const ARROW_ON_VALUE = cu`
__global__ void k(float4* out)
{
    float4 v = out[threadIdx.x];
    out[threadIdx.x].x = v->y;
}
`;
g.test('arrow_on_vector_value', `${ARROW}: '->' needs a pointer; on a float4 value, the member is reached with '.'`).error(() => ({
  source: ARROW_ON_VALUE,
  error: { ...at(ARROW_ON_VALUE, 'v->y'), includes: ['not a pointer', '.y'] },
}));
