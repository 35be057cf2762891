// Twin of shaders/convolution/conv1d.wgsl: Warpscope translates this kernel, and the tests require
// the same output as the WGSL.
__global__ void convolution1D(const float *__restrict__ in, const float *__restrict__ mask,
                              float *out, int maskWidth, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int start = i - maskWidth / 2;          // e.g. i - 2 for a mask of 5
  float value = 0.0f;
  for (int k = 0; k < maskWidth; ++k) {
    int j = start + k;
    if (j >= 0 && j < n) value += mask[k] * in[j];   // ghost cells count as 0: skipped
  }
  out[i] = value;
}
// Launch: convolution1D<<<(n + 255) / 256, 256>>>(in, mask, out, maskWidth, n);
