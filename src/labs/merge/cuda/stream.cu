// Twin of shaders/merge/partition.wgsl and stream.wgsl: the merge in two launches. mergePartition:
// one thread per tile boundary finds where it falls in A (co_rank on global memory). mergeStream:
// fewer blocks than tiles, each walking over tiles blockIdx.x, + gridDim.x, …; while one tile is
// searched and merged in shared memory, the next tile's words are already loading into registers.
#define BLOCK 128                            // threads a block of mergeStream
#define ITEMS 11                             // outputs per thread: odd, so a warp's words hit 32 banks
#define TILE (BLOCK * ITEMS)                 // outputs per tile

#include "co_rank.cuh"
#include "merge_partition.cuh"

// Tile g: its first output k0, its first word of A a0, its share of A la, and its length.
struct Tile { int k0, a0, la, count; };

__device__ Tile tileOf(int m, int n, const int *splits, int g) {
  Tile t;
  t.k0 = min(g * TILE, m + n);
  t.a0 = splits[g];
  t.la = splits[g + 1] - t.a0;
  t.count = min(t.k0 + TILE, m + n) - t.k0;
  return t;
}

// Word x of tile t: A's share, then B's; nothing past the tile's end.
template <typename T>
__device__ T tileWord(const T *A, const T *B, Tile t, int x) {
  if (x < t.la) return A[t.a0 + x];
  if (x < t.count) return B[t.k0 - t.a0 + x - t.la];
  return T();
}

template <typename T>
__global__ void mergeStream(const T *A, int m, const T *B, int n, T *C, const int *splits, int boundaries) {
  __shared__ T tile[TILE];                   // A's share of the tile, then B's; then its outputs
  __shared__ int starts[BLOCK + 1];          // where each thread's share starts in A's share
  int tid = threadIdx.x, tiles = boundaries - 1;
  T next[ITEMS], merged[ITEMS];              // registers: the next tile's words, this thread's outputs
  Tile t = {0, 0, 0, 0};
  if (blockIdx.x < tiles) {
    t = tileOf(m, n, splits, blockIdx.x);
    #pragma unroll
    for (int r = 0; r < ITEMS; r++) next[r] = tileWord(A, B, t, tid + r * BLOCK);
  }
  for (int g = blockIdx.x; g < tiles; g += gridDim.x) {
    int k0 = t.k0, la = t.la, count = t.count, lb = count - la;
    #pragma unroll
    for (int r = 0; r < ITEMS; r++) {
      int x = tid + r * BLOCK;
      if (x < count) tile[x] = next[r];
    }
    __syncthreads();
    if (g + gridDim.x < tiles) {             // in flight while this tile is searched and merged
      t = tileOf(m, n, splits, g + gridDim.x);
      #pragma unroll
      for (int r = 0; r < ITEMS; r++) next[r] = tileWord(A, B, t, tid + r * BLOCK);
    }
    int t0 = min(tid * ITEMS, count), t1 = min(t0 + ITEMS, count);
    int i0 = co_rank(t0, tile, la, tile + la, lb);
    starts[tid] = i0;
    if (tid == BLOCK - 1) starts[BLOCK] = la;  // past the last output, all of A's share is taken
    __syncthreads();
    int i1 = starts[tid + 1];                // the next thread's start ends this share
    int i = i0, j = t0 - i0, j1 = t1 - i1;
    #pragma unroll
    for (int r = 0; r < ITEMS; r++) {        // a fixed ITEMS steps, no branches; steps past t1 go unstored
      T av = tile[min(i, TILE - 1)], bv = tile[min(la + j, TILE - 1)];
      bool takeA = j >= j1 || (i < i1 && av <= bv);
      merged[r] = takeA ? av : bv;
      i += takeA ? 1 : 0;
      j += takeA ? 0 : 1;
    }
    __syncthreads();
    #pragma unroll
    for (int r = 0; r < ITEMS; r++)
      if (t0 + r < t1) tile[t0 + r] = merged[r];
    __syncthreads();
    #pragma unroll
    for (int r = 0; r < ITEMS; r++) {        // coalesced stores
      int x = tid + r * BLOCK;
      if (x < count) C[k0 + x] = tile[x];
    }
    __syncthreads();                         // everyone has stored before the next tile overwrites
  }
}

// The host: the boundaries of every tile, then at most 2048 blocks walking over the tiles.
void merge(const int *A, int m, const int *B, int n, int *C, int *splits) {
  int tiles = max(1, (m + n + TILE - 1) / TILE);
  mergePartition<int><<<(tiles + 1 + 63) / 64, 64>>>(A, m, B, n, splits, tiles + 1);
  mergeStream<int><<<min(tiles, 2048), BLOCK>>>(A, m, B, n, C, splits, tiles + 1);
}
void merge(const unsigned int *A, int m, const unsigned int *B, int n, unsigned int *C, int *splits) {
  int tiles = max(1, (m + n + TILE - 1) / TILE);
  mergePartition<unsigned int><<<(tiles + 1 + 63) / 64, 64>>>(A, m, B, n, splits, tiles + 1);
  mergeStream<unsigned int><<<min(tiles, 2048), BLOCK>>>(A, m, B, n, C, splits, tiles + 1);
}
void merge(const float *A, int m, const float *B, int n, float *C, int *splits) {
  int tiles = max(1, (m + n + TILE - 1) / TILE);
  mergePartition<float><<<(tiles + 1 + 63) / 64, 64>>>(A, m, B, n, splits, tiles + 1);
  mergeStream<float><<<min(tiles, 2048), BLOCK>>>(A, m, B, n, C, splits, tiles + 1);
}
