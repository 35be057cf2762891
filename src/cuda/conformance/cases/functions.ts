/**
 * §2 Functions: __global__, __device__ and __host__ __device__ functions with scalar, pointer,
 * reference and struct parameters; templates instantiated by their uses (Programming Guide
 * §"Function Execution Space Specifiers", C++ [temp]).
 */
import { dim3, group, iota } from '../harness.ts';
import { at, cu } from './source.ts';

export const g = group('functions');
const GUIDE = 'CUDA Programming Guide, Function Execution Space Specifiers';
const N = 64;
const one = { grid: dim3(1), block: dim3(N) };

g.test('device_function_returns_value', GUIDE).run(() => ({
  from: 'reference',
  source: cu`
__device__ int square(int x)
{
    return x * x;
}

__global__ void apply(const int* in, int* out)
{
    int i = threadIdx.x;
    out[i] = square(in[i]) + 1;
}
`,
  kernel: 'apply',
  launch: one,
  args: { in: Int32Array.from(iota(N), (i) => i - 20), out: new Int32Array(N) },
  expect: { out: iota(N).map((i) => (i - 20) * (i - 20) + 1) },
}));

g.test('device_function_pointer_out_params', `${GUIDE}; C++ [expr.unary.op] address-of a local`).run(() => ({
  from: 'reference',
  source: cu`
__device__ void divmod10(int v, int* q, int* r)
{
    *q = v / 10;
    *r = v % 10;
}

__global__ void digits(const int* in, int* quot, int* rem)
{
    int i = threadIdx.x;
    int q, r;
    divmod10(in[i], &q, &r);
    quot[i] = q;
    rem[i] = r;
}
`,
  kernel: 'digits',
  launch: one,
  args: { in: Int32Array.from(iota(N), (i) => i * 37 - 1000), quot: new Int32Array(N), rem: new Int32Array(N) },
  expect: {
    quot: iota(N).map((i) => Math.trunc((i * 37 - 1000) / 10)),
    rem: iota(N).map((i) => (i * 37 - 1000) % 10),
  },
}));

g.test('reference_parameters', 'C++ [dcl.ref]: a device function swapping through references').run(() => ({
  from: 'reference',
  source: cu`
__device__ void swapInts(int& a, int& b)
{
    int t = a;
    a = b;
    b = t;
}

__global__ void sortPairs(int* v)
{
    int i = 2 * threadIdx.x;
    int a = v[i], b = v[i + 1];
    if (a > b) swapInts(a, b);
    v[i] = a;
    v[i + 1] = b;
}
`,
  kernel: 'sortPairs',
  launch: { grid: dim3(1), block: dim3(32) },
  args: { v: Int32Array.from(iota(64), (i) => (i * 7919) % 101) },
  expect: {
    v: iota(64).map((i) => {
      const a = ((i & ~1) * 7919) % 101;
      const b = (((i & ~1) + 1) * 7919) % 101;
      return i % 2 === 0 ? Math.min(a, b) : Math.max(a, b);
    }),
  },
}));

const REFS = cu`
__device__ void addTo(int& total, const int& amount)
{
    total += amount;
}

__device__ void minMax(int v, int* lo, int* hi)
{
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
}

__global__ void refs(const int* in, int* acc, int* range)
{
    int i = threadIdx.x;
    addTo(acc[i], in[i] * 3);
    int lo = 1000, hi = -1000;
    for (int k = 0; k < 4; ++k) minMax(in[(i + k) % 64], &lo, &hi);
    int* p = &lo;
    *p -= 1;
    addTo(hi, 1);
    range[2 * i] = lo;
    range[2 * i + 1] = hi;
}
`;
g.test('reference_to_array_element_and_local_pointer', 'C++ [dcl.init.ref]: a reference binds to an array element or a local; a const reference binds to a temporary; C++ [expr.unary.op] &local').run(() => {
  const input = iota(N).map((i) => ((i * 37) % 29) - 14);
  return {
    from: 'reference',
    source: REFS,
    kernel: 'refs',
    launch: one,
    args: { in: Int32Array.from(input), acc: Int32Array.from(iota(N)), range: new Int32Array(2 * N) },
    expect: {
      acc: iota(N).map((i) => i + input[i]! * 3),
      range: iota(N).flatMap((i) => {
        const w = [0, 1, 2, 3].map((k) => input[(i + k) % 64]!);
        return [Math.min(...w) - 1, Math.max(...w) + 1];
      }),
    },
  };
});

const REF_TO_VALUE = cu`
__device__ void twice(int& x) { x *= 2; }

__global__ void k(int* out)
{
    twice(out[0] + 1);
}
`;
g.test('non_const_reference_to_a_value', 'C++ [dcl.init.ref]: a non-const lvalue reference cannot bind to a temporary').error(() => ({
  source: REF_TO_VALUE,
  error: { ...at(REF_TO_VALUE, 'out[0] + 1'), includes: ['reference', 'x'] },
}));

g.test('host_device_function', `${GUIDE}: __host__ __device__ compiles for both sides`).run(() => ({
  from: 'reference',
  source: cu`
__host__ __device__ float lerp(float a, float b, float t)
{
    return a + t * (b - a);
}

__global__ void ramp(float* out, float lo, float hi)
{
    int i = threadIdx.x;
    out[i] = lerp(lo, hi, i / 64.0f);
}

int main()
{
    float x = lerp(0.0f, 1.0f, 0.5f);
    return x > 0.0f ? 0 : 1;
}
`,
  kernel: 'ramp',
  launch: one,
  args: { out: new Float32Array(N), lo: 0, hi: 16 },
  // i/64 and t*16 are exact in binary, so one rounding (or a fused one) gives the same value.
  expect: { out: iota(N).map((i) => i / 4) },
}));

g.test('struct_by_value_and_returned', 'C++ [class]: a struct passed to and returned from a device function').run(() => ({
  from: 'reference',
  source: cu`
struct Range {
    int lo;
    int hi;
};

__device__ Range widen(Range r, int by)
{
    Range w;
    w.lo = r.lo - by;
    w.hi = r.hi + by;
    return w;
}

__device__ int clampTo(Range r, int v)
{
    return v < r.lo ? r.lo : (v > r.hi ? r.hi : v);
}

__global__ void clampAll(const int* in, int* out)
{
    Range r = { 10, 20 };
    Range w = widen(r, 5);
    out[threadIdx.x] = clampTo(w, in[threadIdx.x]);
}
`,
  kernel: 'clampAll',
  launch: one,
  args: { in: Int32Array.from(iota(N)), out: new Int32Array(N) },
  expect: { out: iota(N).map((i) => Math.min(25, Math.max(5, i))) },
}));

g.test('struct_pointer_kernel_parameter', 'CUDA Programming Guide: a kernel parameter pointing to an array of structs').run(() => ({
  from: 'reference',
  source: cu`
struct Particle {
    float x;
    float v;
};

__global__ void step(Particle* p, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].x = p[i].x + p[i].v * dt;
    }
}
`,
  kernel: 'step',
  launch: one,
  args: { p: Float32Array.from(iota(2 * N), (k) => (k % 2 === 0 ? k / 2 : 2)), dt: 0.5, n: N },
  expect: { p: iota(2 * N).map((k) => (k % 2 === 0 ? k / 2 + 1 : 2)) },
  info: { params: { p: { kind: 'buffer', type: 'struct Particle', bytes: 8, access: 'read_write' } } },
}));

const CELLS = cu`
struct Cell {
    int count;
    float sum;
    unsigned int flags;
};

__global__ void accumulate(Cell* cells, const float* samples, int n)
{
    int i = threadIdx.x;
    if (i >= n) return;
    Cell c = { 0, 0.0f };
    for (int k = 0; k < 4; ++k) {
        c.count += 1;
        c.sum += samples[4 * i + k];
    }
    c.flags = cells[i].flags | (1u << (i % 32));
    cells[i] = c;
}
`;
g.test('struct_buffer_mixed_fields_and_aggregate_init', 'C++ [dcl.init.aggr]: fields not in the braced list are zero; a struct of int, float and unsigned in a buffer keeps C\'s layout (12 bytes)').run(() => {
  const T = 48;
  const samples = Float32Array.from(iota(4 * T), (k) => (k % 7) * 0.25 - 0.5);
  const words = new Uint32Array(3 * T);
  for (let i = 0; i < T; i++) words.set([7, 0x3f800000, 0x80000000 >>> (i % 3)], 3 * i);
  const want = new Uint32Array(3 * T);
  const f = new Float32Array(1);
  for (let i = 0; i < T; i++) {
    let sum = 0;
    for (let k = 0; k < 4; k++) sum = Math.fround(sum + samples[4 * i + k]!);
    f[0] = sum;
    want.set([4, new Uint32Array(f.buffer)[0]!, ((0x80000000 >>> (i % 3)) | (1 << (i % 32))) >>> 0], 3 * i);
  }
  return {
    from: 'reference',
    source: CELLS,
    kernel: 'accumulate',
    launch: one,
    args: { cells: words, samples, n: T },
    expect: { cells: Array.from(want) },
    info: { params: { cells: { kind: 'buffer', type: 'struct Cell', bytes: 12, access: 'read_write' } } },
  };
});

const STRUCT_OF_CHARS = cu`
struct Pixel {
    unsigned char r, g, b;
};

__global__ void gray(Pixel* img, int n)
{
    int i = threadIdx.x;
    if (i < n) img[i].r = img[i].g;
}
`;
g.test('struct_buffer_of_small_fields', 'Issue §2: a buffer of structs whose fields are not 32-bit numbers is outside the subset (WGSL cannot lay them out as C does)').error(() => ({
  nvccAccepts: true,
  source: STRUCT_OF_CHARS,
  error: { ...at(STRUCT_OF_CHARS, 'Pixel* img'), includes: ['img', 'Pixel', 'unsigned char'] },
}));

g.test('scalar_parameters_of_each_type', 'CUDA Programming Guide: kernel parameters are passed by value').run(() => ({
  from: 'reference',
  source: cu`
__global__ void mix(int* out, int a, unsigned int b, float c, bool flag, char ch, short s)
{
    out[0] = a;
    out[1] = (int)(b / 2u);
    out[2] = (int)(c * 4.0f);
    out[3] = flag ? 1 : 0;
    out[4] = ch;
    out[5] = s;
}
`,
  kernel: 'mix',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { out: new Int32Array(6), a: -7, b: 4000000000, c: 2.75, flag: true, ch: -3, s: -1234 },
  expect: { out: [-7, 2000000000, 11, 1, -3, -1234] },
  info: { params: { a: { kind: 'scalar', type: 'int' }, b: { kind: 'scalar', type: 'unsigned int' }, c: { kind: 'scalar', type: 'float' }, out: { kind: 'buffer', type: 'int', access: 'read_write' } } },
}));

g.test('nested_device_calls', GUIDE).run(() => ({
  from: 'reference',
  source: cu`
__device__ int inc(int x) { return x + 1; }
__device__ int twiceInc(int x) { return inc(inc(x)); }
__device__ int combine(int a, int b) { return twiceInc(a) * b; }

__global__ void nest(int* out)
{
    int t = threadIdx.x;
    out[t] = combine(t, t - 3);
}
`,
  kernel: 'nest',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => (t + 2) * (t - 3)) },
}));

g.test('early_return_in_device_function', 'C++ [stmt.return] inside a loop of a device function').run(() => ({
  from: 'reference',
  source: cu`
__device__ int firstAbove(const int* v, int n, int limit)
{
    for (int k = 0; k < n; ++k) {
        if (v[k] > limit) return k;
    }
    return -1;
}

__global__ void search(const int* v, int* out, int n)
{
    out[threadIdx.x] = firstAbove(v, n, threadIdx.x * 3);
}
`,
  kernel: 'search',
  launch: one,
  args: { v: Int32Array.from(iota(16), (k) => k * k), out: new Int32Array(N), n: 16 },
  expect: { out: iota(N).map((t) => iota(16).findIndex((k) => k * k > t * 3)) },
}));

g.test('inline_specifiers', `${GUIDE}: __forceinline__ and __noinline__`).run(() => ({
  from: 'reference',
  source: cu`
__forceinline__ __device__ int add3(int x) { return x + 3; }
__noinline__ __device__ int mul5(int x) { return x * 5; }
static __device__ inline int sub1(int x) { return x - 1; }

__global__ void chain(int* out)
{
    out[threadIdx.x] = sub1(mul5(add3(threadIdx.x)));
}
`,
  kernel: 'chain',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => (t + 3) * 5 - 1) },
}));

g.test('default_argument', 'C++ [dcl.fct.default]').run(() => ({
  from: 'reference',
  source: cu`
__device__ int addk(int x, int k = 5)
{
    return x + k;
}

__global__ void defaults(int* out)
{
    int t = threadIdx.x;
    out[t] = addk(t) * 100 + addk(t, 1);
}
`,
  kernel: 'defaults',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => (t + 5) * 100 + t + 1) },
}));

g.test('overloaded_device_functions', 'C++ [over.match]: overload chosen by argument type').run(() => ({
  from: 'reference',
  source: cu`
__device__ int halve(int x) { return x / 2; }
__device__ float halve(float x) { return x / 2.0f; }

__global__ void halves(int* ints, float* floats)
{
    int t = threadIdx.x;
    ints[t] = halve(2 * t + 1);
    floats[t] = halve(2.0f * t + 1.0f);
}
`,
  kernel: 'halves',
  launch: one,
  args: { ints: new Int32Array(N), floats: new Float32Array(N) },
  expect: { ints: iota(N).map((t) => t), floats: iota(N).map((t) => t + 0.5) },
}));

const OVERLOADS = cu`
__device__ int scale(int x) { return x * 2; }
__device__ float scale(float x) { return x * 0.5f; }
__device__ unsigned int scale(unsigned int x) { return x + 1000u; }
__device__ int first(const int* p) { return p[0] + 1; }
__device__ int first(const float* p) { return (int)(p[0] * 10.0f); }

__global__ void pick(const int* iv, const float* fv, int* ints, unsigned int* uints, float* floats)
{
    char c = 'a';
    short s = -7;
    bool b = true;
    unsigned int u = 5;
    float f = 3.0f;
    ints[0] = scale(c);
    ints[1] = scale(s);
    ints[2] = scale(b);
    uints[0] = scale(u);
    floats[0] = scale(f);
    ints[3] = first(iv);
    ints[4] = first(fv);
}
`;
g.test('overloads_by_promotion_and_pointer_type', 'C++ [over.ics.rank]: an integral promotion beats a conversion; pointers choose by pointee (g++ prints 194 -14 2 1005 1.5 42 25)').run(() => ({
  from: 'literal',
  source: OVERLOADS,
  kernel: 'pick',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { iv: Int32Array.of(41), fv: Float32Array.of(2.5), ints: new Int32Array(5), uints: new Uint32Array(1), floats: new Float32Array(1) },
  expect: { ints: [194, -14, 2, 42, 25], uints: [1005], floats: [1.5] },
}));

const AMBIGUOUS = cu`
__device__ int scale(int x) { return x * 2; }
__device__ float scale(float x) { return x * 0.5f; }

__global__ void k(float* out)
{
    out[0] = scale(2.0);
}
`;
g.test('ambiguous_overload', 'C++ [over.match.best]: double converts to int and to float equally well (g++: "call of overloaded \'scale(double)\' is ambiguous")').error(() => ({
  source: AMBIGUOUS,
  error: { ...at(AMBIGUOUS, 'scale(2.0)'), includes: ['scale', 'ambiguous'] },
}));

g.test('template_device_function_deduced', 'C++ [temp.deduct]: one template, instantiated for int and float by its calls').run(() => ({
  from: 'reference',
  source: cu`
template <typename T>
__device__ T twice(T v)
{
    return v + v;
}

__global__ void both(int* ints, float* floats)
{
    int t = threadIdx.x;
    ints[t] = twice(t - 10);
    floats[t] = twice(t * 0.25f);
}
`,
  kernel: 'both',
  launch: one,
  args: { ints: new Int32Array(N), floats: new Float32Array(N) },
  expect: { ints: iota(N).map((t) => 2 * (t - 10)), floats: iota(N).map((t) => t * 0.5) },
}));

g.test('template_explicit_argument', 'C++ [temp.arg.explicit]: maxOf<unsigned int> converts -1 to 4294967295').run(() => ({
  from: 'reference',
  source: cu`
template <typename T>
__device__ T maxOf(T a, T b)
{
    return a > b ? a : b;
}

__global__ void explicitArgs(unsigned int* asUnsigned, int* asInt)
{
    int t = threadIdx.x;
    asUnsigned[t] = maxOf<unsigned int>(-1, t);
    asInt[t] = maxOf<int>(-1, t);
}
`,
  kernel: 'explicitArgs',
  launch: one,
  args: { asUnsigned: new Uint32Array(N), asInt: new Int32Array(N) },
  expect: { asUnsigned: iota(N).map(() => 0xffffffff), asInt: iota(N).map((t) => t) },
}));

const TEMPLATE_KERNEL = cu`
#include <cuda_runtime.h>

template <int BLOCK>
__global__ void blockSum(const int* in, int* out)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

template <typename T>
__global__ void scale(T* v, T by)
{
    v[threadIdx.x] *= by;
}

int main()
{
    int *d_in, *d_out;
    float* d_f;
    cudaMalloc(&d_in, 128 * sizeof(int));
    cudaMalloc(&d_out, 2 * sizeof(int));
    cudaMalloc(&d_f, 64 * sizeof(float));
    blockSum<64><<<2, 64>>>(d_in, d_out);
    scale<float><<<1, 64>>>(d_f, 1.5f);
    scale<int><<<1, 64>>>(d_in, 3);
    cudaDeviceSynchronize();
    return 0;
}
`;

g.test('template_kernel_value_parameter', 'C++ [temp.inst]: blockSum<64> instantiated by its launch in main()').run(() => ({
  from: 'reference',
  source: TEMPLATE_KERNEL,
  kernel: 'blockSum<64>',
  launch: { grid: dim3(2), block: dim3(64) },
  args: { in: Int32Array.from(iota(128)), out: new Int32Array(2) },
  expect: { out: [2016, 6112] }, // 0 + … + 63, 64 + … + 127
  info: { staticSharedBytes: 256 },
}));

g.test('template_kernel_type_parameter', 'C++ [temp.inst]: scale<T> instantiated for the types its launches name')
  .params([{ T: 'float' }, { T: 'int' }])
  .run(({ T }) => ({
    from: 'reference',
    source: TEMPLATE_KERNEL,
    kernel: `scale<${T}>`,
    launch: one,
    args: T === 'float' ? { v: Float32Array.from(iota(N)), by: 1.5 } : { v: Int32Array.from(iota(N), (i) => i - 32), by: 3 },
    expect: { v: T === 'float' ? iota(N).map((i) => i * 1.5) : iota(N).map((i) => (i - 32) * 3) },
    info: { params: { v: { type: T as 'float' | 'int' } } },
  }));

g.test('several_kernels_in_one_file', 'CUDA Programming Guide: each __global__ function is its own entry point').run(() => ({
  from: 'reference',
  source: cu`
__global__ void fill(int* out, int v)
{
    out[threadIdx.x] = v;
}

__global__ void iotaKernel(int* out)
{
    out[threadIdx.x] = threadIdx.x;
}
`,
  kernel: 'iotaKernel',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N) },
}));

g.test('whole_program_host_code_ignored', 'Issue §1: a whole .cu file is accepted; host code is parsed to find the kernels').run(() => ({
  from: 'reference',
  source: cu`
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void vecAdd(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv)
{
    const int n = 100;
    size_t bytes = n * sizeof(float);
    float* h = (float*)malloc(bytes);
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    dim3 block(64);
    dim3 grid((n + block.x - 1) / block.x);
    vecAdd<<<grid, block>>>(da, db, dc, n);
    CHECK(cudaMemcpy(h, dc, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) printf("%f\n", h[i]);
    free(h);
    return 0;
}
`,
  kernel: 'vecAdd',
  launch: { grid: dim3(2), block: dim3(64) },
  args: { a: Float32Array.from(iota(100)), b: Float32Array.from(iota(100), (i) => 0.5 * i), c: new Float32Array(100), n: 100 },
  expect: { c: iota(100).map((i) => 1.5 * i) },
  info: { params: { a: { access: 'read' }, b: { access: 'read' }, c: { access: 'read_write' }, n: { kind: 'scalar' } } },
}));

// ---- errors

const HOST_CALL = cu`
int hostHelper(int x)
{
    return x * 2;
}

__global__ void useHost(int* out)
{
    out[threadIdx.x] = hostHelper(threadIdx.x);
}
`;
g.test('host_function_called_from_device', `${GUIDE}: a __host__ function cannot be called from device code`).error(() => ({
  source: HOST_CALL,
  error: { ...at(HOST_CALL, 'hostHelper(threadIdx'), includes: ['hostHelper', 'host'] },
}));

const RECURSION = cu`
__device__ int fact(int n)
{
    if (n <= 1) return 1;
    return n * fact(n - 1);
}

__global__ void facts(int* out)
{
    out[threadIdx.x] = fact(threadIdx.x % 8);
}
`;
g.test('recursion_in_device_code', 'Issue §2: WGSL has no recursion; a recursive device function is outside the subset').error(() => ({
  nvccAccepts: true,
  source: RECURSION,
  error: { ...at(RECURSION, 'fact(n - 1)'), includes: ['fact', 'recurs'] },
}));

const UNDECLARED = cu`
__global__ void count(int* out)
{
    int t = threadIdx.x;
    out[t] = t + offset;
}
`;
g.test('undeclared_identifier', 'C++ [basic.lookup]: a name must be declared before use').error(() => ({
  source: UNDECLARED,
  error: { ...at(UNDECLARED, 'offset'), includes: ['offset'] },
}));

const UNDECLARED_FN = cu`
__global__ void callMissing(float* out)
{
    out[threadIdx.x] = smoothStep(0.5f);
}
`;
g.test('undeclared_function', 'C++ [basic.lookup]: a called function must be declared').error(() => ({
  source: UNDECLARED_FN,
  error: { ...at(UNDECLARED_FN, 'smoothStep'), includes: ['smoothStep'] },
}));

const GLOBAL_RETURNS = cu`
__global__ int notVoid(int* out)
{
    out[0] = 1;
    return 0;
}
`;
g.test('global_function_must_return_void', `${GUIDE}: a __global__ function must have void return type`).error(() => ({
  source: GLOBAL_RETURNS,
  error: { ...at(GLOBAL_RETURNS, 'int notVoid'), includes: ['__global__', 'void'] },
}));

const GLOBAL_CALLED = cu`
__global__ void child(int* out)
{
    out[threadIdx.x] = 1;
}

__global__ void parent(int* out)
{
    child(out);
}
`;
g.test('global_function_called_like_a_function', `${GUIDE}: a __global__ function is launched with <<<…>>>, not called`).error(() => ({
  source: GLOBAL_CALLED,
  error: { ...at(GLOBAL_CALLED, 'child(out)'), includes: ['child'] },
}));

const WRONG_ARITY = cu`
__device__ int add(int a, int b)
{
    return a + b;
}

__global__ void k(int* out)
{
    out[threadIdx.x] = add(threadIdx.x);
}
`;
g.test('too_few_arguments', 'C++ [expr.call]: a call must supply every parameter without a default').error(() => ({
  source: WRONG_ARITY,
  error: { ...at(WRONG_ARITY, 'add(threadIdx'), includes: ['add'] },
}));

// C++ [temp.explicit]: an explicit instantiation definition names the template, its arguments
// (trailing ones deduced from the parameter types, [temp.deduct.decl]) and instantiates it even
// when nothing in the file launches or calls it. nvcc wants a __global__ template's instantiation
// to say __global__ ("redeclared without __global__"); a __device__ one may leave it out.
const EXPLICIT_INSTANCES = cu`
template <typename T>
__global__ void scaleBy(T* v, T by, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = v[i] * by;
}

template <int K>
__global__ void addK(int* v)
{
    v[threadIdx.x] += K;
}

template __global__ void scaleBy<float>(float*, float, int);
template __global__ void scaleBy(int*, int, int);
template __global__ void addK<7>(int*);
`;
g.test('explicit_instantiation_of_kernel', 'C++ [temp.explicit]: `template __global__ void f<float>(float*, …);` makes the instance without a launch')
  .params([{ kernel: 'scaleBy<float>' }, { kernel: 'scaleBy<int>' }, { kernel: 'addK<7>' }])
  .run(({ kernel }) => ({
    from: 'reference',
    source: EXPLICIT_INSTANCES,
    kernel,
    launch: one,
    args:
      kernel === 'scaleBy<float>' ? { v: Float32Array.from(iota(N), (i) => i - 10), by: 2.5, n: 50 }
      : kernel === 'scaleBy<int>' ? { v: Int32Array.from(iota(N), (i) => i - 10), by: -3, n: 50 }
      : { v: Int32Array.from(iota(N)) },
    expect: {
      v: kernel === 'scaleBy<float>' ? iota(N).map((i) => (i < 50 ? (i - 10) * 2.5 : i - 10))
        : kernel === 'scaleBy<int>' ? iota(N).map((i) => (i < 50 ? (i - 10) * -3 : i - 10))
        : iota(N).map((i) => i + 7),
    },
  }));

g.test('explicit_instantiation_of_device_function', 'C++ [temp.explicit]: a __device__ function template instantiated explicitly, with and without __device__, then called').run(() => ({
  from: 'reference',
  source: cu`
template <typename T>
__device__ T cube(T x)
{
    return x * x * x;
}

template __device__ int cube<int>(int);
template float cube(float);

__global__ void cubes(const int* in, int* iout, float* fout)
{
    int i = threadIdx.x;
    iout[i] = cube(in[i]);
    fout[i] = cube<float>(in[i] * 0.5f);
}
`,
  kernel: 'cubes',
  launch: one,
  args: { in: Int32Array.from(iota(N), (i) => i - 32), iout: new Int32Array(N), fout: new Float32Array(N) },
  expect: { iout: iota(N).map((i) => (i - 32) ** 3), fout: iota(N).map((i) => ((i - 32) * 0.5) ** 3) },
}));

g.test('template_arguments_from_the_enclosing_template', 'C++ [temp.dep]: plusOne<T> and times<N / 2> inside a template take the enclosing instance\'s arguments').run(() => ({
  from: 'reference',
  source: cu`
template <typename T>
__device__ T plusOne(T x)
{
    return x + T(1);
}

template <int N>
__device__ int times(int x)
{
    return x * N;
}

template <typename T, int N>
__device__ T mix(T x)
{
    return plusOne<T>(x) + times<N / 2>(N);
}

template <typename T, int N>
__global__ void mixAll(T* v)
{
    v[threadIdx.x] = mix<T, N>(v[threadIdx.x]);
}

int main()
{
    int* d;
    mixAll<int, 8><<<1, 64>>>(d);
    return 0;
}
`,
  kernel: 'mixAll<int, 8>',
  launch: one,
  args: { v: Int32Array.from(iota(N), (i) => i - 5) },
  expect: { v: iota(N).map((i) => i - 5 + 1 + 32) },
}));

// Explicit instantiations CUDA refuses, each reported at the instantiated name.
const FILL_TEMPLATE = cu`
template <typename T>
__global__ void fill(T* v, int n)
{
    if (threadIdx.x < n) v[threadIdx.x] = T(1);
}
`;
const BAD_INSTANCES: Readonly<Record<string, { why: string; source: string; at: string; includes: string[] }>> = {
  without_global: {
    why: 'nvcc: a __global__ function template instantiated explicitly without __global__ is "redeclared without __global__"',
    source: `${FILL_TEMPLATE}\ntemplate void fill<float>(float*, int);\n`,
    at: 'fill<float>',
    includes: ['fill', '__global__'],
  },
  undeclared_template: {
    why: 'C++ [temp.explicit]: the template must be declared before its explicit instantiation',
    source: `${FILL_TEMPLATE}\ntemplate __global__ void fil<float>(float*, int);\n`,
    at: 'fil<float>',
    includes: ['fil'],
  },
  parameters_mismatch: {
    why: 'C++ [temp.explicit]: the declaration must match the template (two parameters, one given)',
    source: `${FILL_TEMPLATE}\ntemplate __global__ void fill<float>(float*);\n`,
    at: 'fill<float>',
    includes: ['fill'],
  },
};
g.test('explicit_instantiation_refused', 'C++ [temp.explicit] and nvcc: instantiations that name no template, match none, or drop __global__')
  .params(Object.keys(BAD_INSTANCES).map((what) => ({ what })))
  .error(({ what }) => {
    const c = BAD_INSTANCES[what]!;
    return { source: c.source, error: { ...at(c.source, c.at), includes: c.includes } };
  });

const SPECIALIZATION = cu`
template <int N>
__device__ int level(int x)
{
    return level<N - 1>(x) + 1;
}

template <>
__device__ int level<0>(int x)
{
    return x;
}

__global__ void k(int* v)
{
    v[threadIdx.x] = level<3>(v[threadIdx.x]);
}
`;
g.test('explicit_specialization_outside_subset', 'C++ [temp.expl.spec]: template<> is valid CUDA outside the subset; it is named at its line').error(() => ({
  nvccAccepts: true,
  source: SPECIALIZATION,
  error: { ...at(SPECIALIZATION, 'template <>'), includes: ['template<>'] },
}));

const SELF_LAUNCH = cu`
template <typename T>
__global__ void grow(T* v, int n)
{
    if (threadIdx.x < n) v[threadIdx.x] *= 2;
    if (n > 1) grow<T><<<1, 32>>>(v, n / 2);
}

template __global__ void grow<float>(float*, int);
`;
g.test('template_kernel_launching_itself', 'CUDA Programming Guide, CUDA Dynamic Parallelism: a launch from device code (nvcc needs -rdc=true for it); outside the subset').error(() => ({
  nvccAccepts: true,
  source: SELF_LAUNCH,
  error: { ...at(SELF_LAUNCH, 'grow<T><<<'), includes: ['launch'] },
}));

g.test('functional_cast_to_template_type_and_bool_parameter', 'C++ [expr.type.conv]: T(0) converts to the template type parameter; a bool template argument names the instance as C++ prints it (f<int, true>)')
  .params([{ kernel: 'pick<int, true>' }, { kernel: 'pick<float, false>' }])
  .run(({ kernel }) => {
    const isInt = kernel.includes('int');
    const v = iota(N).map((i) => i - 20);
    return {
      from: 'reference',
      source: cu`
template <typename T, bool NEGATE>
__global__ void pick(const T* in, T* out)
{
    int i = threadIdx.x;
    T zero = T(0);
    T v = in[i] > zero ? in[i] : T(i % 3);
    out[i] = NEGATE ? -v : v;
}

int main()
{
    int* di;
    float* df;
    pick<int, true><<<1, 64>>>(di, di);
    pick<float, false><<<1, 64>>>(df, df);
    return 0;
}
`,
      kernel,
      launch: one,
      args: isInt ? { in: Int32Array.from(v), out: new Int32Array(N) } : { in: Float32Array.from(v), out: new Float32Array(N) },
      expect: { out: v.map((x, i) => { const r = x > 0 ? x : i % 3; return isInt ? -r : r; }) },
    };
  });

g.test('by_value_parameter_passed_to_writing_reference', 'C++ [expr.call]: a parameter is initialised with a copy of its argument; C++ [dcl.ref]: a callee writing through a reference changes that copy, also where the argument is a constant').run(() => ({
  from: 'reference',
  source: cu`
__device__ void bump(int &k)
{
    k += 3;
}

__device__ int twiceBumped(int k)
{
    bump(k);
    return 2 * k;
}

__global__ void bumped(const int* in, int* out)
{
    int t = threadIdx.x;
    int x = in[t];
    out[t] = twiceBumped(x) + twiceBumped(10) + x;
}
`,
  kernel: 'bumped',
  launch: one,
  args: { in: Int32Array.from(iota(N), (t) => t * 5 - 40), out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => 2 * (t * 5 - 40 + 3) + 26 + (t * 5 - 40)) },
}));

g.test('struct_parameter_member_assigned', 'C++ [expr.call]: a struct parameter is the callee\'s copy; assigning its member leaves the argument as it was').run(() => ({
  from: 'reference',
  source: cu`
struct Span { int lo; int hi; };

__device__ int widened(Span s, int by)
{
    s.lo -= by;
    s.hi += by;
    return s.hi - s.lo;
}

__global__ void widths(int* out)
{
    int t = threadIdx.x;
    Span s = {t, 2 * t};
    int w = widened(s, 3);
    out[t] = w * 1000 + (s.hi - s.lo);
}
`,
  kernel: 'widths',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => (t + 6) * 1000 + t) },
}));

g.test('local_array_passed_to_device_function', 'C++ [conv.array], [expr.call]: an array argument is a pointer to its first element; the callee reads and writes the caller\'s array through it, whole or from an element on').run(() => ({
  from: 'reference',
  source: cu`
__device__ void fill(const int* in, int* x, int base)
{
    for (int r = 0; r < 4; r++) x[r] = in[base + r] * 2;
}

__device__ int weigh(const int* x)
{
    int s = 0;
    for (int r = 0; r < 4; r++) s += (r + 1) * x[r];
    return s;
}

__global__ void weights(const int* in, int* out)
{
    int t = threadIdx.x;
    int x[6];
    x[4] = -7;
    x[5] = 11;
    fill(in, x, 4 * t);
    out[t] = weigh(x) * 1000 + weigh(x + 2);
}
`,
  kernel: 'weights',
  launch: one,
  args: { in: Int32Array.from(iota(4 * N), (i) => (i * 13) % 29 - 14), out: new Int32Array(N) },
  expect: {
    out: iota(N).map((t) => {
      const x = [0, 1, 2, 3].map((r) => 2 * (((4 * t + r) * 13) % 29 - 14)).concat([-7, 11]);
      const weigh = (o: number): number => [0, 1, 2, 3].reduce((s, r) => s + (r + 1) * x[o + r]!, 0);
      return weigh(0) * 1000 + weigh(2);
    }),
  },
}));
