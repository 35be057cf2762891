/**
 * §2 Synchronisation: __syncthreads() and __syncwarp(), and barriers that WGSL's uniformity rules
 * reject: the translatable kind (threads that returned early stay as inactive lanes) and the
 * kind CUDA itself leaves undefined, which is reported (Programming Guide §"Synchronization
 * Functions": __syncthreads in conditional code only if the condition is uniform over the block).
 */
import { dim3, group, iota } from '../harness.ts';
import { at, cu } from './source.ts';

export const g = group('sync');
const SYNC = 'CUDA Programming Guide, Synchronization Functions';

/** The interleaved (seed 000 style) and sequential tree reductions, one block sum each. */
const INTERLEAVED = cu`
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {`;
const SEQUENTIAL = cu`
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {`;
function reduceKernel(loop: string): string {
  return cu`
__global__ void reduce(const int* in, int* out)
{
    __shared__ int sdata[128];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = in[i];
    __syncthreads();
${loop}
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}
`;
}

g.test('shared_reduction', `${SYNC}: __syncthreads between tree levels`)
  .params([{ addressing: 'interleaved' }, { addressing: 'sequential' }])
  .run(({ addressing }) => ({
    from: 'reference',
    source: reduceKernel(addressing === 'interleaved' ? INTERLEAVED : SEQUENTIAL),
    kernel: 'reduce',
    launch: { grid: dim3(4), block: dim3(128) },
    args: { in: Int32Array.from(iota(512), (k) => (k * 13) % 29), out: new Int32Array(4) },
    expect: { out: iota(4).map((b) => iota(128).reduce((s, t) => s + (((b * 128 + t) * 13) % 29), 0)) },
  }));

const EARLY_RETURN = cu`
__global__ void swapNeighbours(const int* in, int* out, int n)
{
    __shared__ int s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[threadIdx.x ^ 1];
}
`;
g.test('barrier_after_early_return', `${SYNC}; issue §2: threads that returned are inactive lanes at the barrier; the others go on`).run(() => ({
  from: 'reference',
  source: EARLY_RETURN,
  kernel: 'swapNeighbours',
  launch: { grid: dim3(2), block: dim3(64) },
  args: { in: Int32Array.from(iota(100), (k) => k * 2 + 1), out: new Int32Array(100), n: 100 },
  expect: { out: iota(100).map((k) => (k ^ 1) * 2 + 1) },
}));

g.test('barrier_in_loop_after_early_return', `${SYNC}: the out-of-range threads of the last block left before a loop of barriers`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void partialSums(const int* in, int* out, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i >= n) return;
    s[t] = in[i];
    __syncthreads();
    int count = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x));
    for (int stride = 1; stride < count; stride *= 2) {
        int v = (t >= stride) ? s[t - stride] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    out[i] = s[t];
}
`,
  kernel: 'partialSums',
  launch: { grid: dim3(2), block: dim3(64) },
  args: { in: Int32Array.from(iota(90), (k) => (k % 5) + 1), out: new Int32Array(90), n: 90 },
  // An inclusive scan within each block: the 26 threads of block 1 that stayed scan their own 26.
  expect: {
    out: iota(90).map((k) => {
      const start = Math.floor(k / 64) * 64;
      let s = 0;
      for (let j = start; j <= k; j++) s += (j % 5) + 1;
      return s;
    }),
  },
}));

g.test('barrier_under_uniform_condition', `${SYNC}: a condition on blockIdx, blockDim or a kernel parameter is uniform over the block`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void uniformBranch(const int* in, int* out, int mode)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    if (blockIdx.x % 2 == 0 && mode > 0) {
        int v = s[(t + 1) % 64];
        __syncthreads();
        s[t] = v;
        __syncthreads();
    }
    out[blockIdx.x * 64 + t] = s[t];
}
`,
  kernel: 'uniformBranch',
  launch: { grid: dim3(2), block: dim3(64) },
  args: { in: Int32Array.from(iota(128)), out: new Int32Array(128), mode: 1 },
  expect: { out: iota(128).map((k) => (k < 64 ? (k + 1) % 64 : k)) },
}));

g.test('double_buffered_phases', `${SYNC}: two buffers, one barrier per phase`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void smooth(const float* in, float* out, int steps)
{
    __shared__ float a[64];
    __shared__ float b[64];
    int t = threadIdx.x;
    a[t] = in[t];
    __syncthreads();
    float* src = a;
    float* dst = b;
    for (int k = 0; k < steps; ++k) {
        dst[t] = src[t] + src[(t + 63) % 64];
        __syncthreads();
        float* tmp = src;
        src = dst;
        dst = tmp;
    }
    out[t] = src[t];
}
`,
  kernel: 'smooth',
  launch: { grid: dim3(1), block: dim3(64) },
  args: { in: Float32Array.from(iota(64), (t) => (t === 0 ? 1 : 0)), out: new Float32Array(64), steps: 5 },
  expect: {
    out: (() => {
      let v: number[] = iota(64).map((t) => (t === 0 ? 1 : 0));
      for (let k = 0; k < 5; k++) v = v.map((x, t) => x + v[(t + 63) % 64]!);
      return v;
    })(),
  },
}));

g.test('syncwarp_exchange', `${SYNC}, __syncwarp: lanes of one warp exchange through shared memory`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void pairSwap(const int* in, int* out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncwarp();
    out[t] = s[t ^ 1];
}
`,
  kernel: 'pairSwap',
  launch: { grid: dim3(1), block: dim3(64) },
  args: { in: Int32Array.from(iota(64), (t) => t * t), out: new Int32Array(64) },
  expect: { out: iota(64).map((t) => (t ^ 1) * (t ^ 1)) },
}));

// ---- reported: barriers CUDA leaves undefined

const DIVERGENT_IF = cu`
__global__ void halfBarrier(int* out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 16) {
        __syncthreads();
    }
    out[threadIdx.x] = s[63 - threadIdx.x];
}
`;
g.test('barrier_in_divergent_branch', `${SYNC}: __syncthreads under a condition that differs between threads is undefined`).error(() => ({
  nvccAccepts: true,
  source: DIVERGENT_IF,
  error: { ...at(DIVERGENT_IF, '__syncthreads'), includes: ['__syncthreads'] },
}));

const DATA_LOOP = cu`
__global__ void dataLoop(const int* counts, int* out)
{
    int t = threadIdx.x;
    int acc = 0;
    for (int k = 0; k < counts[t]; ++k) {
        acc += k;
        __syncthreads();
    }
    out[t] = acc;
}
`;
g.test('barrier_in_thread_dependent_loop', `${SYNC}: a loop whose trip count differs between threads cannot hold a barrier`).error(() => ({
  nvccAccepts: true,
  source: DATA_LOOP,
  error: { ...at(DATA_LOOP, '__syncthreads'), includes: ['__syncthreads'] },
}));

const TWO_SITES = cu`
__global__ void twoSites(int* out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t % 2 == 0) {
        s[t] = 1;
        __syncthreads();
    } else {
        s[t] = 2;
        __syncthreads();
    }
    out[t] = s[t ^ 1];
}
`;
g.test('barrier_in_both_branches', `${SYNC}: two different __syncthreads calls are two different barriers`).error(() => ({
  nvccAccepts: true,
  source: TWO_SITES,
  error: { ...at(TWO_SITES, '__syncthreads'), includes: ['__syncthreads'] },
}));

const HOST_SYNC = cu`
void hostStep(int* data)
{
    data[0] = 1;
    __syncthreads();
}

__global__ void k(int* out)
{
    out[threadIdx.x] = 0;
}
`;
g.test('syncthreads_in_host_code', `${SYNC}: __syncthreads is a device function; host code cannot call it`).error(() => ({
  source: HOST_SYNC,
  error: { ...at(HOST_SYNC, '__syncthreads'), includes: ['__syncthreads'] },
}));

// A __device__ function that writes through a pointer parameter: __syncthreads() orders what it
// wrote for the block's other threads whether the pointer leads into global or shared memory
// (Programming Guide: __syncthreads waits until all global and shared memory accesses made by
// the block's threads before it are visible to all threads of the block).
const THROUGH_POINTER = cu`
__device__ void put(int* p, int i, int v)
{
    p[i] = v;
}

__global__ void neighbourThroughGlobal(int* scratch, int* out)
{
    int t = threadIdx.x;
    put(scratch, blockIdx.x * blockDim.x + t, t * 3 + 1);
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = scratch[blockIdx.x * blockDim.x + (t ^ 1)];
}

__global__ void neighbourThroughShared(const int* in, int* out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    put(s, t, in[blockIdx.x * blockDim.x + t] * 2);
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[t ^ 1];
}
`;
g.test('barrier_after_device_function_writes_global', `${SYNC}: writes made through a device function's pointer parameter into global memory are seen by the block's other threads after the barrier`).run(() => ({
  from: 'reference',
  source: THROUGH_POINTER,
  kernel: 'neighbourThroughGlobal',
  launch: { grid: dim3(2), block: dim3(64) },
  args: { scratch: new Int32Array(128), out: new Int32Array(128) },
  expect: { scratch: iota(128).map((k) => (k % 64) * 3 + 1), out: iota(128).map((k) => ((k % 64) ^ 1) * 3 + 1) },
}));
g.test('barrier_after_device_function_writes_shared', `${SYNC}: the same device function given a pointer into __shared__ memory`).run(() => ({
  from: 'reference',
  source: THROUGH_POINTER,
  kernel: 'neighbourThroughShared',
  launch: { grid: dim3(2), block: dim3(64) },
  args: { in: Int32Array.from(iota(128), (k) => k * 5 - 7), out: new Int32Array(128) },
  expect: { out: iota(128).map((k) => ((k - (k % 64)) + ((k % 64) ^ 1)) * 10 - 14) },
}));

// A __shared__ variable read by every thread right after __syncthreads() holds the same value in
// every thread (Programming Guide: writes before the barrier are visible to the whole block
// after it), so a loop or branch on it may hold barriers: every thread takes it alike.
g.test('barrier_in_loop_on_shared_count', `${SYNC}: a trip count one thread wrote to shared memory, read by all after the barrier`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void rotateRounds(const int* in, const int* rounds, int* out)
{
    __shared__ int s[64];
    __shared__ int count;
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    if (t == 0) count = rounds[blockIdx.x];
    __syncthreads();
    int c = count;
    for (int k = 0; k < c; ++k) {
        int v = s[(t + 1) % 64];
        __syncthreads();
        s[t] = v;
        __syncthreads();
    }
    out[blockIdx.x * 64 + t] = s[t];
}
`,
  kernel: 'rotateRounds',
  launch: { grid: dim3(3), block: dim3(64) },
  args: { in: Int32Array.from(iota(192), (k) => k * 7), rounds: Int32Array.from([0, 1, 5]), out: new Int32Array(192) },
  // Block b rotates its 64 values left by rounds[b].
  expect: { out: iota(192).map((k) => { const b = Math.floor(k / 64); const r = [0, 1, 5][b]!; return (b * 64 + (((k % 64) + r) % 64)) * 7; }) },
}));

g.test('barrier_in_branch_on_shared_atomic', `${SYNC}, atomicAdd: a count the block's threads added to atomically, read by all after the barrier, chooses a branch holding a barrier`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void compactIfMany(const int* in, int* out, int limit)
{
    __shared__ unsigned int kept;
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t == 0) kept = 0;
    __syncthreads();
    int v = in[blockIdx.x * 64 + t];
    if (v > 0) atomicAdd(&kept, 1u);
    __syncthreads();
    unsigned int n = kept;
    if (n > limit) {
        s[t] = v;
        __syncthreads();
        v = s[63 - t];
    }
    out[blockIdx.x * 64 + t] = v + 1000 * n;
}
`,
  kernel: 'compactIfMany',
  launch: { grid: dim3(2), block: dim3(64) },
  // Block 0: 10 positive values (not above the limit 20); block 1: 40 (above it, so reversed).
  args: { in: Int32Array.from(iota(128), (k) => (k < 64 ? (k < 10 ? 1 : -1) * (k + 1) : (k - 64 < 40 ? 1 : -1) * (k + 1))), out: new Int32Array(128), limit: 20 },
  expect: {
    out: iota(128).map((k) => {
      const v = (j: number): number => (j < 64 ? (j < 10 ? 1 : -1) * (j + 1) : (j - 64 < 40 ? 1 : -1) * (j + 1));
      return k < 64 ? v(k) + 10000 : v(64 + 63 - (k - 64)) + 40000;
    }),
  },
}));

g.test('barrier_in_loop_on_shared_count_after_early_return', `${SYNC}: the same after the out-of-range threads of the last block returned`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void countedSteps(const int* rounds, int* out, int n)
{
    __shared__ int count;
    __shared__ int s[64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i >= n) return;
    s[t] = 3 * i;
    if (t == 0) count = rounds[blockIdx.x];
    __syncthreads();
    int c = count;
    for (int k = 0; k < c; ++k) {
        s[t] += k;
        __syncthreads();
    }
    out[i] = s[t] + 1000 * c;
}
`,
  kernel: 'countedSteps',
  launch: { grid: dim3(2), block: dim3(64) },
  args: { rounds: Int32Array.from([2, 4]), out: new Int32Array(100), n: 100 },
  // Block b adds 0 + 1 + … + (rounds[b] - 1) to each value; 28 threads of block 1 returned.
  expect: { out: iota(100).map((k) => { const c = k < 64 ? 2 : 4; return k * 3 + (c * (c - 1)) / 2 + 1000 * c; }) },
}));
