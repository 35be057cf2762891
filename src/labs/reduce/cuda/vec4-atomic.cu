// Twin of shaders/reduce/vec4-atomic.wgsl:
// Warpscope translates this kernel; the tests require the same partial sums as the WGSL.
// The grid-stride int4 kernel, finished in one launch: every block adds its total to *result
// with atomicAdd (the host zeroes *result first). Integer addition wraps and commutes, so the
// order in which blocks finish does not change the sum.
__device__ int warpSum(int v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduceVec4Atomic(const int4 *input, int *result, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int vec4Count = (n + 3) / 4;
  int4 acc = make_int4(0, 0, 0, 0);
  for (unsigned int i = blockIdx.x * blockDim.x + tid; i < vec4Count; i += gridDim.x * blockDim.x) {
    int4 x = input[i];
    acc.x += x.x; acc.y += x.y; acc.z += x.z; acc.w += x.w;
  }
  sdata[tid] = (acc.x + acc.y) + (acc.z + acc.w);
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s >= 64; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    int total = warpSum(sdata[tid] + sdata[tid + 32]);
    if (tid == 0) atomicAdd(result, total);
  }
}
