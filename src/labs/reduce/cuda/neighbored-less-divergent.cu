// Twin of shaders/reduce/neighbored-less-divergent.wgsl:
// Warpscope translates this kernel; the tests require the same partial sums as the WGSL.
__global__ void reduceNeighboredLessDivergent(const int *input, int *partials, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? input[i] : 0;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    unsigned int index = 2 * s * tid;  // low threads work, whole warps idle; strided banks conflict
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = sdata[0];
}
