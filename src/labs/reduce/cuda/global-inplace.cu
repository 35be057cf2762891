// Twin of shaders/reduce/global-inplace.wgsl:
// Warpscope translates this kernel; the tests require the same partial sums as the WGSL.
// The tree runs in global memory and overwrites the input; __syncthreads() orders both global
// and shared memory within a block, where WGSL needs storageBarrier() for the global case.
__global__ void reduceGlobalInPlace(int *data, int *partials, unsigned int n) {
  unsigned int tid = threadIdx.x;
  unsigned int base = blockIdx.x * blockDim.x;
  unsigned int i = base + tid;
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s && i + s < n) data[i] += data[i + s];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = data[base];
}
// Host: reduceGlobalInPlace<<<ceil(n / blockDim), blockDim>>>(d, partials, n), then again on the
// partials until one is left.
