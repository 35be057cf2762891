// Pass 1 of the partitioned merges: one thread per tile boundary finds where it falls in A (the
// file that includes this defines TILE, its outputs per tile).
template <typename T>
__global__ void mergePartition(const T *A, int m, const T *B, int n, int *splits, int boundaries) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < boundaries) splits[g] = co_rank(min(g * TILE, m + n), A, m, B, n);
}
