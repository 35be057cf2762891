// Twin of shaders/basics/matrix-add.wgsl: Warpscope translates this kernel, and the tests require
// the same c as the WGSL.
__global__ void matrixAdd(const float *a, const float *b, float *c, unsigned int rows, unsigned int cols) {
  // A 2-D grid-stride loop: with a grid capped at 65 535 blocks a side, each thread strides on.
  for (unsigned int row = blockIdx.y * blockDim.y + threadIdx.y; row < rows; row += blockDim.y * gridDim.y) {
    for (unsigned int col = blockIdx.x * blockDim.x + threadIdx.x; col < cols; col += blockDim.x * gridDim.x) {
      unsigned int i = row * cols + col;  // row-major
      c[i] = a[i] + b[i];
    }
  }
}
// Launch: dim3 block(16, 16);
//         dim3 grid(min((cols + 15) / 16, 65535), min((rows + 15) / 16, 65535));
//         matrixAdd<<<grid, block>>>(a, b, c, rows, cols);
