// Twin of shaders/merge/partition.wgsl and fast.wgsl: the merge in two launches. mergePartition:
// one thread per tile boundary finds where it falls in A (co_rank on global memory). mergeFast:
// each block loads its tile's shares of A and B into shared memory with a fixed count of
// coalesced reads per thread, each thread finds its ITEMS outputs in the tile (one co_rank each:
// the next thread's start ends this thread's share), merges them into a second shared array, and
// the block stores the tile with coalesced writes.
#define BLOCK 128                            // threads a block of mergeFast
#define ITEMS 8                              // outputs per thread
#define TILE (BLOCK * ITEMS)                 // outputs per block: two tiles fit in 16 KiB

#include "co_rank.cuh"
#include "merge_partition.cuh"

template <typename T>
__global__ void mergeFast(const T *A, int m, const T *B, int n, T *C, const int *splits) {
  __shared__ T tile[TILE], merged[TILE];    // the tile's inputs (A's share, then B's), its outputs
  __shared__ int starts[BLOCK + 1];         // where each thread's share starts in A's share
  int tid = threadIdx.x;
  int k0 = min((int)blockIdx.x * TILE, m + n), k1 = min(k0 + TILE, m + n);
  int a0 = splits[blockIdx.x], a1 = splits[blockIdx.x + 1];
  int b0 = k0 - a0, la = a1 - a0, lb = (k1 - a1) - b0, count = la + lb;
  #pragma unroll
  for (int r = 0; r < ITEMS; r++) {          // a fixed count of coalesced loads per thread
    int x = tid + r * BLOCK;
    if (x < la) tile[x] = A[a0 + x];
    else if (x < count) tile[x] = B[b0 + x - la];
  }
  __syncthreads();
  int t0 = min(tid * ITEMS, count), t1 = min(t0 + ITEMS, count);
  int i0 = co_rank(t0, tile, la, tile + la, lb);
  starts[tid] = i0;
  if (tid == BLOCK - 1) starts[BLOCK] = la;
  __syncthreads();
  int i1 = starts[tid + 1];                  // the next thread's start ends this share
  int i = i0, j = t0 - i0, j1 = t1 - i1;
  for (int t = t0; t < t1; t++) {
    if (j >= j1) merged[t] = tile[i++];
    else if (i >= i1) merged[t] = tile[la + j++];
    else if (tile[i] <= tile[la + j]) merged[t] = tile[i++];
    else merged[t] = tile[la + j++];
  }
  __syncthreads();
  #pragma unroll
  for (int r = 0; r < ITEMS; r++) {          // coalesced stores
    int x = tid + r * BLOCK;
    if (x < count) C[k0 + x] = merged[x];
  }
}

// The host: the boundaries of every tile, then one block per tile; one instance per element type.
void merge(const int *A, int m, const int *B, int n, int *C, int *splits) {
  int tiles = max(1, (m + n + TILE - 1) / TILE);
  mergePartition<int><<<(tiles + 1 + 63) / 64, 64>>>(A, m, B, n, splits, tiles + 1);
  mergeFast<int><<<tiles, BLOCK>>>(A, m, B, n, C, splits);
}
void merge(const unsigned int *A, int m, const unsigned int *B, int n, unsigned int *C, int *splits) {
  int tiles = max(1, (m + n + TILE - 1) / TILE);
  mergePartition<unsigned int><<<(tiles + 1 + 63) / 64, 64>>>(A, m, B, n, splits, tiles + 1);
  mergeFast<unsigned int><<<tiles, BLOCK>>>(A, m, B, n, C, splits);
}
void merge(const float *A, int m, const float *B, int n, float *C, int *splits) {
  int tiles = max(1, (m + n + TILE - 1) / TILE);
  mergePartition<float><<<(tiles + 1 + 63) / 64, 64>>>(A, m, B, n, splits, tiles + 1);
  mergeFast<float><<<tiles, BLOCK>>>(A, m, B, n, C, splits);
}
