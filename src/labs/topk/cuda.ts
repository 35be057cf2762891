/**
 * The top-k kernels' CUDA, for the code pane. The course's scheme (seed), its fast form and the
 * radix select are real `.cu` files, translated and checked against the WGSL (`cudaTwins.ts`); the
 * CUDA tab runs them in place of the WGSL and the replay follows their lines. radix-ahead's is a
 * rendering written for reading, not compiled here.
 */
import FAST_CU from './cuda/fast.cu?raw';
import INSERT_VALUE_CUH from './cuda/insert_value.cuh?raw';
import SEED_CU from './cuda/seed.cu?raw';
import RADIX_CU from './cuda/radix.cu?raw';

/**
 * A top-k `.cu` file as the code pane shows it and the CUDA tab compiles it: `insert_value.cuh`
 * (written once for both) written out in place of its `#include` line, so the file reads, pastes
 * and runs whole (nvcc, given the folder, sees the same code).
 */
const whole = (source: string): string => source.replace('#include "insert_value.cuh"', INSERT_VALUE_CUH.trimEnd());

export const SEED_CUDA = whole(SEED_CU);

export const FAST_CUDA = whole(FAST_CU);

/** The radix selects' shared pieces of CUDA: the key, a round's pooling, the ranked write of the kept values. */
const KEY = `__device__ unsigned key(int v) { return (unsigned)v ^ 0x80000000u; }   // signed order as unsigned`;
const POOL_ROUND = `    int v[8] = {q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w};
    unsigned enter = 0;                              // one bit per value above the floor
    for (int c = 0; c < 8; c++) if ((c < 4 ? x0 : x1) < quads && v[c] > floor) enter |= 1u << c;
    if (enter) {                                     // one atomic for the thread's whole run
      unsigned slot = atomicAdd(&pooled, __popc(enter));
      for (int c = 0; c < 8; c++) if (enter >> c & 1) pool[slot++] = v[c];
    }`;
const RANKED = `  for (unsigned t = threadIdx.x; t < K; t += BLOCK) {  // each kept value to its rank, descending
    if (t >= kept) { output[blockIdx.x * K + t] = INT_MIN; continue; }
    int v = pool[t]; unsigned rank = 0;
    for (unsigned j = 0; j < kept; j++) rank += pool[j] > v || (pool[j] == v && j < t);
    output[blockIdx.x * K + rank] = v;
  }`;

/** The radix select: a real `.cu` file (no header). */
export const RADIX_CUDA = RADIX_CU;

export const RADIX_AHEAD_CUDA = `// CUDA rendering of shaders/topk/radix-ahead.wgsl (written for Warpscope).
${KEY}

// After a histogram of bins: the bucket, from the top, that holds the need-th value, into chosen
// (the bucket, the count still needed in it) and *keep_if_stop (what a stop there would keep).
__device__ void bucket(const unsigned *bins, unsigned *groups16, unsigned need, unsigned *chosen, unsigned *keep_if_stop) {
  if (threadIdx.x < 16) {                            // 16 group sums of 16 bins
    unsigned total = 0;
    for (int x = 0; x < 16; x++) total += bins[16 * threadIdx.x + x];
    groups16[threadIdx.x] = total;
  }
  __syncthreads();
  if (threadIdx.x == 0) {                            // one thread walks down to the bucket
    unsigned above = 0; int g = 15, b;
    for (; g > 0 && above + groups16[g] < need; g--) above += groups16[g];
    for (b = 16 * g + 15; b > 16 * g && above + bins[b] < need; b--) above += bins[b];
    chosen[0] = b; chosen[1] = need - above;
    *keep_if_stop = K - need + above + bins[b];      // values above the bucket, and the bucket
  }
  __syncthreads();
}

// Cuts the pool's size values (size >= K) and returns the new floor. exact: keep the K largest,
// floor at the K-th. Otherwise stop at the first 8-bit digit where at most CUT_KEEP values have a
// key at or above the K-th value's bucket: keep those, floor just under the bucket.
__device__ int cut(int *pool, unsigned *pooled, unsigned size, bool exact) {
  __shared__ unsigned bins[256], groups16[16], chosen[2], keep_if_stop, kept_count;
  __shared__ int kept[CUT_KEEP];
  unsigned prefix = 0, known = 0, need = K, edge = 0;
  bool partial = false;
  for (int d = 0; d < 4; d++) {                      // 8 bits of the key per pass, from the top
    int shift = 24 - 8 * d;
    bins[threadIdx.x] = 0;                           // BLOCK == 256: one bin per thread
    if (threadIdx.x == 0) kept_count = 0;
    __syncthreads();
    for (unsigned x = threadIdx.x; x < size; x += BLOCK) {
      unsigned u = key(pool[x]);
      if ((u & known) == prefix) atomicAdd(&bins[(u >> shift) & 255], 1);
    }
    __syncthreads();
    bucket(bins, groups16, need, chosen, &keep_if_stop);
    prefix |= chosen[0] << shift; known |= 255u << shift; need = chosen[1];
    if (!exact && keep_if_stop <= CUT_KEEP) { edge = prefix; partial = true; break; }
  }
  int floor_now = partial ? (int)(edge ^ 0x80000000u) - 1 : (int)(prefix ^ 0x80000000u);
  for (unsigned x = threadIdx.x; x < size; x += BLOCK) {
    int v = pool[x];
    if (partial ? key(v) >= edge : v > floor_now) kept[atomicAdd(&kept_count, 1)] = v;
  }
  __syncthreads();
  unsigned count = kept_count, total = partial ? count : K;
  for (unsigned x = threadIdx.x; x < total; x += BLOCK) pool[x] = x < count ? kept[x] : floor_now;
  if (threadIdx.x == 0) *pooled = total;
  __syncthreads();
  return floor_now;
}

// Pass 1: each block's K largest, in order, and *shared_floor raised to its list's K-th key.
__global__ void topkRadixAhead(const int4 *input, unsigned quads, int *output, unsigned *shared_floor) {
  __shared__ int pool[POOL];                         // POOL >= CUT_KEEP + 8 * BLOCK
  __shared__ unsigned pooled, size_now;
  int floor = INT_MIN;                               // a value enters the pool only above it
  if (threadIdx.x == 0) pooled = 0;
  __syncthreads();
  unsigned stride = gridDim.x * 2 * BLOCK, base = blockIdx.x * 2 * BLOCK, last = quads - 1;
  int4 q0 = input[min(base + threadIdx.x, last)], q1 = input[min(base + threadIdx.x + BLOCK, last)];
  while (base < quads) {
    unsigned next = base + stride;                   // the next round's loads go out first
    int4 n0 = input[min(next + threadIdx.x, last)], n1 = input[min(next + threadIdx.x + BLOCK, last)];
    unsigned x0 = base + threadIdx.x, x1 = x0 + BLOCK;
${POOL_ROUND}
    __syncthreads();
    if (threadIdx.x == 0) size_now = pooled;
    __syncthreads();
    unsigned size = size_now;
    if (size > POOL - 8 * BLOCK) floor = cut(pool, &pooled, size, false);
    q0 = n0; q1 = n1; base = next;
  }
  __syncthreads();
  unsigned size = pooled;
  __syncthreads();
  if (size >= K) floor = cut(pool, &pooled, size, true);   // exact: floor is the K-th value
  if (threadIdx.x == 0 && size >= K) atomicMax(shared_floor, key(floor));
  unsigned kept = min(size, (unsigned)K);
${RANKED}
}

// Pass 2 (one block): the K largest of the lists at or above the shared floor, by a radix select
// on each value's distance above it (its key minus the floor's key), from the highest 8-bit digit
// the widest distance uses, until at most CUT_KEEP values stay; those are gathered and ranked.
// The lists (a few thousand values) are read again at each step; they stay in the cache.
__global__ void topkRadixAheadPick(const int4 *lists, unsigned quads, int *output, const unsigned *shared_floor) {
  __shared__ unsigned bins[256], groups16[16], chosen[2], keep_if_stop, widest, reaching, kept_count;
  __shared__ int kept[CUT_KEEP];
  unsigned base = *shared_floor;                     // 0: no floor, every value is a candidate
  if (threadIdx.x == 0) { widest = 0; reaching = 0; kept_count = 0; }
  __syncthreads();
  unsigned most = 0, count = 0;                      // step 1: the widest distance, the candidates
  #pragma unroll 4                                   // four loads in flight
  for (unsigned x = threadIdx.x; x < quads; x += BLOCK) {
    int4 q = lists[x];
    for (int v : {q.x, q.y, q.z, q.w})
      if (key(v) >= base) { most = max(most, key(v) - base); count++; }
  }
  atomicMax(&widest, most); atomicAdd(&reaching, count);
  __syncthreads();
  unsigned total = reaching, prefix = 0, known = 0, need = K;
  int shift = max(32 - __clz(widest), 8) - 8;        // the highest digit the distances use
  bool exact = false;
  while (total > CUT_KEEP) {                         // step 2: one digit of the distance per pass
    bins[threadIdx.x] = 0;                           // BLOCK == 256: one bin per thread
    __syncthreads();
    #pragma unroll 4
    for (unsigned x = threadIdx.x; x < quads; x += BLOCK) {
      int4 q = lists[x];
      for (int v : {q.x, q.y, q.z, q.w}) {
        unsigned d = key(v) - base;
        if (key(v) >= base && (d & known) == prefix) atomicAdd(&bins[(d >> shift) & 255], 1);
      }
    }
    __syncthreads();
    bucket(bins, groups16, need, chosen, &keep_if_stop);
    total = keep_if_stop;
    prefix |= chosen[0] << shift; known |= 255u << shift; need = chosen[1];
    if (shift == 0) { exact = true; break; }         // prefix is the K-th value's distance
    shift = max(shift, 8) - 8;
    __syncthreads();
  }
  #pragma unroll 4                                   // step 3: gather what stays
  for (unsigned x = threadIdx.x; x < quads; x += BLOCK) {
    int4 q = lists[x];
    for (int v : {q.x, q.y, q.z, q.w}) {
      unsigned d = key(v) - base;
      if (key(v) >= base && (d > prefix || (!exact && d == prefix))) kept[atomicAdd(&kept_count, 1)] = v;
    }
  }
  __syncthreads();
  unsigned held = kept_count;                        // step 4: each kept value to its rank
  if (threadIdx.x < held) {
    int v = kept[threadIdx.x];
    unsigned rank = 0;
    for (unsigned j = 0; j < held; j++) rank += kept[j] > v || (kept[j] == v && j < threadIdx.x);
    if (rank < K) output[rank] = v;
  } else if (threadIdx.x < K) {                      // after an exact select: copies of the K-th
    output[threadIdx.x] = exact ? (int)((prefix + base) ^ 0x80000000u) : INT_MIN;
  }
}
// Launch: *shared_floor = 0; topkRadixAhead<<<groups, 256>>>(input, n / 4, partial, shared_floor);
//         topkRadixAheadPick<<<1, 256>>>(partial, groups * K / 4, result, shared_floor);
// groups: at most 396 (three per SM of an H100). The input is padded with INT_MIN to whole int4s;
// POOL = 3072, CUT_KEEP = 256.`;
