// Twin of shaders/merge/partition.wgsl and wide.wgsl: the merge in two launches. mergePartition:
// one thread per tile boundary finds where it falls in A (co_rank on global memory). mergeWide:
// one block per tile; every thread first loads its ITEMS words into registers (independent loads,
// all in flight at once), stages them in shared memory, finds where its outputs start with one
// co_rank, then follows the merge path for a fixed ITEMS steps against the tile's own ends: one
// shared load per step, no branches. The tile is the only shared memory (15 KB of 16).
#define BLOCK 256                            // threads a block of mergeWide
#define ITEMS 15                             // outputs per thread: odd, so a warp's words hit 32 banks
#define TILE (BLOCK * ITEMS)                 // outputs per block

#include "co_rank.cuh"
#include "merge_partition.cuh"

template <typename T>
__global__ void mergeWide(const T *A, int m, const T *B, int n, T *C, const int *splits) {
  __shared__ T tile[TILE];                   // A's share of the tile, then B's; then its outputs
  int tid = threadIdx.x, g = blockIdx.x;
  int k0 = min(g * TILE, m + n), count = min(k0 + TILE, m + n) - k0;
  int a0 = splits[g], la = splits[g + 1] - a0, b0 = k0 - a0;
  T v[ITEMS];                                // word tid + r * BLOCK of the tile in v[r]: coalesced
  if (count == TILE) {                       // a full tile (all but the last): no end test
    #pragma unroll
    for (int r = 0; r < ITEMS; r++) {
      int x = tid + r * BLOCK;
      if (x < la) v[r] = A[a0 + x];
      else v[r] = B[b0 + x - la];
    }
  } else {
    #pragma unroll
    for (int r = 0; r < ITEMS; r++) {
      int x = tid + r * BLOCK;
      if (x < la) v[r] = A[a0 + x];
      else if (x < count) v[r] = B[b0 + x - la];
    }
  }
  #pragma unroll
  for (int r = 0; r < ITEMS; r++) {
    int x = tid + r * BLOCK;
    if (x < count) tile[x] = v[r];
  }
  __syncthreads();
  // Where this thread's outputs start on the tile's merge path: i words of A's share taken, and
  // B's share read from word j of the tile.
  int t0 = min(tid * ITEMS, count);
  int i = co_rank(t0, tile, la, tile + la, count - la), j = la + t0 - i;
  T av = tile[min(i, TILE - 1)], bv = tile[min(j, TILE - 1)];
  #pragma unroll
  for (int r = 0; r < ITEMS; r++) {          // the tile's ends bound every step; steps past it go unstored
    bool takeA = j >= count || (i < la && av <= bv);
    v[r] = takeA ? av : bv;
    i += takeA ? 1 : 0;
    j += takeA ? 0 : 1;
    T next = tile[min(takeA ? i : j, TILE - 1)];  // the word that replaces the one just taken
    av = takeA ? next : av;
    bv = takeA ? bv : next;
  }
  __syncthreads();
  #pragma unroll
  for (int r = 0; r < ITEMS; r++)
    if (t0 + r < count) tile[t0 + r] = v[r];
  __syncthreads();
  #pragma unroll
  for (int r = 0; r < ITEMS; r++) {          // coalesced stores
    int x = tid + r * BLOCK;
    if (x < count) C[k0 + x] = tile[x];
  }
}

// The host: the boundaries of every tile, then one block per tile.
void merge(const int *A, int m, const int *B, int n, int *C, int *splits) {
  int tiles = max(1, (m + n + TILE - 1) / TILE);
  mergePartition<int><<<(tiles + 1 + 63) / 64, 64>>>(A, m, B, n, splits, tiles + 1);
  mergeWide<int><<<tiles, BLOCK>>>(A, m, B, n, C, splits);
}
void merge(const unsigned int *A, int m, const unsigned int *B, int n, unsigned int *C, int *splits) {
  int tiles = max(1, (m + n + TILE - 1) / TILE);
  mergePartition<unsigned int><<<(tiles + 1 + 63) / 64, 64>>>(A, m, B, n, splits, tiles + 1);
  mergeWide<unsigned int><<<tiles, BLOCK>>>(A, m, B, n, C, splits);
}
void merge(const float *A, int m, const float *B, int n, float *C, int *splits) {
  int tiles = max(1, (m + n + TILE - 1) / TILE);
  mergePartition<float><<<(tiles + 1 + 63) / 64, 64>>>(A, m, B, n, splits, tiles + 1);
  mergeWide<float><<<tiles, BLOCK>>>(A, m, B, n, C, splits);
}
