// Twin of shaders/spmv/csr-scalar.wgsl: Warpscope translates this kernel, and the tests require the
// same y as the WGSL. One thread per row, a grid-stride loop over the rows.
__global__ void spmvCsrScalar(const unsigned *rowPtr, const unsigned *colIndex, const float *values,
                              const float *x, float *y, int rows) {
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < rows; row += gridDim.x * blockDim.x) {
    float sum = 0.0f;
    for (unsigned j = rowPtr[row]; j < rowPtr[row + 1]; j++) sum += values[j] * x[colIndex[j]];
    y[row] = sum;
  }
}
// Launch: spmvCsrScalar<<<min((rows + 255) / 256, 65535), 256>>>(rowPtr, colIndex, values, x, y, rows);
