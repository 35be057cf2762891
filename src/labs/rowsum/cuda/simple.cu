// Twin of shaders/rowsum/simple.wgsl: Warpscope translates this kernel, and the tests require the
// same row sums as the WGSL. One block per row; a row of cols = 2 * blockDim.x elements sits in
// dynamic shared memory, sized by the launch.
__global__ void rowSumSimple(const unsigned int *input, unsigned int *output, unsigned int cols) {
  extern __shared__ unsigned int partialSum[];   // cols words
  unsigned int tx = threadIdx.x;
  unsigned int start = blockIdx.x * cols;        // one block per row
  partialSum[tx] = input[start + tx];            // each thread loads two elements
  partialSum[blockDim.x + tx] = input[start + blockDim.x + tx];
  for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
    __syncthreads();
    if (tx % stride == 0) partialSum[2 * tx] += partialSum[2 * tx + stride];
  }
  if (tx == 0) output[blockIdx.x] = partialSum[0];
}
// Launch: rowSumSimple<<<rows, cols / 2, cols * sizeof(unsigned int)>>>(input, output, cols);
