// Twin of shaders/reduce/last-warp-naive.wgsl (the tests compare the partial sums on the
// simulator, where the races are reported in both): the classic warp-synchronous finish.
// `volatile` makes every access go to shared memory, and the code trusts the 32 lanes of a
// warp to run in lockstep. Since Volta (independent thread scheduling) that is no longer
// guaranteed: correct CUDA needs __syncwarp() between the steps, or shuffles.
__device__ void warpReduceUnsafe(volatile int *sdata, unsigned int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

__global__ void reduceLastWarpNaive(const int *input, int *partials, unsigned int n) {
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
  if (tid < 32) warpReduceUnsafe(sdata, tid);
  if (tid == 0) partials[blockIdx.x] = sdata[0];
}
