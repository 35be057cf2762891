// Twin of shaders/scan/single-pass.wgsl: the whole scan in one launch, by decoupled look-back with
// a fallback. Each block scans a tile of blockDim.x * ITEMS elements, publishes the tile's
// aggregate at once, then looks back over its predecessors' published values to learn the sum of
// everything before it, publishes its own inclusive prefix, and writes its tile. The data is read
// once and written once.
//
// Why no block ever waits unboundedly: CUDA promises nothing about forward progress between
// blocks, and WebGPU promises none at all, so a block that spins until another publishes may
// starve it forever (for instance when they share a core). Here a look-back reads a
// predecessor's slot at most SPIN_LIMIT times; if it is still empty, the block reduces that
// predecessor's tile itself from the input (the fallback) and moves one tile further back.
//
// Why no __threadfence(): CUDA would store the value, __threadfence(), then set a flag in another
// word. WGSL has no fence across the whole device (its atomics are relaxed, and __threadfence()
// becomes a barrier that orders memory within a block only), so each 32-bit value is published
// as two words, (mark << 16) | 16-bit half: every word carries its own ready mark, so two ready
// halves always belong together, whatever order other blocks see them in.
//
// Tiles go by ticket (atomicAdd on status[0]) in the order blocks start, not by blockIdx.x, so a
// tile's predecessors have usually started. Launching again on the same status words needs no
// reset: tickets keep counting, launch d = ticket / tile_count, and its mark is 1 + d % 2 (0: never
// written), so a slot left by the launch before reads as not ready.
// Floating point: a tile's prefix is summed in the order the look-back met published values, so
// float results can differ in the last bits from run to run; integers are exact.
#define ITEMS 8                              // consecutive elements a thread
#define NOT_READY 0u
#define AGGREGATE 1u                         // the tile's own sum
#define INCLUSIVE 2u                         // the sum of the tile and everything before it

#include "status_bits.cuh"

// The tile in shared memory, one spare word after every 32 (see blelloch-padded.cu): thread lid
// reads words lid * ITEMS + r, which unpadded would put lanes k and k + 32 / ITEMS on one bank.
__device__ unsigned int pad(unsigned int i) { return i + (i >> 5); }

// Scans one value a thread (Hillis–Steele, double-buffered in scratch[0, 2W)). Returns the half
// of scratch that holds the inclusive sums: thread t's at [side + t], the block's total at
// [side + W - 1]. Every thread of the block calls it.
template <typename T>
__device__ unsigned int scanBlock(T *scratch, unsigned int lid, T x) {
  unsigned int W = blockDim.x;
  __syncthreads();                           // a previous call's readers are done with scratch
  scratch[lid] = x;
  unsigned int cur = 0;
  for (unsigned int offset = 1; offset < W; offset *= 2) {
    __syncthreads();
    unsigned int nxt = W - cur;
    if (lid >= offset) scratch[nxt + lid] = scratch[cur + lid - offset] + scratch[cur + lid];
    else scratch[nxt + lid] = scratch[cur + lid];
    cur = nxt;
  }
  __syncthreads();
  return cur;
}

// The fallback: tile t's sum, computed from the input (round r reads words r * W + lid: coalesced).
// Every thread of the block calls it.
template <typename T>
__device__ T reduceTile(const T *input, T *scratch, unsigned int t, unsigned int lid, unsigned int n) {
  unsigned int W = blockDim.x, base = t * W * ITEMS;
  T sum = T(0);
  for (unsigned int r = 0; r < ITEMS; r++) {
    unsigned int i = base + r * W + lid;
    if (i < n) sum = sum + input[i];
  }
  unsigned int side = scanBlock(scratch, lid, sum);
  return scratch[side + W - 1];
}

// Tile t's slot is status[1 + 4t …]: aggregate (lo, hi), then inclusive prefix (lo, hi).
__device__ void publish(volatile unsigned int *status, unsigned int t, unsigned int kind, unsigned int bits, unsigned int mark) {
  unsigned int slot = 1 + 4 * t + 2 * (kind - 1);   // AGGREGATE: +0, INCLUSIVE: +2
  status[slot] = (mark << 16) | (bits & 0xffffu);
  status[slot + 1] = (mark << 16) | (bits >> 16);
}

// Thread 0 only: reads tile t's slot up to spinLimit times; leaves what it found in *state (and
// the value's bits in *bits), NOT_READY if nothing was published.
__device__ void lookAt(volatile unsigned int *status, unsigned int t, unsigned int mark, unsigned int spinLimit,
                       unsigned int *state, unsigned int *bits) {
  unsigned int slot = 1 + 4 * t;
  for (unsigned int tries = 0; tries < spinLimit; tries++) {
    unsigned int incLo = status[slot + 2], incHi = status[slot + 3];
    if ((incLo >> 16) == mark && (incHi >> 16) == mark) {
      *state = INCLUSIVE;
      *bits = (incHi << 16) | (incLo & 0xffffu);
      return;
    }
    unsigned int aggLo = status[slot], aggHi = status[slot + 1];
    if ((aggLo >> 16) == mark && (aggHi >> 16) == mark) {
      *state = AGGREGATE;
      *bits = (aggHi << 16) | (aggLo & 0xffffu);
      return;
    }
  }
  *state = NOT_READY;
}

// status: a ticket counter, then 4 words a tile, zeroed before the first launch and never reset.
template <typename T, bool EXCLUSIVE, int SPIN_LIMIT>
__global__ void scanSinglePass(const T *input, T *output, volatile unsigned int *status, unsigned int n, unsigned int tile_count) {
  extern __shared__ T smem[];                // the padded tile (W * ITEMS + W * ITEMS / 32), then 2W of scratch
  __shared__ unsigned int ticket, lookState, lookBits;
  unsigned int lid = threadIdx.x, W = blockDim.x;
  T *tileMem = smem;
  T *scratch = smem + W * ITEMS + W * ITEMS / 32;
  if (lid == 0) ticket = atomicAdd((unsigned int *)&status[0], 1u);
  __syncthreads();
  unsigned int drawn = ticket;               // after the barrier: one value for the whole block
  unsigned int tile = drawn % tile_count;
  unsigned int mark = 1 + (drawn / tile_count) % 2;
  unsigned int base = tile * W * ITEMS;

  // Load the tile coalesced (round r: words r * W + lid), then each thread sums its ITEMS
  // consecutive elements and the block scans those sums.
  for (unsigned int r = 0; r < ITEMS; r++) {
    unsigned int x = r * W + lid;
    tileMem[pad(x)] = base + x < n ? input[base + x] : T(0);   // past the end: the identity
  }
  __syncthreads();
  T own = T(0);
  for (unsigned int r = 0; r < ITEMS; r++) own = own + tileMem[pad(lid * ITEMS + r)];
  unsigned int side = scanBlock(scratch, lid, own);
  T before = lid > 0 ? scratch[side + lid - 1] : T(0);   // the sum of the threads before this one
  T total = scratch[side + W - 1];

  // Publish at once: tile 0's aggregate is already its inclusive prefix.
  if (lid == 0) publish(status, tile, tile == 0 ? INCLUSIVE : AGGREGATE, toBits(total), mark);

  // Look back: add predecessors' values right to left until one has published its inclusive prefix.
  T prefix = T(0);
  for (unsigned int j = tile; j > 0;) {      // predecessors left to look at: j - 1, j - 2, …, 0
    j--;
    if (lid == 0) lookAt(status, j, mark, SPIN_LIMIT, &lookState, &lookBits);
    __syncthreads();
    unsigned int state = lookState;          // after the barrier: one value for the whole block
    if (state == NOT_READY) prefix = reduceTile(input, scratch, j, lid, n) + prefix;
    else prefix = fromBits(lookBits, T()) + prefix;
    __syncthreads();                         // all have read lookBits before thread 0 looks again
    if (state == INCLUSIVE) break;
  }
  if (lid == 0 && tile > 0) publish(status, tile, INCLUSIVE, toBits(prefix + total), mark);

  // Rescan this thread's ITEMS elements from its prefix, then store coalesced.
  T running = prefix + before;
  for (unsigned int r = 0; r < ITEMS; r++) {
    unsigned int p = pad(lid * ITEMS + r);
    T v = tileMem[p];
    if (EXCLUSIVE) {
      tileMem[p] = running;
      running = running + v;
    } else {
      running = running + v;
      tileMem[p] = running;
    }
  }
  __syncthreads();
  for (unsigned int r = 0; r < ITEMS; r++) {
    unsigned int x = r * W + lid;
    if (base + x < n) output[base + x] = tileMem[pad(x)];
  }
}

// The host: one launch for any n, on status words zeroed once (cudaMemset) and reused after; one
// instance per element type and kind of scan. Shared memory: the padded tile and the scratch.
#define TILES(n, block) (((n) + (block) * ITEMS - 1) / ((block) * ITEMS))
#define SHARED(block, T) (((block) * ITEMS + (block) * ITEMS / 32 + 2 * (block)) * sizeof(T))
void scan(const unsigned int *in, unsigned int *out, unsigned int *status, unsigned int n, unsigned int block, bool exclusive) {
  if (exclusive) scanSinglePass<unsigned int, true, 64><<<TILES(n, block), block, SHARED(block, unsigned int)>>>(in, out, status, n, TILES(n, block));
  else scanSinglePass<unsigned int, false, 64><<<TILES(n, block), block, SHARED(block, unsigned int)>>>(in, out, status, n, TILES(n, block));
}
void scan(const int *in, int *out, unsigned int *status, unsigned int n, unsigned int block, bool exclusive) {
  if (exclusive) scanSinglePass<int, true, 64><<<TILES(n, block), block, SHARED(block, int)>>>(in, out, status, n, TILES(n, block));
  else scanSinglePass<int, false, 64><<<TILES(n, block), block, SHARED(block, int)>>>(in, out, status, n, TILES(n, block));
}
void scan(const float *in, float *out, unsigned int *status, unsigned int n, unsigned int block, bool exclusive) {
  if (exclusive) scanSinglePass<float, true, 64><<<TILES(n, block), block, SHARED(block, float)>>>(in, out, status, n, TILES(n, block));
  else scanSinglePass<float, false, 64><<<TILES(n, block), block, SHARED(block, float)>>>(in, out, status, n, TILES(n, block));
}
// The fallback alone (no spin: every look-back reduces its predecessors' tiles itself), for tests.
void scanByFallback(const unsigned int *in, unsigned int *out, unsigned int *status, unsigned int n, unsigned int block) {
  scanSinglePass<unsigned int, false, 0><<<TILES(n, block), block, SHARED(block, unsigned int)>>>(in, out, status, n, TILES(n, block));
}
