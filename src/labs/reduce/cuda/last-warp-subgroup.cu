// Twin of shaders/reduce/last-warp-subgroup.wgsl:
// Warpscope translates this kernel; the tests require the same partial sums as the WGSL.
// CUDA promises that warp 0 is threads 0..31, so one warp can finish alone; WGSL promises no
// such mapping, which is why the WGSL version has every subgroup compute the total.
__device__ int warpSum(int v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);  // the WGSL kernel uses subgroupAdd
  return v;
}

__global__ void reduceLastWarp(const int *input, int *partials, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (2 * blockDim.x) + tid;
  int v = i < n ? input[i] : 0;
  if (i + blockDim.x < n) v += input[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s >= 64; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    int total = warpSum(sdata[tid] + sdata[tid + 32]);
    if (tid == 0) partials[blockIdx.x] = total;
  }
}
