// Twin of shaders/reduce/unrolled.wgsl:
// Warpscope translates this kernel; the tests require the same partial sums as the WGSL.
// The block size is a template parameter, so every `if (BLOCK >= …)` is decided at compile
// time, as the WGSL override WORKGROUP_SIZE is decided when the pipeline is created.
__device__ int warpSum(int v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

template <unsigned int BLOCK>
__global__ void reduceUnrolled(const int *input, int *partials, unsigned int n) {
  __shared__ int sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (2 * BLOCK) + tid;
  int v = i < n ? input[i] : 0;
  if (i + BLOCK < n) v += input[i + BLOCK];
  sdata[tid] = v;
  __syncthreads();
  if (BLOCK >= 1024) { if (tid < 512) sdata[tid] += sdata[tid + 512]; __syncthreads(); }
  if (BLOCK >= 512)  { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
  if (BLOCK >= 256)  { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
  if (BLOCK >= 128)  { if (tid < 64)  sdata[tid] += sdata[tid + 64];  __syncthreads(); }
  if (tid < 32) {
    int total = warpSum(sdata[tid] + sdata[tid + 32]);
    if (tid == 0) partials[blockIdx.x] = total;
  }
}

// The host picks the instance for the block size it launches: each is a separate kernel.
void launchReduceUnrolled(const int *input, int *partials, unsigned int n,
                          unsigned int grid, unsigned int block) {
  switch (block) {
    case 64: reduceUnrolled<64><<<grid, 64>>>(input, partials, n); break;
    case 128: reduceUnrolled<128><<<grid, 128>>>(input, partials, n); break;
    case 256: reduceUnrolled<256><<<grid, 256>>>(input, partials, n); break;
    case 512: reduceUnrolled<512><<<grid, 512>>>(input, partials, n); break;
    case 1024: reduceUnrolled<1024><<<grid, 1024>>>(input, partials, n); break;
  }
}
