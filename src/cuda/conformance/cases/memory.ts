/**
 * §2 Memory: global pointers (const, __restrict__, inferred access), pointer arithmetic and
 * pointer locals, __shared__ 1-D and 2-D, extern __shared__ sized by the launch, __constant__,
 * __device__ and __managed__ globals, byte and short buffers (Programming Guide §"Variable Memory
 * Space Specifiers"; C++ [expr.add] for pointers).
 */
import { dim3, group, iota } from '../harness.ts';
import { at, cu } from './source.ts';

export const g = group('memory');
const SPACES = 'CUDA Programming Guide, Variable Memory Space Specifiers';
const PTR = 'C++ [expr.add], [expr.sub]: pointer arithmetic in elements';
const N = 64;
const one = { grid: dim3(1), block: dim3(N) };

g.test('const_restrict_parameters', 'CUDA Programming Guide, __restrict__; issue §2: read-only inferred from const').run(() => ({
  from: 'reference',
  source: cu`
__global__ void saxpy(int n, float a, const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}
`,
  kernel: 'saxpy',
  launch: { grid: dim3(2), block: dim3(64) },
  args: { n: 100, a: 2, x: Float32Array.from(iota(100)), y: Float32Array.from(iota(100), (i) => 100 - i), out: new Float32Array(100) },
  expect: { out: iota(100).map((i) => 2 * i + 100 - i) },
  info: { params: { x: { kind: 'buffer', access: 'read' }, y: { access: 'read' }, out: { access: 'read_write' }, n: { kind: 'scalar' }, a: { kind: 'scalar', type: 'float' } } },
}));

g.test('access_inferred_without_const', 'Issue §2: a pointer the kernel never writes is read-only even without const').run(() => ({
  from: 'reference',
  source: cu`
__global__ void copy(int* src, int* dst)
{
    dst[threadIdx.x] = src[threadIdx.x];
}
`,
  kernel: 'copy',
  launch: one,
  args: { src: Int32Array.from(iota(N), (i) => i * i), dst: new Int32Array(N) },
  expect: { dst: iota(N).map((i) => i * i) },
  info: { params: { src: { access: 'read' }, dst: { access: 'read_write' } } },
}));

g.test('in_place_update', 'A buffer read and written by the same thread').run(() => ({
  from: 'reference',
  source: cu`
__global__ void square(int* v)
{
    int i = threadIdx.x;
    v[i] = v[i] * v[i];
}
`,
  kernel: 'square',
  launch: one,
  args: { v: Int32Array.from(iota(N), (i) => i - 30) },
  expect: { v: iota(N).map((i) => (i - 30) * (i - 30)) },
}));

g.test('pointer_arithmetic', PTR).run(() => ({
  from: 'reference',
  source: cu`
__global__ void pairs(const int* in, int* out)
{
    int i = threadIdx.x;
    const int* p = in + 2 * i;
    out[i] = *p + *(p + 1) * 10;
}
`,
  kernel: 'pairs',
  launch: one,
  args: { in: Int32Array.from(iota(2 * N)), out: new Int32Array(N) },
  expect: { out: iota(N).map((i) => 2 * i + (2 * i + 1) * 10) },
}));

g.test('pointer_local_row', `${PTR}: int *row = a + r * n, the row-sum idiom`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void rowSums(const float* a, float* sums, int n)
{
    int r = threadIdx.x;
    const float* row = a + r * n;
    float s = 0.0f;
    for (int c = 0; c < n; ++c) {
        s += row[c];
    }
    sums[r] = s;
}
`,
  kernel: 'rowSums',
  launch: { grid: dim3(1), block: dim3(16) },
  args: { a: Float32Array.from(iota(16 * 12), (k) => k % 7), sums: new Float32Array(16), n: 12 },
  expect: { sums: iota(16).map((r) => iota(12).reduce((s, c) => s + ((r * 12 + c) % 7), 0)) },
}));

g.test('pointer_increment_loop', `${PTR}: ++p up to an end pointer, and p != end`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void sumRange(const int* v, int* out, int n)
{
    const int* begin = v + threadIdx.x * n;
    const int* end = begin + n;
    int s = 0;
    for (const int* p = begin; p != end; ++p) {
        s += *p;
    }
    out[threadIdx.x] = s;
}
`,
  kernel: 'sumRange',
  launch: { grid: dim3(1), block: dim3(8) },
  args: { v: Int32Array.from(iota(40)), out: new Int32Array(8), n: 5 },
  expect: { out: iota(8).map((t) => iota(5).reduce((s, k) => s + t * 5 + k, 0)) },
}));

g.test('negative_subscript_and_difference', `${PTR}: p[-1] and q - p`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void neighbours(const int* in, int* prev, int* dist)
{
    int i = threadIdx.x;
    const int* p = in + i + 1;
    const int* q = in + 3 * i;
    prev[i] = p[-1];
    dist[i] = (int)(q - p);
}
`,
  kernel: 'neighbours',
  launch: one,
  args: { in: Int32Array.from(iota(3 * N), (k) => k * 11), prev: new Int32Array(N), dist: new Int32Array(N) },
  expect: { prev: iota(N).map((i) => i * 11), dist: iota(N).map((i) => 2 * i - 1) },
}));

g.test('pointer_to_shared_passed_to_function', `${SPACES}; C++ [dcl.ptr]: a device function writes through a pointer into shared memory`).run(() => ({
  from: 'reference',
  source: cu`
__device__ void bump(int* p, int by)
{
    *p += by;
}

__global__ void viaShared(int* out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    bump(&s[t], 100);
    __syncthreads();
    out[t] = s[63 - t];
}
`,
  kernel: 'viaShared',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => 63 - t + 100) },
}));

g.test('shared_1d_reverse', `${SPACES}, __shared__`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void reverseBlock(const int* in, int* out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[blockDim.x - 1 - t];
}
`,
  kernel: 'reverseBlock',
  launch: { grid: dim3(3), block: dim3(128) },
  args: { in: Int32Array.from(iota(384), (k) => k * 3), out: new Int32Array(384) },
  expect: { out: iota(384).map((k) => (Math.floor(k / 128) * 128 + 127 - (k % 128)) * 3) },
  info: { staticSharedBytes: 512, dynamicShared: false },
}));

g.test('shared_2d_transpose', `${SPACES}: a 2-D __shared__ tile, padded to 17 columns`).run(() => ({
  from: 'reference',
  source: cu`
#define TILE 16

__global__ void transpose(const float* in, float* out, int width)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    int tx = blockIdx.y * TILE + threadIdx.x;
    int ty = blockIdx.x * TILE + threadIdx.y;
    out[ty * width + tx] = tile[threadIdx.x][threadIdx.y];
}
`,
  kernel: 'transpose',
  launch: { grid: dim3(2, 2), block: dim3(16, 16) },
  args: { in: Float32Array.from(iota(1024)), out: new Float32Array(1024), width: 32 },
  expect: { out: iota(1024).map((k) => (k % 32) * 32 + Math.floor(k / 32)) },
  info: { staticSharedBytes: 16 * 17 * 4 },
}));

g.test('two_shared_arrays_bytes', `${SPACES}: static shared bytes add up over the kernel's arrays`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void twoArrays(int* out)
{
    __shared__ float a[64];
    __shared__ int b[32];
    __shared__ unsigned char c[16];
    int t = threadIdx.x;
    a[t] = t * 0.5f;
    if (t < 32) b[t] = t * 2;
    if (t < 16) c[t] = (unsigned char)(250 + t);
    __syncthreads();
    out[t] = (int)(a[63 - t] * 2.0f) + b[t % 32] + c[t % 16];
}
`,
  kernel: 'twoArrays',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => 63 - t + (t % 32) * 2 + ((250 + (t % 16)) & 255)) },
  info: { staticSharedBytes: 256 + 128 + 16 },
  // Values are exact either way; a note that byte arrays are drawn one per bank word may come.
  mayWarn: ['bank'],
}));

g.test('extern_shared_sized_by_launch', `${SPACES}: extern __shared__ takes the launch's third argument`)
  .params([{ block: 32 }, { block: 128 }])
  .run(({ block }) => ({
    from: 'reference',
    source: cu`
__global__ void reverseDynamic(const float* in, float* out)
{
    extern __shared__ float buf[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    buf[t] = in[base + t];
    __syncthreads();
    out[base + t] = buf[blockDim.x - 1 - t];
}
`,
    kernel: 'reverseDynamic',
    launch: { grid: dim3(2), block: dim3(block), sharedBytes: block * 4 },
    args: { in: Float32Array.from(iota(2 * block)), out: new Float32Array(2 * block) },
    expect: { out: iota(2 * block).map((k) => Math.floor(k / block) * block + block - 1 - (k % block)) },
    info: { dynamicShared: true, staticSharedBytes: 0 },
  }));

g.test('extern_shared_partitioned', `${SPACES}: one extern array carved into two by pointer arithmetic`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void partitions(int* out)
{
    extern __shared__ int pool[];
    int* first = pool;
    int* second = pool + blockDim.x;
    int t = threadIdx.x;
    first[t] = t;
    second[t] = 1000 + t;
    __syncthreads();
    out[t] = first[blockDim.x - 1 - t] + second[(t + 1) % blockDim.x];
}
`,
  kernel: 'partitions',
  launch: { grid: dim3(1), block: dim3(N), sharedBytes: 2 * N * 4 },
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => 63 - t + 1000 + ((t + 1) % 64)) },
}));

g.test('constant_array', `${SPACES}, __constant__`).run(() => ({
  from: 'reference',
  source: cu`
__constant__ float weights[5] = { 1.0f, 4.0f, 6.0f, 4.0f, 1.0f };
__constant__ int RADIUS = 2;

__global__ void blur(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        int j = i + k;
        if (j >= 0 && j < n) s += weights[k + RADIUS] * in[j];
    }
    out[i] = s;
}
`,
  kernel: 'blur',
  launch: { grid: dim3(1), block: dim3(N) },
  args: { in: Float32Array.from(iota(50), (i) => i % 5), out: new Float32Array(50), n: 50 },
  expect: {
    out: iota(50).map((i) => {
      const w = [1, 4, 6, 4, 1];
      let s = 0;
      for (let k = -2; k <= 2; k++) if (i + k >= 0 && i + k < 50) s = Math.fround(s + w[k + 2]! * ((i + k) % 5));
      return s;
    }),
  },
}));

g.test('device_global_variables', `${SPACES}, __device__: a global variable and array, initialised, read and written`).run(() => ({
  from: 'reference',
  source: cu`
__device__ int base = 7;
__device__ int table[4] = { 10, 20, 30, 40 };
__device__ int scratch[64];

__global__ void useGlobals(int* out)
{
    int t = threadIdx.x;
    scratch[t] = table[t % 4] + base;
    __syncthreads();
    out[t] = scratch[63 - t];
}
`,
  kernel: 'useGlobals',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => [10, 20, 30, 40][(63 - t) % 4]! + 7) },
}));

g.test('managed_variable', `${SPACES}, __managed__`).run(() => ({
  from: 'literal',
  source: cu`
__managed__ int scale = 3;

__global__ void useManaged(int* out)
{
    out[threadIdx.x] = threadIdx.x * scale;
}
`,
  kernel: 'useManaged',
  launch: one,
  args: { out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => 3 * t) },
}));

g.test('byte_stores_from_neighbouring_threads', 'C++ [intro.memory]: each byte is its own memory location; neighbours writing adjacent bytes do not clobber each other')
  .params([{ T: 'unsigned char' }, { T: 'unsigned short' }])
  .run(({ T }) => {
    const n = 300;
    const mask = T === 'unsigned char' ? 0xff : 0xffff;
    const arr = T === 'unsigned char' ? Uint8Array : Uint16Array;
    return {
      from: 'reference',
      source: cu`
__global__ void stamp(${T}* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (${T})(i * 37 + 5);
}
`,
      kernel: 'stamp',
      launch: { grid: dim3(5), block: dim3(64) },
      args: { out: new arr(n), n },
      expect: { out: iota(n).map((i) => (i * 37 + 5) & mask) },
    };
  });

g.test('narrow_loads_keep_their_sign', 'C++ [conv.prom]: a signed char or short read from memory promotes with its sign, an unsigned one with zeros, at every byte of a word')
  .params([{ T: 'signed char' }, { T: 'unsigned char' }, { T: 'short' }, { T: 'unsigned short' }])
  .run(({ T }) => {
    const n = 200;
    const bits = T.endsWith('char') ? 8 : 16;
    const signed = !T.startsWith('unsigned');
    const values = iota(n).map((i) => ((i * 91 + 7) % (1 << bits)) - (signed ? 1 << (bits - 1) : 0));
    const input = bits === 8 ? (signed ? Int8Array.from(values) : Uint8Array.from(values)) : signed ? Int16Array.from(values) : Uint16Array.from(values);
    return {
      from: 'reference',
      source: cu`
__global__ void widen(const ${T}* in, int* out, int* back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;   // a non-negative index
    if (i < n) {
        out[i] = in[i] * 3;
        back[i] = in[n - 1 - i];                      // an index the translator cannot bound
    }
}
`,
      kernel: 'widen',
      launch: { grid: dim3(4), block: dim3(64) },
      args: { in: input, out: new Int32Array(n), back: new Int32Array(n), n },
      expect: { out: Array.from(input, (v) => v * 3), back: iota(n).map((i) => input[n - 1 - i]!) },
    };
  });

g.test('local_arrays', 'C++ [dcl.array]: a per-thread array with an initialiser and a dynamic index').run(() => ({
  from: 'reference',
  source: cu`
__global__ void localArrays(const int* in, int* out)
{
    int w[3] = { 1, 2, 1 };
    int tmp[8];
    int t = threadIdx.x;
    for (int k = 0; k < 8; ++k) tmp[k] = in[t] * k;
    out[t] = tmp[in[t] % 8] + w[t % 3];
}
`,
  kernel: 'localArrays',
  launch: one,
  args: { in: Int32Array.from(iota(N), (i) => i * 5 + 1), out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => (t * 5 + 1) * ((t * 5 + 1) % 8) + [1, 2, 1][t % 3]!) },
}));

// ---- errors

const LDG = cu`
__global__ void scaleLdg(const float* __restrict__ in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __ldg(&in[i]) * 2.0f + __ldg(in + (n - 1 - i));
}
`;
g.test('ldg_read_only_load', 'CUDA Programming Guide, Read-Only Data Cache Load Function: __ldg(address) returns the value at address').run(() => {
  const n = 100;
  const input = Float32Array.from(iota(n), (i) => i * 0.75 - 20);
  return {
    from: 'reference',
    source: LDG,
    kernel: 'scaleLdg',
    launch: { grid: dim3(2), block: dim3(64) },
    args: { in: input, out: new Float32Array(n), n },
    expect: { out: iota(n).map((i) => Math.fround(Math.fround(input[i]! * 2) + input[n - 1 - i]!)) },
    info: { params: { in: { access: 'read' }, out: { access: 'read_write' } } },
  };
});

const LDG_VALUE = cu`
__global__ void k(const int* in, int* out)
{
    int v = in[threadIdx.x];
    out[threadIdx.x] = __ldg(v);
}
`;
g.test('ldg_needs_an_address', 'CUDA Programming Guide: __ldg takes a pointer (T __ldg(const T* address))').error(() => ({
  source: LDG_VALUE,
  error: { ...at(LDG_VALUE, 'v)'), includes: ['__ldg', 'pointer'] },
}));

const SHARED_INIT = cu`
__global__ void k(int* out)
{
    __shared__ int s[4] = { 1, 2, 3, 4 };
    out[threadIdx.x] = s[threadIdx.x % 4];
}
`;
g.test('shared_with_initializer', `${SPACES}: __shared__ variables cannot have an initializer`).error(() => ({
  source: SHARED_INIT,
  // At the initializer, the part to remove.
  error: { ...at(SHARED_INIT, '{ 1'), includes: ['__shared__', 'initializ'] },
}));

const WRITE_CONST = cu`
__global__ void k(const int* in, int* out)
{
    out[threadIdx.x] = in[threadIdx.x];
    in[threadIdx.x] = 0;
}
`;
g.test('write_through_const_pointer', 'C++ [dcl.type.cv]: a const int* cannot be written through').error(() => ({
  source: WRITE_CONST,
  error: { ...at(WRITE_CONST, 'in[threadIdx.x] ='), includes: ['const'] },
}));

const SHARED_VLA = cu`
__global__ void k(int* out, int n)
{
    __shared__ int s[n];
    s[threadIdx.x] = 1;
    out[threadIdx.x] = s[0];
}
`;
g.test('shared_size_not_constant', `${SPACES}: a __shared__ array's size must be a constant (use extern __shared__ for a launch-sized one)`).error(() => ({
  source: SHARED_VLA,
  error: { ...at(SHARED_VLA, 'n];'), includes: ['constant'] },
}));

const MALLOC = cu`
__global__ void k(int* out)
{
    int* p = (int*)malloc(16);
    out[0] = p[0];
}
`;
g.test('device_malloc_outside_subset', 'Issue §2: device-side malloc is outside the subset').error(() => ({
  nvccAccepts: true,
  source: MALLOC,
  error: { ...at(MALLOC, 'malloc'), includes: ['malloc'] },
}));

const TOO_MUCH_SHARED = cu`
__global__ void k(float* out)
{
    __shared__ float big[16384];
    big[threadIdx.x] = 1.0f;
    out[threadIdx.x] = big[threadIdx.x];
}
`;
g.test('static_shared_over_48k', 'CUDA Programming Guide, Compute Capabilities: at most 48 KB of static shared memory per block').error(() => ({
  source: TOO_MUCH_SHARED,
  error: { ...at(TOO_MUCH_SHARED, '__shared__'), includes: ['shared'] },
}));

g.test('local_array_sized_by_local_constants', 'C++ [dcl.array], [expr.const]: a constexpr int and a const int initialised by a constant are constant expressions that size a local array').run(() => ({
  from: 'reference',
  source: cu`
__global__ void windowSums(const int* in, int* out, int n)
{
    constexpr int W = 4;
    const int HALF = W / 2;
    int win[W];
    int pair[HALF];
    int i = threadIdx.x;
    for (int k = 0; k < W; ++k) win[k] = in[(i + k) % n];
    for (int k = 0; k < HALF; ++k) pair[k] = win[2 * k] + win[2 * k + 1];
    out[i] = pair[0] * 10 + pair[1];
}
`,
  kernel: 'windowSums',
  launch: one,
  args: { in: Int32Array.from(iota(N), (i) => (i * 7) % 13), out: new Int32Array(N), n: N },
  expect: {
    out: iota(N).map((i) => {
      const w = [0, 1, 2, 3].map((k) => (((i + k) % N) * 7) % 13);
      return (w[0]! + w[1]!) * 10 + w[2]! + w[3]!;
    }),
  },
}));

const SHARED_TABLE = cu`
__constant__ int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };

__global__ void lookUp(const int* idx, int* out)
{
    int i = threadIdx.x;
    out[i] = table[idx[i] & 7];
}

__global__ void weigh(const int* idx, int* out)
{
    int i = threadIdx.x;
    out[i] = idx[i] * table[i % 8];
}
`;
g.test('constant_array_shared_by_two_kernels', `${SPACES}, __constant__: one __constant__ array, read by two kernels of the file`)
  .params([{ kernel: 'lookUp' }, { kernel: 'weigh' }])
  .run(({ kernel }) => {
    const table = [3, 1, 4, 1, 5, 9, 2, 6];
    const idx = Int32Array.from(iota(N), (i) => (i * 5) % 11);
    return {
      from: 'reference',
      source: SHARED_TABLE,
      kernel,
      launch: one,
      args: { idx, out: new Int32Array(N) },
      expect: { out: iota(N).map((i) => (kernel === 'lookUp' ? table[idx[i]! & 7]! : idx[i]! * table[i % 8]!)) },
    };
  });

g.test('address_of_shared_element_unsigned_index', `${SPACES}, __shared__; C++ [expr.unary.op]: &tile[t] with an unsigned index, written through and passed to a device function`).run(() => ({
  from: 'reference',
  source: cu`
__device__ void bump(int* p, int by)
{
    *p += by;
}

__global__ void rotate(const int* in, int* out)
{
    __shared__ int tile[64];
    unsigned int t = threadIdx.x;
    int* mine = &tile[t];
    *mine = in[t];
    bump(&tile[t], 100);
    __syncthreads();
    out[t] = tile[(t + 1u) % 64u];
}
`,
  kernel: 'rotate',
  launch: one,
  args: { in: Int32Array.from(iota(N), (i) => i * 3), out: new Int32Array(N) },
  expect: { out: iota(N).map((t) => ((t + 1) % 64) * 3 + 100) },
}));

g.test('array_size_from_initializer', 'C++ [dcl.init.aggr]: an array declared with [] takes its size from its braced initializer (local and __constant__)').run(() => ({
  from: 'reference',
  source: cu`
__constant__ int weights[] = { 2, 7, 1, 8, 2, 8 };

__global__ void score(const int* in, int* out)
{
    int bonus[] = { 100, 200, 300 };
    int i = threadIdx.x;
    out[i] = in[i] * weights[i % 6] + bonus[i % 3] + (int)(sizeof(weights) / sizeof(weights[0])) * 1000;
}
`,
  kernel: 'score',
  launch: one,
  args: { in: Int32Array.from(iota(N), (i) => i - 7), out: new Int32Array(N) },
  expect: { out: iota(N).map((i) => (i - 7) * [2, 7, 1, 8, 2, 8][i % 6]! + [100, 200, 300][i % 3]! + 6000) },
}));

const SHARED_NO_SIZE = cu`
__global__ void k(int* out)
{
    __shared__ int tile[];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[0];
}
`;
g.test('shared_array_without_size', `${SPACES}: a __shared__ array without a size is incomplete unless it is extern (nvcc: "incomplete type is not allowed")`).error(() => ({
  source: SHARED_NO_SIZE,
  error: { ...at(SHARED_NO_SIZE, 'tile[]'), includes: ['tile', 'extern __shared__'] },
}));

// CUDA Programming Guide, "Volatile Qualifier": the compiler assumes a volatile variable may be
// changed or used at any time by another thread, so every reference to it compiles to a real
// memory access. Accesses keep C's values; each is one load or store (an atomic one in the WGSL).
const VOLATILE = 'CUDA Programming Guide, Volatile Qualifier';
g.test('volatile_buffer', `${VOLATILE}: reads and writes through volatile int, unsigned and float pointers`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void bump(volatile int* counts, volatile unsigned int* flags, volatile float* scale, int* seen)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    counts[i] = counts[i] * 3 - 7;
    flags[i] = flags[i] | (1u << (i % 32));
    scale[i] = scale[i] * 0.5f;
    seen[i] = counts[i] + (int)(flags[i] >> 16);
}
`,
  kernel: 'bump',
  launch: { grid: dim3(2), block: dim3(32) },
  args: {
    counts: Int32Array.from(iota(64), (k) => k - 20),
    flags: Uint32Array.from(iota(64), (k) => (k * 65536) >>> 0),
    scale: Float32Array.from(iota(64), (k) => k - 31.5),
    seen: new Int32Array(64),
  },
  expect: {
    counts: iota(64).map((k) => (k - 20) * 3 - 7),
    flags: iota(64).map((k) => ((k * 65536) | (1 << (k % 32))) >>> 0),
    scale: iota(64).map((k) => (k - 31.5) * 0.5),
    seen: iota(64).map((k) => (k - 20) * 3 - 7 + ((((k * 65536) | (1 << (k % 32))) >>> 0) >>> 16)),
  },
  info: { params: { counts: { atomic: true, access: 'read_write' }, flags: { atomic: true }, scale: { atomic: true }, seen: { atomic: false } } },
}));

g.test('volatile_buffer_template', `${VOLATILE}: a template's volatile T * is volatile in each instance`).run(() => ({
  from: 'reference',
  source: cu`
template <typename T>
__global__ void twice(volatile T* data)
{
    data[threadIdx.x] = data[threadIdx.x] + data[threadIdx.x];
}

void host(unsigned int* d)
{
    twice<unsigned int><<<1, 16>>>(d);
}
`,
  kernel: 'twice<unsigned int>',
  launch: { grid: dim3(1), block: dim3(16) },
  args: { data: Uint32Array.from(iota(16), (k) => k * 1000 + 1) },
  expect: { data: iota(16).map((k) => (k * 1000 + 1) * 2) },
  info: { params: { data: { atomic: true } } },
}));

const VOLATILE_BYTES = cu`
__global__ void mark(volatile char* seen)
{
    seen[threadIdx.x] = 1;
}
`;
g.test('volatile_buffer_of_bytes', `${VOLATILE}: a volatile buffer of 8-bit elements cannot be made of 32-bit atomics`).error(() => ({
  nvccAccepts: true,
  source: VOLATILE_BYTES,
  error: { ...at(VOLATILE_BYTES, 'volatile char'), includes: ['volatile', 'char', '32-bit'] },
}));
