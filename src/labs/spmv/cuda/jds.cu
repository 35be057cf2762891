// Twin of shaders/spmv/jds.wgsl: Warpscope translates this kernel, and the tests require the same y
// as the WGSL. The rows are stored sorted by length, longest first, in CSR arrays over that order;
// perm[i] names the original row stored i-th. One thread per stored row, as in CSR scalar, but
// the rows of a warp now have similar lengths, so its lanes finish together.
__global__ void spmvJds(const unsigned *perm, const unsigned *rowPtr, const unsigned *colIndex,
                        const float *values, const float *x, float *y, int rows) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += gridDim.x * blockDim.x) {
    unsigned end = rowPtr[i + 1];
    float sum = 0.0f;
    for (unsigned j = rowPtr[i]; j < end; j++) sum += values[j] * x[colIndex[j]];
    y[perm[i]] = sum;                        // back to the row's own place
  }
}
// Launch: spmvJds<<<min((rows + 255) / 256, 65535), 256>>>(perm, rowPtr, colIndex, values, x, y, rows);
