// Twin of shaders/convolution/tiled.wgsl (the seed's tiled kernel, corrected): Warpscope
// translates this kernel, and the tests require the same output as the WGSL.
template <int O_TILE, int MASK>
__global__ void convolution2DTiled(const float *__restrict__ in, const float *__restrict__ mask,
                                   float *out, int w, int h) {
  constexpr int IN_TILE = O_TILE + MASK - 1;   // 12 + 5 - 1 = 16
  __shared__ float tile[IN_TILE][IN_TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int rowO = blockIdx.y * O_TILE + ty, colO = blockIdx.x * O_TILE + tx;
  int rowI = rowO - MASK / 2, colI = colO - MASK / 2;
  tile[ty][tx] = (rowI >= 0 && rowI < h && colI >= 0 && colI < w) ? in[rowI * w + colI] : 0.0f;
  __syncthreads();
  if (tx < O_TILE && ty < O_TILE) {          // 144 of 256 threads compute; 112 only loaded
    float value = 0.0f;
    for (int j = 0; j < MASK; ++j)
      for (int k = 0; k < MASK; ++k) value += mask[j * MASK + k] * tile[ty + j][tx + k];
    if (rowO < h && colO < w) out[rowO * w + colO] = value;   // only computing threads store
  }
}

// The host picks the instance for the mask: each is a separate kernel, its block IN_TILE².
void launchConvolution2DTiled(const float *in, const float *mask, float *out, int maskWidth, int w, int h) {
  switch (maskWidth) {
    case 3: convolution2DTiled<12, 3><<<dim3((w + 11) / 12, (h + 11) / 12), dim3(14, 14)>>>(in, mask, out, w, h); break;
    case 5: convolution2DTiled<12, 5><<<dim3((w + 11) / 12, (h + 11) / 12), dim3(16, 16)>>>(in, mask, out, w, h); break;
    case 7: convolution2DTiled<10, 7><<<dim3((w + 9) / 10, (h + 9) / 10), dim3(16, 16)>>>(in, mask, out, w, h); break;
  }
}
