// Twin of shaders/reduce/vec4-grid-stride.wgsl:
// Warpscope translates this kernel; the tests require the same partial sums as the WGSL.
// A fixed grid (a few thousand blocks) walks the input with 16-byte int4 loads; n is padded to a
// multiple of 4 with zeros by the host.
__device__ int warpSum(int v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduceVec4GridStride(const int4 *input, int *partials, unsigned int n) {
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
    if (tid == 0) partials[blockIdx.x] = total;
  }
}
