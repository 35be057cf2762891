// Twin of shaders/divergence/even-odd.wgsl: Warpscope translates this kernel, and the tests require
// the same c as the WGSL.
__global__ void evenOdd(const float *x, float *c, unsigned int n) {
  unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  float a = 0.0f, b = 0.0f;
  if (tid % 2 == 0) {
    a = x[tid] * 2.0f;
  } else {
    b = x[tid] + 100.0f;
  }
  c[tid] = a + b;
}
// Launch: evenOdd<<<(n + blockSize - 1) / blockSize, blockSize>>>(x, c, n);
