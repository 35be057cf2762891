// Twin of shaders/basics/vector-add.wgsl: Warpscope translates this kernel, and the tests require
// the same c as the WGSL.
__global__ void vectorAdd(const float *a, const float *b, float *c, unsigned int n) {
  // Grid-stride loop: start at this thread's global index, step by the whole grid.
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    c[i] = a[i] + b[i];
  }
}
// Launch: vectorAdd<<<min((n + 255) / 256, 4096), 256>>>(a, b, c, n);
