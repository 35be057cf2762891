// Twin of shaders/spmv/csr-vector.wgsl: Warpscope translates this kernel, and the tests require the
// same y as the WGSL. A vector of VECTOR_WIDTH lanes of one warp per row, as in Bell & Garland's
// CSR vector kernel: lane k of a vector takes nonzeros start + k, start + k + width, …, so the
// vector reads consecutive words, then a butterfly of __shfl_xor_sync adds its partial sums and
// its first lane stores y. The host picks the width from the mean row length (2 … 32 lanes), one
// template instance per width. A warp is 32 consecutive threads, so CUDA needs none of the WGSL's
// claiming of subgroup slots.
template <int VECTOR_WIDTH>
__global__ void spmvCsrVector(const unsigned *rowPtr, const unsigned *colIndex, const float *values,
                              const float *x, float *y, int rows) {
  const int W = VECTOR_WIDTH;
  int lane = threadIdx.x % W, rowsPerBlock = blockDim.x / W;
  for (int block = blockIdx.x * rowsPerBlock; block < rows; block += gridDim.x * rowsPerBlock) {
    int row = block + threadIdx.x / W;
    unsigned start = 0, end = 0;
    if (row < rows) {
      start = rowPtr[row];
      end = rowPtr[row + 1];
    }
    float sum = 0.0f;
    for (unsigned j = start + lane; j < end; j += W) sum += values[j] * x[colIndex[j]];
    for (int offset = W / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffff, sum, offset);
    if (lane == 0 && row < rows) y[row] = sum;
  }
}

// The host: the smallest of 2, 4, 8, 16, 32 lanes at least the mean row length.
void spmvVector(const unsigned *rowPtr, const unsigned *colIndex, const float *values, const float *x,
                float *y, int rows, int width, int blocks) {
  switch (width) {
    case 2: spmvCsrVector<2><<<blocks, 256>>>(rowPtr, colIndex, values, x, y, rows); break;
    case 4: spmvCsrVector<4><<<blocks, 256>>>(rowPtr, colIndex, values, x, y, rows); break;
    case 8: spmvCsrVector<8><<<blocks, 256>>>(rowPtr, colIndex, values, x, y, rows); break;
    case 16: spmvCsrVector<16><<<blocks, 256>>>(rowPtr, colIndex, values, x, y, rows); break;
    default: spmvCsrVector<32><<<blocks, 256>>>(rowPtr, colIndex, values, x, y, rows); break;
  }
}
