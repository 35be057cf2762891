// Twin of shaders/reduce/neighbored.wgsl:
// Warpscope translates this kernel; the tests require the same partial sums as the WGSL.
__global__ void reduceNeighbored(const int *input, int *partials, unsigned int n) {
  extern __shared__ int sdata[];  // blockDim.x ints, sized at launch
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? input[i] : 0;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];  // even lanes, then every 4th, …: divergent
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = sdata[0];
}
