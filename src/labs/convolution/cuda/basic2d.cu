// Twin of shaders/convolution/basic2d.wgsl (the seed's basic 2-D kernel): Warpscope translates
// this kernel, and the tests require the same output as the WGSL.
__global__ void convolution2DBasic(const float *__restrict__ in, const float *__restrict__ mask,
                                   float *out, int maskWidth, int w, int h) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= w || row >= h) return;
  int startCol = col - maskWidth / 2, startRow = row - maskWidth / 2;
  float value = 0.0f;
  for (int j = 0; j < maskWidth; ++j)
    for (int k = 0; k < maskWidth; ++k) {
      int y = startRow + j, x = startCol + k;
      if (y >= 0 && y < h && x >= 0 && x < w)
        value += mask[j * maskWidth + k] * in[y * w + x];  // m² global loads per output
    }
  out[row * w + col] = value;
}
// Launch: convolution2DBasic<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(...);
