// Twin of shaders/spmv/coo.wgsl: Warpscope translates this kernel, and the tests require the same y
// as the WGSL. One thread per nonzero (row, column, value): the lanes of a warp read consecutive
// triples and need no row lengths, but several may hold nonzeros of one row, so each adds its
// product into y[row] atomically. CUDA has atomicAdd on floats; WGSL has none, so the WGSL (and
// Warpscope's translation of this atomicAdd) retries a compare-and-swap on the float's bits.
// y must start as zeros.
__global__ void spmvCoo(const unsigned *rowIndex, const unsigned *colIndex, const float *values,
                        const float *x, float *y, int count) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < count; k += gridDim.x * blockDim.x)
    atomicAdd(&y[rowIndex[k]], values[k] * x[colIndex[k]]);
}
// Launch: cudaMemset(y, 0, rows * sizeof(float));
//         spmvCoo<<<min((count + 255) / 256, 65535), 256>>>(rowIndex, colIndex, values, x, y, count);
