// Twin of shaders/merge/basic.wgsl: the course's merge_basic_kernel (seed 003) with a fixed share
// of ITEMS outputs per thread. Each thread finds where its share of C starts and ends in A and B
// with co_rank, a binary search on the output's cross-diagonal that reads A and B straight from
// global memory, then merges its share sequentially. Equal keys take A first: the merge is stable.
#define ITEMS 4                              // outputs per thread

#include "co_rank.cuh"

#include "merge_sequential.cuh"

template <typename T>
__global__ void mergeBasic(const T *A, int m, const T *B, int n, T *C) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  int k_curr = min(id * ITEMS, m + n);       // surplus threads find k_curr = m + n
  int k_next = min(k_curr + ITEMS, m + n);
  int i_curr = co_rank(k_curr, A, m, B, n);
  int i_next = co_rank(k_next, A, m, B, n);
  int j_curr = k_curr - i_curr, j_next = k_next - i_next;
  merge_sequential(&A[i_curr], i_next - i_curr, &B[j_curr], j_next - j_curr, &C[k_curr]);
}

// The host: one instance per element type, 64 threads a block.
void merge(const int *A, int m, const int *B, int n, int *C) {
  mergeBasic<int><<<(m + n + 64 * ITEMS - 1) / (64 * ITEMS), 64>>>(A, m, B, n, C);
}
void merge(const unsigned int *A, int m, const unsigned int *B, int n, unsigned int *C) {
  mergeBasic<unsigned int><<<(m + n + 64 * ITEMS - 1) / (64 * ITEMS), 64>>>(A, m, B, n, C);
}
void merge(const float *A, int m, const float *B, int n, float *C) {
  mergeBasic<float><<<(m + n + 64 * ITEMS - 1) / (64 * ITEMS), 64>>>(A, m, B, n, C);
}
