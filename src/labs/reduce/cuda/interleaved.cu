// Twin of shaders/reduce/interleaved.wgsl:
// Warpscope translates this kernel; the tests require the same partial sums as the WGSL.
__global__ void reduceInterleaved(const int *input, int *partials, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? input[i] : 0;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];  // contiguous threads, consecutive words
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = sdata[0];
}
