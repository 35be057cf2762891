// Twin of shaders/convolution/uniform-mask.wgsl: the mask in constant memory. Warpscope translates
// this kernel, and the tests require the same output as the WGSL.
__constant__ float M[7 * 7];              // cudaMemcpyToSymbol(M, hostMask, m * m * sizeof(float))

__global__ void convolution2DConstMask(const float *__restrict__ in, float *out, int maskWidth, int w, int h) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= w || row >= h) return;
  float value = 0.0f;
  for (int j = 0; j < maskWidth; ++j)
    for (int k = 0; k < maskWidth; ++k) {
      int y = row - maskWidth / 2 + j, x = col - maskWidth / 2 + k;
      if (y >= 0 && y < h && x >= 0 && x < w)
        value += M[j * maskWidth + k] * in[y * w + x];  // every lane reads the same M: a broadcast
    }
  out[row * w + col] = value;
}
// Launch: convolution2DConstMask<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(in, out, m, w, h);
