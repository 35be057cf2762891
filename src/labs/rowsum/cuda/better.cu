// Twin of shaders/rowsum/better.wgsl: Warpscope translates this kernel, and the tests require the
// same row sums as the WGSL. One block per row; a row of cols = 2 * blockDim.x elements sits in
// dynamic shared memory, sized by the launch.
__global__ void rowSumBetter(const unsigned int *input, unsigned int *output, unsigned int cols) {
  extern __shared__ unsigned int partialSum[];   // cols words
  unsigned int tx = threadIdx.x;
  unsigned int start = blockIdx.x * cols;
  partialSum[tx] = input[start + tx];
  partialSum[blockDim.x + tx] = input[start + blockDim.x + tx];
  for (unsigned int stride = blockDim.x; stride > 0; stride /= 2) {
    __syncthreads();
    if (tx < stride) partialSum[tx] += partialSum[tx + stride];
  }
  if (tx == 0) output[blockIdx.x] = partialSum[0];
}
// Launch: rowSumBetter<<<rows, cols / 2, cols * sizeof(unsigned int)>>>(input, output, cols);
