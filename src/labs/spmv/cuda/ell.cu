// Twin of shaders/spmv/ell.wgsl: Warpscope translates this kernel, and the tests require the same y
// as the WGSL. One thread per row; the slots are stored column-major, padding has column 0, value 0.
__global__ void spmvEll(const unsigned *colIndex, const float *values, const float *x, float *y,
                        int rows, int width) {
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < rows; row += gridDim.x * blockDim.x) {
    float sum = 0.0f;
    for (int i = 0; i < width; i++) {
      int k = i * rows + row;            // neighbouring threads, neighbouring words
      sum += values[k] * x[colIndex[k]];
    }
    y[row] = sum;
  }
}
// Launch: spmvEll<<<min((rows + 255) / 256, 65535), 256>>>(colIndex, values, x, y, rows, width);
