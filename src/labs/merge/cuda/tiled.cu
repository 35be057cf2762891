// Twin of shaders/merge/tiled.wgsl: each block merges one tile of TILE outputs. Two threads find
// where the tile starts and ends in A and B (co_rank on global memory); the block loads both
// shares into shared memory with coalesced reads; then each thread finds its ITEMS outputs in the
// tile (co_rank on shared memory) and merges them sequentially.
#define BLOCK 32                             // threads a block
#define ITEMS 4                              // outputs per thread
#define TILE (BLOCK * ITEMS)                 // outputs per block

#include "co_rank.cuh"

#include "merge_sequential.cuh"

template <typename T>
__global__ void mergeTiled(const T *A, int m, const T *B, int n, T *C) {
  __shared__ T tile[TILE];                   // A's share of the tile, then B's
  __shared__ int bounds[2];
  int k0 = min((int)blockIdx.x * TILE, m + n), k1 = min(k0 + TILE, m + n);
  if (threadIdx.x < 2) bounds[threadIdx.x] = co_rank(threadIdx.x == 0 ? k0 : k1, A, m, B, n);
  __syncthreads();
  int a0 = bounds[0], b0 = k0 - a0, la = bounds[1] - a0, lb = (k1 - bounds[1]) - b0;
  for (int x = threadIdx.x; x < la + lb; x += BLOCK)   // coalesced loads
    tile[x] = x < la ? A[a0 + x] : B[b0 + x - la];
  __syncthreads();
  int t0 = min((int)threadIdx.x * ITEMS, la + lb), t1 = min(t0 + ITEMS, la + lb);
  int i0 = co_rank(t0, tile, la, tile + la, lb), i1 = co_rank(t1, tile, la, tile + la, lb);
  merge_sequential(&tile[i0], i1 - i0, &tile[la + t0 - i0], (t1 - i1) - (t0 - i0), &C[k0 + t0]);
}

// The host: one instance per element type, one block per tile.
void merge(const int *A, int m, const int *B, int n, int *C) {
  mergeTiled<int><<<(m + n + TILE - 1) / TILE, BLOCK>>>(A, m, B, n, C);
}
void merge(const unsigned int *A, int m, const unsigned int *B, int n, unsigned int *C) {
  mergeTiled<unsigned int><<<(m + n + TILE - 1) / TILE, BLOCK>>>(A, m, B, n, C);
}
void merge(const float *A, int m, const float *B, int n, float *C) {
  mergeTiled<float><<<(m + n + TILE - 1) / TILE, BLOCK>>>(A, m, B, n, C);
}
