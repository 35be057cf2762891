// What the vec4 single passes share (single-pass-vec4.cu, single-pass-late-scan.cu,
// single-pass-warp-totals.cu; twins of shaders/scan/single-pass-vec4.wgsl and its two variants):
// the tile's loads and stores, the status words, and warp 0's look-back with its fallback.
//
// Tile = 8 rows of blockDim.x uint4s (32 elements a thread, 8 192 at 256). Thread lid holds uint4
// lid of every row: each load and store of a warp covers 32 consecutive uint4s (512 bytes, fully
// coalesced), and no transpose through shared memory is needed, since a uint4's 4 elements are
// consecutive. The rows are a local array indexed only by unrolled loops, so they stay in
// registers while the tile waits for its look-back.
//
// Status words: status[0] is the ticket counter; tile t's value is status[1 + 2t] (low half) and
// status[2 + 2t] (high half), each word (flag << 16) | 16 bits, flag = mark * 2 + kind (kind 0
// aggregate, 1 inclusive prefix; mark 1 + launch % 2, 0 = never written). Both halves must carry
// the same flag: each (word, flag) is written once a launch, so two equal flags belong to one
// published value, whatever order other blocks see the words in; no __threadfence() is needed
// (single-pass.cu says why WGSL has none to give). Zeroed once, never reset: tickets keep counting.
#pragma once
#include "warp_scan.cuh"
#include "status_bits.cuh"
#define VECS 8                               // uint4s a thread: the tile's rows
#define NOT_READY 0u
#define AGGREGATE 1u                         // the tile's own sum
#define INCLUSIVE 2u                         // the sum of the tile and everything before it

// CUDA defines no arithmetic on its vector types: the sum of a uint4's (or float4's) elements.
__device__ unsigned int hsum(uint4 v) { return v.x + v.y + v.z + v.w; }
__device__ int hsum(int4 v) { return v.x + v.y + v.z + v.w; }
__device__ float hsum(float4 v) { return v.x + v.y + v.z + v.w; }

// uint4 vi of the input, with elements at or past n read as 0 (the last tile only).
template <typename V>
__device__ V loadVec(const V *input, unsigned int vi, unsigned int n) {
  unsigned int e = vi * 4;
  if (e + 3 < n) return input[vi];
  V w = {0, 0, 0, 0};
  if (e < n) {
    w = input[vi];
    if (e + 1 >= n) w.y = 0;
    if (e + 2 >= n) w.z = 0;
    w.w = 0;
  }
  return w;
}

// The block's tile, drawn by ticket (atomicAdd on status[0]) in the order blocks start, so a
// tile's predecessors have usually started; launch d = ticket / tile_count marks its status words
// 1 + d % 2. The tile's first uint4 is base = tile * W * VECS.
struct Ticket {
  unsigned int tile, mark;
};

// Draws the tile and loads it: row r's uint4 at lid into x[r]. Every tile but the last is whole:
// its loads need no bounds logic. Every thread of the block calls it.
template <typename V>
__device__ Ticket loadTile(const V *input, V *x, volatile unsigned int *status, unsigned int *ticket, unsigned int n, unsigned int tile_count) {
  unsigned int lid = threadIdx.x, W = blockDim.x;
  if (lid == 0) *ticket = atomicAdd((unsigned int *)&status[0], 1u);
  __syncthreads();
  unsigned int drawn = *ticket;              // after the barrier: one value for the whole block
  Ticket t = {drawn % tile_count, 1 + (drawn / tile_count) % 2};
  unsigned int base = t.tile * W * VECS;
  bool whole = t.tile + 1 < tile_count;
  for (int r = 0; r < VECS; r++) x[r] = whole ? input[base + r * W + lid] : loadVec(input, base + r * W + lid, n);
  return t;
}

// loadTile, then each row's sums scanned across the warp: laneBefore[r] is the sum of the lanes
// before this one, and lane 31's inclusive sum, the warp's total, goes to warpTotals[r * 32 + warp].
// Ends with the barrier after which every warp's totals can be read.
template <typename T, typename V>
__device__ Ticket loadAndScanTile(const V *input, V *x, T *laneBefore, T *warpTotals, volatile unsigned int *status, unsigned int *ticket,
                                  unsigned int n, unsigned int tile_count) {
  unsigned int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  Ticket t = loadTile(input, x, status, ticket, n, tile_count);
  for (int r = 0; r < VECS; r++) {
    T inclusive = warpInclusiveScan(hsum(x[r]));
    T before = __shfl_up_sync(FULL_MASK, inclusive, 1);
    laneBefore[r] = lane > 0 ? before : T(0);
    if (lane == 31) warpTotals[r * 32 + warp] = inclusive;
  }
  __syncthreads();
  return t;
}

// Stores uint4 vi of the output: v scanned serially, starting from offset.
template <typename T, typename V>
__device__ void storeScanned(V *output, unsigned int vi, V v, T offset, bool exclusive, unsigned int vecCount) {
  T s1 = v.x, s2 = s1 + v.y, s3 = s2 + v.z;
  V scanned;
  if (exclusive) {
    scanned.x = offset; scanned.y = offset + s1; scanned.z = offset + s2; scanned.w = offset + s3;
  } else {
    scanned.x = offset + s1; scanned.y = offset + s2; scanned.z = offset + s3; scanned.w = offset + (s3 + v.w);
  }
  if (vi < vecCount) output[vi] = scanned;
}

__device__ void publish(volatile unsigned int *status, unsigned int t, unsigned int kind, unsigned int bits, unsigned int mark) {
  unsigned int flag = (mark << 1) | (kind - 1);
  status[1 + 2 * t] = (flag << 16) | (bits & 0xffffu);
  status[2 + 2 * t] = (flag << 16) | (bits >> 16);
}

// Tile t's state as this launch published it (NOT_READY if not), and its value's bits in *bits.
__device__ unsigned int readSlot(volatile unsigned int *status, unsigned int t, unsigned int mark, unsigned int *bits) {
  unsigned int lo = status[1 + 2 * t], hi = status[2 + 2 * t];
  unsigned int flag = lo >> 16;
  if (flag != (hi >> 16) || (flag >> 1) != mark) return NOT_READY;
  *bits = (hi << 16) | (lo & 0xffffu);
  return 1 + (flag & 1);
}

// The fallback, by one warp: tile t's sum, from the input.
template <typename T, typename V>
__device__ T reduceTile(const V *input, unsigned int t, unsigned int n) {
  unsigned int lane = threadIdx.x & 31, vecs = blockDim.x * VECS, first = t * vecs;
  T acc = T(0);
  for (unsigned int q = lane; q < vecs; q += 32) acc += hsum(loadVec(input, first + q, n));
  return warpSum(acc);
}

// The look-back, by warp 0 alone: the sum of every tile before `tile`. Lane i reads tile
// j - 1 - i, so one round trip to memory sees 32 predecessors. The window counts up to the nearest
// tile with an inclusive prefix if every tile before it is ready; if a tile stays not ready for
// spinLimit reads, the warp sums the ready ones nearer, then reduces that tile itself from the
// input (the fallback) and looks on from the tile before. Every loop is bounded, so the scan
// finishes under any schedule of blocks.
template <typename T, typename V>
__device__ T lookBack(const V *input, volatile unsigned int *status, unsigned int tile, unsigned int mark, unsigned int n, int spinLimit) {
  unsigned int lane = threadIdx.x & 31;
  T prefix = T(0);
  unsigned int j = tile;                     // tiles 0 … j - 1 are still to count
  while (j > 0) {
    bool valid = lane < j;
    unsigned int t = j - 1 - min(lane, j - 1);
    unsigned int state = NOT_READY, bits = 0;
    unsigned int firstIncl = 32, firstWait = 0;   // the nearest lanes with an inclusive prefix, not ready
    for (int tries = 0; tries < spinLimit; tries++) {
      if (valid && state != INCLUSIVE) {
        unsigned int b = 0;
        unsigned int s = readSlot(status, t, mark, &b);
        if (s != NOT_READY) {                // a lane that saw an aggregate keeps it if the upgrade is half-seen
          state = s;
          bits = b;
        }
      }
      // The lowest lane whose predicate holds: __brev puts lane 0 on top, __clz counts to it (32: none).
      firstIncl = __clz(__brev(__ballot_sync(FULL_MASK, valid && state == INCLUSIVE)));
      firstWait = __clz(__brev(__ballot_sync(FULL_MASK, valid && state == NOT_READY)));
      if (firstWait > firstIncl || firstWait == 32) break;   // ready up to an inclusive prefix, or all ready
    }
    // Count lanes 0 … limit - 1: up to and with the inclusive prefix, else up to the first wait.
    unsigned int limit = firstIncl < firstWait ? firstIncl + 1 : firstWait;
    prefix += warpSum(valid && lane < limit ? fromBits(bits, T()) : T(0));
    if (firstIncl < firstWait) break;
    j -= min(limit, j);
    if (firstWait < 32 && j > 0) {           // it stayed silent: do it ourselves
      prefix += reduceTile<T>(input, j - 1, n);
      j--;
    }
  }
  return prefix;
}

// Warp 0: publishes the tile's aggregate (tile 0's is already its inclusive prefix), looks back,
// publishes the inclusive prefix and leaves the tile's prefix in *tilePrefix.
template <typename T, typename V>
__device__ void publishAndLookBack(const V *input, volatile unsigned int *status, unsigned int tile, unsigned int mark,
                                   T tileTotal, unsigned int n, int spinLimit, T *tilePrefix) {
  unsigned int lane = threadIdx.x & 31;
  if (lane == 0) publish(status, tile, tile == 0 ? INCLUSIVE : AGGREGATE, toBits(tileTotal), mark);
  T prefix = lookBack<T>(input, status, tile, mark, n, spinLimit);
  if (lane == 0) {
    if (tile > 0) publish(status, tile, INCLUSIVE, toBits(prefix + tileTotal), mark);
    *tilePrefix = prefix;
  }
}

// The host of a vec4 single pass: one launch for any n, on status words zeroed once (cudaMemset)
// and reused after; one instance per element type and kind of scan, and one that never spins
// (every look-back reduces its predecessors' tiles itself), for tests.
#define TILES(n, block) (((n) + (block) * VECS * 4 - 1) / ((block) * VECS * 4))
#define LAUNCH(kernel, T, V, exclusive, spin) kernel<T, V, exclusive, spin><<<TILES(n, block), block>>>(in, out, status, n, TILES(n, block))
#define SINGLE_PASS_VEC4_HOST(kernel)                                                                                \
  void scan(const uint4 *in, uint4 *out, unsigned int *status, unsigned int n, unsigned int block, bool exclusive) {   \
    if (exclusive) LAUNCH(kernel, unsigned int, uint4, true, 64); else LAUNCH(kernel, unsigned int, uint4, false, 64); \
  }                                                                                                                  \
  void scan(const int4 *in, int4 *out, unsigned int *status, unsigned int n, unsigned int block, bool exclusive) {     \
    if (exclusive) LAUNCH(kernel, int, int4, true, 64); else LAUNCH(kernel, int, int4, false, 64);                     \
  }                                                                                                                  \
  void scan(const float4 *in, float4 *out, unsigned int *status, unsigned int n, unsigned int block, bool exclusive) { \
    if (exclusive) LAUNCH(kernel, float, float4, true, 64); else LAUNCH(kernel, float, float4, false, 64);             \
  }                                                                                                                  \
  void scanByFallback(const uint4 *in, uint4 *out, unsigned int *status, unsigned int n, unsigned int block) {        \
    LAUNCH(kernel, unsigned int, uint4, false, 0);                                                                   \
  }
