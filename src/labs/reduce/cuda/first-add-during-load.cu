// Twin of shaders/reduce/first-add-during-load.wgsl:
// Warpscope translates this kernel; the tests require the same partial sums as the WGSL.
__global__ void reduceFirstAddDuringLoad(const int *input, int *partials, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (2 * blockDim.x) + tid;  // each block covers 2 * blockDim.x
  int v = i < n ? input[i] : 0;
  if (i + blockDim.x < n) v += input[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = sdata[0];
}
