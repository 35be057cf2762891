/**
 * The translation's semantics, construct by construct, run on the simulator against values C
 * gives (computed here by hand or with the C rules spelled out), plus the diagnostics for what the
 * subset refuses and the source map both ways.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../sim/index.ts';
import { compileCudaWith } from './compile.ts';
import { CudaLaunchError, compileCuda, prepareLaunch, type CudaProgram, type KernelArg } from './index.ts';

const dim = (x: number, y = 1, z = 1): { x: number; y: number; z: number } => ({ x, y, z });

function program(src: string): CudaProgram {
  const r = compileCuda(src);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`).join('\n'));
  return r.program;
}

function run(src: string, kernel: string, grid: number, block: number, args: Record<string, KernelArg>, sharedBytes = 0): { out: Record<string, KernelArg>; printed: string[] } {
  const p = program(src);
  const launch = prepareLaunch(p, kernel, { grid: dim(grid), block: dim(block), sharedBytes }, args);
  const r = simulate(launch.run, { trace: 'summary' });
  expect(r.diagnostics).toEqual([]);
  return { out: launch.readBack(r.buffers), printed: launch.printed(r.buffers) };
}

const errors = (src: string): string[] => {
  const r = compileCuda(src);
  return r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.line}:${d.column}: ${d.message}`);
};

describe('C integer semantics', () => {
  it('division and remainder truncate toward zero, int wraps, shifts, unsigned conversions', () => {
    const src = `__global__ void k(int *o, unsigned *u, int a, int b) {
  o[0] = a / b; o[1] = a % b; o[2] = -a / b; o[3] = -a % b;
  int big = 2147483647; o[4] = big + a;
  o[5] = -8 >> 1; o[6] = 1 << 31;
  unsigned x = a - 10; u[0] = x; u[1] = x / 3u; u[2] = (unsigned)-1 >> 28;
  char c = 300; o[7] = c; unsigned char uc = -1; o[8] = uc; short s = 40000; o[9] = s;
  o[10] = (a < 0u); o[11] = -7 / 2 * 2 + -7 % 2;
}`;
    const { out } = run(src, 'k', 1, 1, { o: new Int32Array(12), u: new Uint32Array(3), a: 7, b: 2 });
    expect(Array.from(out.o as Int32Array)).toEqual([3, 1, -3, -1, -2147483642, -4, -2147483648, 44, 255, -25536, 0, -7]);
    expect(Array.from(out.u as Uint32Array)).toEqual([4294967293, 1431655764, 15]);
  });

  it('an int / or % whose operands are proven non-negative is computed on u32; anything that may be negative stays signed', () => {
    const src = `__global__ void k(const int *in, int *o, int n, int K) {
  int t = threadIdx.x;
  for (int j = 0; j < 4; ++j) {
    int e = t + j * 256;
    o[e] = e / 16 + e % 64;
  }
  for (int k0 = 0; k0 < K; k0 += 16) o[k0] = (k0 + t) / 4;
  for (int i = 0; i < n; ++i) o[i] = i % 8;
  int d = t - 1; o[512 + 4 * t] = d / 2; o[513 + 4 * t] = d % 2;
  int m = t; m = in[0]; o[514 + 4 * t] = m % 4;
  o[515 + 4 * t] = t / n;
  for (unsigned v = 0; v < n; ++v) { int w = v; o[v] = w / 2; }
}`;
    const wgsl = program(src).wgsl;
    expect(wgsl).toContain('i32(u32(e) / 16u) + i32(u32(e) % 64u)');
    // k0 += 16 could step past INT_MAX when K is near it, so k0 has no bound; i < n with ++i has.
    expect(wgsl).toContain('(k0 + t) / 4');
    expect(wgsl).toContain('i32(u32(i) % 8u)');
    // d is −1 for thread 0; m is assigned after its declaration; n may be zero or negative.
    expect(wgsl).toContain('d / 2');
    expect(wgsl).toContain('m % 4');
    expect(wgsl).toContain('t / n');
    // v < n compares as unsigned: n = −1 lets v pass INT_MAX, so w may be negative.
    expect(wgsl).toContain('w / 2');
    const { out } = run(src, 'k', 1, 3, { in: Int32Array.of(-7), o: new Int32Array(1024), n: 2, K: 0 });
    const o = out.o as Int32Array;
    expect([o[256], o[258], o[769]]).toEqual([16 + 0, 16 + 2, 48 + 1]);
    // Thread 0: d = −1, so d / 2 is 0 and d % 2 is −1 (C truncates); m % 4 = −7 % 4 = −3; 0 / 2.
    expect(Array.from(o.slice(512, 524))).toEqual([0, -1, -3, 0, 0, 0, -3, 0, 0, 1, -3, 1]);
  });

  it('packed bytes and shorts are read with a shift and a mask, signed ones with their sign', () => {
    const src = `__global__ void k(const unsigned char *b, const short *s, int *o) {
  int t = threadIdx.x;
  o[t] = b[t] + s[t];
}`;
    const wgsl = program(src).wgsl;
    expect(wgsl).not.toContain('extractBits');
    expect(wgsl).toContain('((b[u32(t) / 4u] >> ((u32(t) % 4u) * 8u)) & 0xffu)');
    expect(wgsl).toContain('(bitcast<i32>(s[u32(t) / 2u] << (16u - (u32(t) % 2u) * 16u)) >> 16u)');
    const { out } = run(src, 'k', 1, 4, { b: Uint8Array.of(1, 255, 128, 7), s: Int16Array.of(-1, -32768, 32767, 5), o: new Int32Array(4) });
    expect(Array.from(out.o as Int32Array)).toEqual([0, 255 - 32768, 128 + 32767, 12]);
  });

  it('float arithmetic, math functions and bit intrinsics', () => {
    const src = `__global__ void k(float *f, int *i) {
  f[0] = sqrtf(16.0f); f[1] = fmaxf(1.5f, -2.0f); f[2] = floorf(-1.5f); f[3] = __fdividef(1.0f, 4.0f); f[4] = fabsf(-3.0f);
  i[0] = __popc(0xF0F0); i[1] = __clz(1); i[2] = __ffs(8); i[3] = __ffs(0); i[4] = min(-3, 2); i[5] = abs(-9); i[6] = (int)__brev(1u);
  i[7] = (int)2.9f; i[8] = (int)-2.9f;
}`;
    const { out } = run(src, 'k', 1, 1, { f: new Float32Array(5), i: new Int32Array(9) });
    expect(Array.from(out.f as Float32Array)).toEqual([4, 1.5, -2, 0.25, 3]);
    expect(Array.from(out.i as Int32Array)).toEqual([8, 31, 4, 0, -3, 9, -2147483648, 2, -2]);
  });

  it('double and 64-bit integers compile with a warning that says how they are computed', () => {
    const r = compileCuda('__global__ void k(double *d, long long n) {\n  d[0] = d[0] * 0.5 + n;\n}');
    expect(r.ok).toBe(true);
    const w = r.diagnostics.filter((d) => d.severity === 'warning');
    expect(w.map((d) => [d.line, d.message.slice(0, 40)])).toEqual([
      [1, "'double' is computed as 32-bit float (f3"],
      [1, "'long long' is 64 bits: WebGPU has no 64"],
      [2, 'this expression is computed in double pr'],
    ]);
  });
});

describe('memory', () => {
  it('pointer locals and pointer arithmetic become a buffer plus an offset', () => {
    const src = `__global__ void rows(const int *a, int *sums, int n) {
  const int *row = a + blockIdx.x * n;
  int s = 0;
  for (int i = 0; i < n; i++) s += row[i];
  int *out = sums;
  out += blockIdx.x;
  *out = s + *(row + 1) * 0;
}`;
    const a = Int32Array.from({ length: 12 }, (_, i) => i);
    const { out } = run(src, 'rows', 3, 1, { a, sums: new Int32Array(3), n: 4 });
    expect(Array.from(out.sums as Int32Array)).toEqual([6, 22, 38]);
    expect(program(src).kernels[0]!.params.map((p) => [p.name, p.access])).toEqual([['a', 'read'], ['sums', 'read_write'], ['n', undefined]]);
  });

  it('an array passed whole to a device function is indexed without an offset: a local by constants where the loop unrolls', () => {
    const src = `__device__ void load(const int *in, int *x, int base) { for (int r = 0; r < 4; r++) x[r] = in[base + r]; }
__device__ int total(const int *x) { int s = 0; for (int r = 0; r < 4; r++) s += x[r]; return s; }
__global__ void k(const int *in, int *out) {
  int x[5];
  x[4] = 100;
  load(in, x, threadIdx.x * 4);
  out[threadIdx.x] = total(x) * 10 + total(x + 1);
}`;
    const input = Int32Array.from({ length: 8 }, (_, i) => i + 1);
    const { out } = run(src, 'k', 1, 2, { in: input, out: new Int32Array(2) });
    // Thread 0: x = 1 2 3 4 100: 10 * 10 + (2 + 3 + 4 + 100); thread 1: x = 5 6 7 8 100.
    expect(Array.from(out.out as Int32Array)).toEqual([209, 381]);
    const w = program(src).wgsl;
    expect(w).toMatch(/fn load\w*\(x_array: ptr<function, array<i32, 5>>, base: i32\)/);
    expect(w).toContain('(*x_array)[r] = in_[base + r];');
    expect(w).toMatch(/fn total\(x_array: ptr<function, array<i32, 5>>\) -> i32 \{\n\s*var s: i32 = 0;\n\s*\/\/ unrolled: 4 trips/);
    // x + 1 is not the whole array: that instance takes the offset, and its loop stays a loop.
    expect(w).toMatch(/fn total_2\(x_array: ptr<function, array<i32, 5>>, x: i32\)/);
  });

  it('unsigned char buffers are packed four to a word, read and written in place', () => {
    const src = `__global__ void inc(unsigned char *b, int n) {
  int i = threadIdx.x;
  if (i < n) b[i] = b[i] + 1;
}`;
    const { out } = run(src, 'inc', 1, 8, { b: Uint8Array.from([0, 1, 254, 255, 7, 8, 9]), n: 7 });
    expect(out.b).toEqual(Uint8Array.from([1, 2, 255, 0, 8, 9, 10]));
  });

  it('2-D __shared__, extern __shared__ sized by the launch, __constant__ with an initializer', () => {
    const src = `__constant__ int scale[2] = {3, 5};
__global__ void k(int *o) {
  __shared__ int tile[2][4];
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  tile[t / 4][t % 4] = t;
  dyn[t] = t * scale[1];
  __syncthreads();
  o[t] = tile[(7 - t) / 4][(7 - t) % 4] * scale[0] + dyn[7 - t];
}`;
    const { out } = run(src, 'k', 1, 8, { o: new Int32Array(8) }, 8 * 4);
    expect(Array.from(out.o as Int32Array)).toEqual(Array.from({ length: 8 }, (_, t) => (7 - t) * 3 + (7 - t) * 5));
    const p = program(src);
    expect(p.kernels[0]).toMatchObject({ staticSharedBytes: 32, dynamicShared: true });
  });
});

describe('atomics', () => {
  it('integer atomics return the old value; a buffer an atomic touches is atomic throughout', () => {
    const src = `__global__ void k(int *c, unsigned *u, int *old) {
  old[threadIdx.x] = atomicAdd(&c[0], 1);
  atomicMax(&c[1], threadIdx.x); atomicMin(&c[2], -(int)threadIdx.x); atomicOr(&c[3], 1 << threadIdx.x);
  atomicInc(&u[0], 4u); atomicDec(&u[1], 100u);
  if (threadIdx.x == 0) { atomicCAS(&c[4], 0, 42); atomicCAS(&c[5], 1, 42); c[6] = c[6] + 1; atomicExch(&c[7], 9); atomicSub(&c[8], 3); }
}`;
    const { out } = run(src, 'k', 1, 8, { c: new Int32Array(9), u: new Uint32Array(2), old: new Int32Array(8) });
    expect(Array.from(out.c as Int32Array)).toEqual([8, 7, -7, 255, 42, 0, 1, 9, -3]);
    // atomicInc wraps to 0 after reaching 4 (0,1,2,3,4,0,1,2 → 3); atomicDec from 0 wraps to 100, then 99 … 93.
    expect(Array.from(out.u as Uint32Array)).toEqual([3, 93]);
    expect([...(out.old as Int32Array)].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(program(src).kernels[0]!.params[0]).toMatchObject({ atomic: true, access: 'read_write' });
  });

  it('float atomicAdd as a compare-and-swap loop, in global and shared memory', () => {
    const src = `__global__ void k(float *sum) {
  __shared__ float s;
  if (threadIdx.x == 0) s = 0.0f;
  __syncthreads();
  atomicAdd(&s, 0.5f);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&sum[0], s);
}`;
    const { out } = run(src, 'k', 3, 32, { sum: new Float32Array(1) });
    expect(Array.from(out.sum as Float32Array)).toEqual([48]);
  });
});

describe('barriers after an early return', () => {
  it('keeps the returned threads as inactive lanes that still reach the barrier (faithful)', () => {
    const src = `__global__ void r(int *g, int *o, unsigned n) {
  unsigned int tid = threadIdx.x;
  unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int *d = g + blockIdx.x * blockDim.x;
  if (idx >= n) return;
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) d[tid] += d[tid + stride];
    __syncthreads();
  }
  if (tid == 0) o[blockIdx.x] = d[0];
}`;
    const g = Int32Array.from({ length: 64 }, (_, i) => i + 1);
    const { out } = run(src, 'r', 2, 32, { g, o: new Int32Array(2), n: 50 });
    // CUDA: threads with idx ≥ 50 return and never add, but their elements are still read.
    const ref = Array.from(g);
    for (let b = 0; b < 2; b++) for (let s = 16; s > 0; s >>= 1) for (let t = 0; t < s; t++) if (b * 32 + t < 50) ref[b * 32 + t]! += ref[b * 32 + t + s]!;
    expect(Array.from(out.o as Int32Array)).toEqual([ref[0], ref[32]]);
    expect(program(src).wgsl).toMatch(/returned_\d+ = true; \/\/ return/);
  });

  it('reports a barrier under a thread-dependent condition as the CUDA bug it is', () => {
    expect(errors(`__global__ void k(int *a) {
  if (threadIdx.x < 16) {
    a[threadIdx.x] = 1;
    __syncthreads();
  }
}`)).toEqual([expect.stringMatching(/^4:5: __syncthreads\(\) inside a branch whose condition depends on the thread/)]);
    expect(errors(`__global__ void k(int *a, int n) {
  if (threadIdx.x >= n) return;
  for (int i = threadIdx.x; i < 64; i++) { a[i] = 0; __syncthreads(); }
}`)[0]).toMatch(/^3:\d+: __syncthreads\(\) inside a loop condition that depends on the thread, after some threads returned early/);
  });
});

describe('warp functions', () => {
  it('__shfl_down_sync reduces a warp; __ballot_sync and __shfl_sync', () => {
    const src = `__global__ void w(int *o) {
  int v = threadIdx.x;
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
  unsigned b = __ballot_sync(0xffffffff, threadIdx.x % 2 == 1);
  int first = __shfl_sync(0xffffffff, (int)threadIdx.x * 10, 3);
  int any = __any_sync(0xffffffff, threadIdx.x == 31);
  if (threadIdx.x == 0) { o[0] = v; o[1] = (int)b; o[2] = first; o[3] = any; }
}`;
    const { out } = run(src, 'w', 1, 32, { o: new Int32Array(4) });
    expect(Array.from(out.o as Int32Array)).toEqual([496, 0xaaaaaaaa | 0, 30, 1]);
    expect(program(src).kernels[0]!.usesWarpFunctions).toBe(true);
  });
});

describe('templates, device functions, printf', () => {
  it('instantiates a template kernel by its launches in host code and skips an unused one', () => {
    const src = `template <int B, typename T> __global__ void fill(T *a) { a[threadIdx.x] = (T)(B + threadIdx.x); }
template <typename T> __global__ void unused(T *a) {}
__device__ int twice(int x) { return 2 * x; }
__global__ void g(int *a) { a[threadIdx.x] = twice(threadIdx.x); }
int main() { float *d; fill<7, float><<<1, 4>>>(d); fill<1, int><<<1, 4>>>(0); return 0; }`;
    const p = program(src);
    expect(p.kernels.map((k) => k.name)).toEqual(['fill<7, float>', 'fill<1, int>', 'g']);
    const launch = prepareLaunch(p, 'fill<7, float>', { grid: dim(1), block: dim(4) }, { a: new Float32Array(4) });
    expect(Array.from(launch.readBack(simulate(launch.run).buffers).a as Float32Array)).toEqual([7, 8, 9, 10]);
  });

  it('a constant argument of an integer or bool parameter the function never assigns becomes a const of its instance, one instance per set of constants', () => {
    const src = `__device__ int sum(const int *a, int k, bool twice) { int s = 0; for (int i = 0; i < k; i++) s += a[i]; return twice ? 2 * s : s; }
__device__ int shifted(int k) { k += 1; return k; }
template <int K> __global__ void g(const int *a, int *out, int k) {
  out[threadIdx.x] = sum(a, K, true) + 100 * sum(a, 2, false) + 1000 * sum(a, k, false) + 10000 * shifted(K);
}
template __global__ void g<3>(const int *, int *, int);`;
    const p = program(src);
    expect(p.wgsl).toContain("const k: i32 = 3; // 'k' is this constant at every call of this instance");
    expect(p.wgsl).toContain("const k: i32 = 2; // 'k' is this constant at every call of this instance");
    expect(p.wgsl.match(/^fn sum\w*\(/gm)).toHaveLength(3); // k = 3 and true, k = 2 and false, k a value and false
    expect(p.wgsl).toMatch(/^fn shifted\w*\(k_in: i32/m); // assigned in the body: stays a parameter
    const launch = prepareLaunch(p, 'g<3>', { grid: dim(1), block: dim(2) }, { a: Int32Array.from([1, 2, 4, 8]), out: new Int32Array(2), k: 4 });
    const out = launch.readBack(simulate(launch.run).buffers).out as Int32Array;
    expect(Array.from(out)).toEqual([14 + 300 + 15000 + 40000, 14 + 300 + 15000 + 40000]);
  });

  it('kernel printf goes through a buffer and prints in the order the threads reached it', () => {
    const src = `__global__ void hello(int n) {
  if (threadIdx.x < 3) printf("block %d thread %u: %5.2f%%\\n", blockIdx.x, threadIdx.x, n / 4.0f);
}`;
    const { printed } = run(src, 'hello', 2, 4, { n: 3 });
    expect(printed).toEqual(['block 0 thread 0:  0.75%\n', 'block 0 thread 1:  0.75%\n', 'block 0 thread 2:  0.75%\n', 'block 1 thread 0:  0.75%\n', 'block 1 thread 1:  0.75%\n', 'block 1 thread 2:  0.75%\n']);
  });
});

describe('diagnostics in CUDA terms', () => {
  it.each([
    ['__global__ void k(int *a) { a[0] = b; }', "1:36: use of undeclared identifier 'b'"],
    ['void h() {}\n__global__ void k(int *a) { h(); }', "2:29: calling a __host__ function('h') from a __global__ function('k') is not allowed: mark 'h' as __device__ (or __host__ __device__)"],
    ['int main() { __syncthreads(); return 0; }', "1:14: __syncthreads() is a device function: host code ('main') cannot call it; call it inside a __global__ or __device__ function"],
    ['__global__ void k(const int *a) { a[0] = 1; }', "1:35: cannot write through 'a': it points to const data ('const int *'); drop the const if the kernel writes it"],
    ['__global__ void k(int *a) { a[0] = malloc(4); }', '1:36: malloc() is a host function: device code cannot call it (allocate with cudaMalloc on the host and pass the pointer)'],
    ['__global__ void k(int **a) { }', "1:19: parameter 'a' is a pointer to pointers: pass one flat array and index it as row * width + column"],
    ['__global__ void k(int *a) { goto end; }', "1:29: 'goto' are outside the CUDA subset Warpscope runs: use a loop with 'break' or 'continue'"],
    ['__global__ int k(int *a) { }', "1:12: a __global__ function must return void, not 'int'"],
    ['__global__ void k(int *a, int *b) { if (a < b) a[0] = 1; }', "1:41: comparing pointers into different arrays ('a' and 'b'): C leaves the order undefined; compare indices instead"],
    ['__global__ void k(int *a) {\n  int x = 1\n  a[0] = x;\n}', "2:12: expected ';' after the declaration"],
    ['__global__ void k(int *a) {\n  vec3_t v;\n}', "2:3: unknown type name 'vec3_t'"],
    ['#include <cuda_fp16.h>\n__global__ void k(half *a) { }', "2:19: 'half' (16-bit float, cuda_fp16.h) is outside the CUDA subset Warpscope runs: WebGPU's 16-bit floats are an optional feature that the simulator does not model; compute in 'float'"],
    ['__device__ int f(int n) { return n ? n * f(n - 1) : 1; }\n__global__ void k(int *a) { a[0] = f(4); }', "1:42: 'f' calls itself (recursion): WGSL has no recursion, so device code here cannot recurse; rewrite it as a loop"],
    ['__global__ void k(int *a, int n) {\n  __shared__ int s[n];\n}', "2:20: the size of array 's' must be a constant known when compiling (a #define, a const int or a template value); for a size set by the launch, write 'extern __shared__ int s[];' and pass the bytes as the third launch parameter"],
    ['__global__ void k(int *a) { a[0] = __shfl(a[0], 0); }', '1:36: __shfl() was removed in CUDA 9 (Volta): write __shfl_sync(0xffffffff, …) with the mask of the lanes that take part'],
    ['__global__ void k(int *a) {\n  while (a[0] > 0 a[0]--;\n}', "2:19: expected ')' to close the 'while' condition"],
    ['__global__ void k(int *a) {\n  do a[0]--; while a[0] > 0;\n}', "2:20: expected '(' after 'while'"],
    ['__global__ void k(int *a) {\n  switch (a[0] { default: break; }\n}', "2:16: expected ')' to close the 'switch' value"],
  ])('%s', (src, message) => {
    expect(errors(src)).toEqual([message]);
  });
});

describe('names that headers declare', () => {
  it('half is an ordinary name without cuda_fp16.h (C++ [lex.name]: only the header declares it)', () => {
    const r = compileCuda('__global__ void k(float *out) {\n  float half = out[0] * 0.5f;\n  out[1] = half;\n}');
    expect(r.diagnostics).toEqual([]);
    expect(r.ok).toBe(true);
  });
});

describe('source map and translator bugs', () => {
  const src = `__global__ void add(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i] + y[i];
  }
}`;
  it('maps CUDA lines to WGSL lines and back', () => {
    const p = program(src);
    const wgslLines = p.wgsl.split('\n');
    const w = p.sourceMap.toWgsl(4)!;
    expect(wgslLines[w.line - 1]!.trim()).toBe('y[i] = x[i] + y[i];');
    expect(p.sourceMap.toCuda(w.line)).toEqual({ line: 4, column: 5 });
    expect(p.sourceMap.cudaLines).toEqual([1, 2, 3, 4]);
    const decl = p.sourceMap.toWgsl(2)!;
    expect(wgslLines[decl.line - 1]!.trim()).toBe('let i: i32 = i32(blockIdx.x * blockDim.x + threadIdx.x);');
  });

  it('reports WGSL that our front end rejects as a translator bug at the CUDA position', () => {
    const r = compileCudaWith(src, {}, (wgsl) => wgsl.replace('y[i] = x[i] + y[i];', 'y[i] = x[i] + true;'));
    expect(r.ok).toBe(false);
    expect(r.diagnostics[0]).toMatchObject({ severity: 'error', line: 4, column: 5 });
    expect(r.diagnostics[0]!.message).toMatch(/^internal error in Warpscope's CUDA translator \(a bug in Warpscope, not in your code/);
  });
});

describe('prepareLaunch', () => {
  const p = program('__global__ void k(int *a) { a[blockIdx.x] = blockIdx.x + gridDim.x; }');
  it('refuses a block CUDA refuses, with CUDA\'s error name', () => {
    expect(() => prepareLaunch(p, 'k', { grid: dim(1), block: dim(32, 33) }, { a: new Int32Array(1) })).toThrow(CudaLaunchError);
    expect(() => prepareLaunch(p, 'k', { grid: dim(1), block: dim(2048) }, { a: new Int32Array(1) })).toThrow(/^cudaErrorInvalidValue: a block of \(2048, 1, 1\) = 2048 threads is too large/);
    expect(() => prepareLaunch(p, 'k', { grid: dim(0), block: dim(1) }, { a: new Int32Array(1) })).toThrow(/cudaErrorInvalidValue: grid.x is 0/);
    expect(() => prepareLaunch(p, 'nope', { grid: dim(1), block: dim(1) }, [])).toThrow(/cudaErrorInvalidDeviceFunction/);
  });

  it('folds a grid of more than 65 535 blocks and keeps blockIdx.x linear', () => {
    const n = 70_001;
    const launch = prepareLaunch(p, 'k', { grid: dim(n), block: dim(1) }, [new Int32Array(n)]);
    expect(launch.run.workgroups).toEqual([35_001, 2]);
    const a = launch.readBack(simulate(launch.run, { trace: 'summary' }).buffers).a as Int32Array;
    expect(a[0]).toBe(n);
    expect(a[n - 1]).toBe(2 * n - 1);
  });
});

describe('built-in vector types (Programming Guide: Built-in Vector Types)', () => {
  it('int4 buffers, make_int4, members and float2 locals: the launch passes and reads the components flat', () => {
    const src = `__global__ void k(const int4 *src, int4 *out, float *f) {
  int i = threadIdx.x;
  int4 a = src[i];
  int4 b = make_int4(a.w, a.z, a.y, a.x);
  b.x += 100;
  out[i] = b;
  float2 p = make_float2(1.5f, i);
  f[i] = p.x * p.y;
}`;
    const p = program(src);
    expect(p.kernels[0]!.params.map((x) => [x.name, x.type, x.vector, x.bytes])).toEqual([
      ['src', 'int', 4, 16],
      ['out', 'int', 4, 16],
      ['f', 'float', undefined, 4],
    ]);
    expect(p.wgsl).toContain('var<storage, read> src: array<vec4<i32>>;');
    const { out } = run(src, 'k', 1, 2, { src: Int32Array.from([1, 2, 3, 4, 5, 6, 7, 8]), out: new Int32Array(8), f: new Float32Array(2) });
    expect(Array.from(out.out as Int32Array)).toEqual([104, 3, 2, 1, 108, 7, 6, 5]);
    expect(Array.from(out.f as Float32Array)).toEqual([0, 1.5]);
  });

  it('sizeof(int4) is 16; a buffer of 3-component vectors is refused with what to write instead', () => {
    const { out } = run('__global__ void k(int *o) { o[0] = sizeof(int4); o[1] = sizeof(float3); }', 'k', 1, 1, { o: new Int32Array(2) });
    expect(Array.from(out.o as Int32Array)).toEqual([16, 12]);
    expect(errors('__global__ void k(float3 *v) { }')).toEqual(["1:19: parameter 'v' points to 'float3': a buffer of 3-component vectors is not supported (WGSL pads each to 16 bytes, CUDA packs 12); use float4 or a plain array of float"]);
    expect(errors('__global__ void k(int *o) { int4 v = make_int4(1, 2, 3); o[0] = v.x; }')[0]).toMatch(/make_int4\(\) takes 4 arguments, but 3 were given/);
  });
});

describe('pointers into __shared__ memory and barriers over global memory', () => {
  it('a __device__ function whose pointer parameter has the shared array\'s own name (the classic warpReduce(volatile int *sdata, …))', () => {
    const src = `__device__ void add(volatile int *sdata, unsigned int tid) { sdata[tid] += sdata[tid + 2]; }
__global__ void k(int *o) {
  extern __shared__ int sdata[];
  sdata[threadIdx.x] = threadIdx.x + 1;
  __syncthreads();
  if (threadIdx.x < 2) add(sdata, threadIdx.x);
  __syncthreads();
  o[threadIdx.x] = sdata[threadIdx.x];
}`;
    const { out } = run(src, 'k', 1, 4, { o: new Int32Array(4) }, 16);
    expect(Array.from(out.o as Int32Array)).toEqual([4, 6, 3, 4]);
  });

  it('__syncthreads orders global memory too: storageBarrier where the kernel reads global memory it writes, not elsewhere', () => {
    const inPlace = program(`__global__ void k(int *d) { d[threadIdx.x] += 1; __syncthreads(); d[threadIdx.x] += d[threadIdx.x ^ 1]; }`);
    expect(inPlace.wgsl).toContain('workgroupBarrier(); storageBarrier(); // __syncthreads orders global memory too\n');
    const writeOnly = program(`__global__ void k(const int *in, int *out) { __shared__ int s[32]; s[threadIdx.x] = in[threadIdx.x]; __syncthreads(); out[threadIdx.x] = s[31 - threadIdx.x]; }`);
    expect(writeOnly.wgsl).not.toContain('storageBarrier');
    const { out } = run(`__global__ void k(int *d) { d[threadIdx.x] += 1; __syncthreads(); if (threadIdx.x == 0) d[0] += d[1]; }`, 'k', 1, 2, { d: Int32Array.from([10, 20]) });
    expect(Array.from(out.d as Int32Array)).toEqual([32, 21]);
  });

  it('a device function pointer parameter points where the arguments of its calls point: storageBarrier for global memory written through it, none for shared memory', () => {
    const BARRIER = 'workgroupBarrier(); storageBarrier();';
    const put = `__device__ void put(int *p, int i, int v) { p[i] = v; }\n`;
    // Written through put's p (the kernel's d), read back as d by another thread: CUDA orders it.
    const throughGlobal = program(`${put}__global__ void k(int *d, int *out) { put(d, threadIdx.x, 1); __syncthreads(); out[threadIdx.x] = d[threadIdx.x ^ 1]; }`);
    expect(throughGlobal.wgsl).toContain(BARRIER);
    const onShared = program(`${put}__global__ void k(int *out) { __shared__ int s[32]; put(s, threadIdx.x, 1); __syncthreads(); out[threadIdx.x] = s[threadIdx.x ^ 1]; }`);
    expect(onShared.wgsl).not.toContain('storageBarrier');
    // One function, two calls: one of them on global memory that the kernel reads.
    const both = program(`${put}__global__ void k(int *d, int *out) { __shared__ int s[32]; put(s, threadIdx.x, 1); put(d, threadIdx.x, 2); __syncthreads(); out[threadIdx.x] = d[threadIdx.x ^ 1] + s[threadIdx.x]; }`);
    expect(both.wgsl).toContain(BARRIER);
    // A pointer local points where its initializer points: written as row, read as d.
    const local = program(`__global__ void k(int *d, int *out) { int *row = d + 32; row[threadIdx.x] = 1; __syncthreads(); out[threadIdx.x] = d[32 + (threadIdx.x ^ 1)]; }`);
    expect(local.wgsl).toContain(BARRIER);
  });
});

describe('switch', () => {
  it('a case without break falls through into the next, as in C; the repeated WGSL lines map to their own CUDA lines', () => {
    const src = `__global__ void k(int *a) {
  switch (a[threadIdx.x]) {
  case 1: a[threadIdx.x] += 10;
  case 2: a[threadIdx.x] += 100; break;
  default: a[threadIdx.x] = -1;
  }
}`;
    const { out } = run(src, 'k', 1, 3, { a: Int32Array.from([1, 2, 3]) });
    expect(Array.from(out.a as Int32Array)).toEqual([111, 102, -1]);
    const p = program(src);
    const wgslLines = p.wgsl.split('\n');
    const repeated = wgslLines.flatMap((l, i) => (l.includes('+= 100') ? [i + 1] : []));
    expect(repeated).toHaveLength(2);
    for (const line of repeated) expect(p.sourceMap.toCuda(line, 1)?.line).toBe(4);
  });
});

describe('warp idioms (warpIdioms.ts)', () => {
  const scan = (T: string, mask = '0xffffffff', cond = 'lane >= d', extra = '') => `__global__ void k(const ${T} *in, ${T} *out) {
  int lane = threadIdx.x & 31;
  ${T} v = in[threadIdx.x];
  for (int d = 1; d < 32; d *= 2) {
    ${T} up = __shfl_up_sync(${mask}, v, d${extra});
    if (${cond}) v += up;
  }
  out[threadIdx.x] = v;
}`;
  const wgsl = (src: string): string => program(src).wgsl;

  it('the shuffle scan and the butterfly of 32-bit integers become subgroupInclusiveAdd and subgroupAdd behind a test of the warp, the loop kept as the other branch', () => {
    for (const T of ['int', 'unsigned int']) {
      const w = wgsl(scan(T));
      expect(w).toMatch(/let (lanes_in_place_\d+) = subgroupAll\(u32\(lane\) == warp_lane_\);\n\s*if \(all\(subgroupBallot\(true\) == vec4<u32>\(0xffffffffu, 0u, 0u, 0u\)\) && \1\) \{\n\s*v = subgroupInclusiveAdd\(v\);\n\s*\} else \{\n\s*for \(/);
      expect(w).toContain('subgroupShuffleUp(');
    }
    const sum = wgsl('__global__ void k(int *o) { int v = o[threadIdx.x];\n  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);\n  o[threadIdx.x] = v; }');
    expect(sum).toMatch(/if \(all\(subgroupBallot\(true\) == vec4<u32>\(0xffffffffu, 0u, 0u, 0u\)\)\) \{\n\s*v = subgroupAdd\(v\);/);
  });

  it('is not used where it could change the result: floats, a partial mask, a width under 32, another condition, other offsets, other shuffles', () => {
    const plain = [
      scan('float'),
      scan('int', '0x0000ffff'),
      scan('int', '0xffffffff', 'lane >= d', ', 16'),
      scan('int', '0xffffffff', 'lane > d'),
      scan('int', '0xffffffff', 'lane >= d && v > 0'),
      scan('int').replace('d < 32', 'd < 16'),
      scan('int').replace('d *= 2', 'd += 1'),
      scan('int').replace('__shfl_up_sync', '__shfl_down_sync'),
      scan('int').replace('v += up', 'v += up * 2'),
      '__global__ void k(int *o) { int v = o[threadIdx.x];\n  for (int m = 16; m > 0; m >>= 1) v += __shfl_down_sync(0xffffffff, v, m);\n  o[threadIdx.x] = v; }',
      '__global__ void k(float *o) { float v = o[threadIdx.x];\n  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);\n  o[threadIdx.x] = v; }',
    ];
    for (const src of plain) {
      const w = wgsl(src);
      expect(w, src).not.toContain('subgroupInclusiveAdd');
      expect(w, src).not.toContain('subgroupAdd(');
    }
  });
});

describe('a vector component picked by an if chain (componentChain.ts)', () => {
  const chain = (place: string, key = 'k', last = `else ${place}.w = value;`) => `__global__ void k(float4 *out, const int *keys) {
  __shared__ float4 tile[64];
  float4 reg = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  unsigned t = threadIdx.x;
  int k = keys[t];
  float value = t;
  tile[t] = reg;
  if (${key} == 0) ${place}.x = value;
  else if (${key} == 1) ${place}.y = value;
  else if (${key} == 2) ${place}.z = value;
  ${last}
  out[t] = tile[t];
  out[t + 64] = reg;
}`;

  it('in shared or global memory, one indexed store (the last else takes every other key), mapped to the if', () => {
    const src = chain('tile[t]');
    const p = program(src);
    expect(p.wgsl).toContain('tile[t][min(u32(k), 3u)] = value;');
    expect(p.wgsl).not.toContain('tile[t].x');
    const line = p.wgsl.split('\n').findIndex((l) => l.includes('[min(u32(k), 3u)]')) + 1;
    expect(p.sourceMap.toCuda(line, 1)?.line).toBe(8);
    expect(program(chain('out[t]')).wgsl).toContain('out_[t][min(u32(k), 3u)] = value;');
    // No last else: keys outside 0 … 3 write nothing.
    const guardedSrc = chain('tile[t]', 'k', 'else if (k == 3) tile[t].w = value;');
    expect(program(guardedSrc).wgsl).toMatch(/if \(u32\(k\) < 4u\) \{\n\s*tile\[t\]\[u32\(k\)\] = value;\n\s*\}/);
    // On the simulator, keys -2 … 4: with the else, -2, -1, 3 and 4 write w; without it, only 3 does.
    const keys = Int32Array.from({ length: 64 }, (_, t) => (t % 7) - 2);
    for (const [s, elseTakesTheRest] of [[src, true], [guardedSrc, false]] as const) {
      const { out } = run(s, 'k', 1, 64, { out: new Float32Array(4 * 128), keys });
      const tile = Array.from(out.out as Float32Array).slice(0, 256);
      const want = Array.from({ length: 64 }, (_, t) => {
        const k = keys[t]!;
        const c = k >= 0 && k <= 3 ? k : elseTakesTheRest ? 3 : -1;
        return [0, 1, 2, 3].map((i) => (i === c ? t : 0));
      }).flat();
      expect(tile).toEqual(want);
    }
  });

  it('lowered as written where it would not help or not be the same: a vector in registers, a key read from memory, different values, a wrong component', () => {
    const asWritten = [
      chain('reg'),
      chain('tile[t]', 'keys[t]'),
      chain('tile[t]', 'k', 'else tile[t].w = -value;'),
      chain('tile[t]', 'k', 'else tile[t].z = value;'),
      chain('tile[t]', 'k', 'else if (k == 4) tile[t].w = value;'),
    ];
    for (const src of asWritten) expect(program(src).wgsl, src).not.toContain('one indexed store');
  });
});

describe('a vector built from the same operation on each component (componentwise.ts)', () => {
  const kernel = (body: string) => `__device__ float4 step(float a, float4 b, float4 c) {
  return ${body};
}
__global__ void k(float4 *out, const float4 *p, const float *s) {
  unsigned t = threadIdx.x;
  out[t] = step(s[t], p[t], p[t + 64]);
}`;

  it('is one vector operation, with the same values on the simulator as four scalar ones', () => {
    const cases: [string, string, (a: number, b: number, c: number) => number][] = [
      ['make_float4(fmaf(a, b.x, c.x), fmaf(a, b.y, c.y), fmaf(a, b.z, c.z), fmaf(a, b.w, c.w))', 'return fma(vec4<f32>(a), b, c);', (a, b, c) => Math.fround(a * b + c)],
      ['make_float4(b.x - c.x, b.y - c.y, b.z - c.z, b.w - c.w)', 'return b - c;', (_a, b, c) => Math.fround(b - c)],
      ['make_float4(b.x * a, b.y * a, b.z * a, b.w * a)', 'return b * a;', (a, b) => Math.fround(b * a)],
      ['make_float4(fmaxf(b.x, c.x), fmaxf(b.y, c.y), fmaxf(b.z, c.z), fmaxf(b.w, c.w))', 'return max(b, c);', (_a, b, c) => Math.max(b, c)],
    ];
    const p = Float32Array.from({ length: 4 * 128 }, (_, i) => ((i * 37) % 23) / 4 - 2);
    const s = Float32Array.from({ length: 64 }, (_, t) => (t % 5) - 1.5);
    for (const [body, want, f] of cases) {
      const src = kernel(body);
      expect(program(src).wgsl, body).toContain(want);
      const { out } = run(src, 'k', 1, 64, { out: new Float32Array(4 * 64), p, s });
      const expected = Array.from({ length: 4 * 64 }, (_, i) => f(s[Math.floor(i / 4)]!, p[i]!, p[i + 4 * 64]!));
      expect(Array.from(out.out as Float32Array), body).toEqual(expected);
    }
  });

  it('lowered as written where the components differ, come out of order, or a shared operand has side effects or is a double', () => {
    const asWritten = [
      'make_float4(fmaf(a, b.x, c.x), fmaf(a, b.y, c.y), fmaf(a, b.z, c.z), fmaf(a, b.w, c.x))',
      'make_float4(b.y + c.x, b.x + c.y, b.z + c.z, b.w + c.w)',
      'make_float4(b.x + c.x, b.y - c.y, b.z + c.z, b.w + c.w)',
      'make_float4(b.x * 0.5, b.y * 0.5, b.z * 0.5, b.w * 0.5)',
      'make_float4(powf(b.x, a), powf(b.y, a), powf(b.z, a), powf(b.w, a))',
      'make_float4(a, a, a, a)',
    ];
    for (const body of asWritten) expect(program(kernel(body)).wgsl, body).toContain('vec4<f32>(');
    const sideEffect = `__global__ void k(float4 *out, const float4 *p, unsigned *n) {
  unsigned t = threadIdx.x;
  float4 b = p[t];
  out[t] = make_float4(b.x + atomicAdd(n, 1u), b.y + atomicAdd(n, 1u), b.z + atomicAdd(n, 1u), b.w + atomicAdd(n, 1u));
}`;
    expect(program(sideEffect).wgsl.match(/atomicAdd/g)?.length).toBe(4);
  });
});
