/** CUDA renderings of the convolution kernels, for the code pane (written for Warpscope). */
import type { ConvolutionVariant } from './kernel.ts';

export const CONVOLUTION_CUDA: Readonly<Record<ConvolutionVariant, string>> = {
  conv1d: `// CUDA rendering of shaders/convolution/conv1d.wgsl.
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
// Launch: convolution1D<<<(n + 255) / 256, 256>>>(in, mask, out, maskWidth, n);`,

  basic2d: `// CUDA rendering of shaders/convolution/basic2d.wgsl (the seed's basic 2-D kernel).
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
// Launch: convolution2DBasic<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(...);`,

  'uniform-mask': `// CUDA rendering of shaders/convolution/uniform-mask.wgsl: the mask in constant memory.
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
}`,

  tiled: `// CUDA rendering of shaders/convolution/tiled.wgsl (the seed's tiled kernel, corrected).
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
// Launch: convolution2DTiled<12, 5><<<dim3((w + 11) / 12, (h + 11) / 12), dim3(16, 16)>>>(...);`,

  'tiled-vec4': `// CUDA rendering of shaders/convolution/tiled-vec4.wgsl.
__constant__ float M[7 * 7];

template <int MASK>
__global__ void convolution2DTiledVec4(const float4 *__restrict__ in, float4 *out, int w, int h, int pitch4) {
  constexpr int R = MASK / 2, IN_W4 = 18, IN_H = 32 + MASK - 1;  // 64 + 2 * 4 columns = 18 float4
  __shared__ float4 tile[IN_H * IN_W4];
  int t = threadIdx.y * 16 + threadIdx.x;
  for (int v = t; v < IN_H * IN_W4; v += 256) {                  // every thread loads, in a loop
    int y = blockIdx.y * 32 + v / IN_W4 - R, x4 = blockIdx.x * 16 + v % IN_W4 - 1;
    tile[v] = (y >= 0 && y < h && x4 >= 0 && x4 < pitch4) ? in[y * pitch4 + x4] : make_float4(0, 0, 0, 0);
  }
  __syncthreads();
  float4 top = make_float4(0, 0, 0, 0), bottom = top;            // a 4 x 2 block per thread
#pragma unroll
  for (int i = 0; i <= MASK; ++i) {                              // tile row 2*ty + i
    const float4 *row = &tile[(2 * threadIdx.y + i) * IN_W4 + threadIdx.x];
    float4 a = row[0], b = row[1], c = row[2];
    float win[12] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w};
#pragma unroll
    for (int k = 0; k < MASK; ++k) {
      int s = 4 - R + k;
      float4 x = make_float4(win[s], win[s + 1], win[s + 2], win[s + 3]);
      if (i < MASK) { float m = M[i * MASK + k]; top.x += m * x.x; top.y += m * x.y; top.z += m * x.z; top.w += m * x.w; }
      if (i > 0) { float m = M[(i - 1) * MASK + k]; bottom.x += m * x.x; bottom.y += m * x.y; bottom.z += m * x.z; bottom.w += m * x.w; }
    }
  }
  int row = blockIdx.y * 32 + 2 * threadIdx.y, col4 = blockIdx.x * 16 + threadIdx.x;
  if (col4 < pitch4) {
    if (row < h) out[row * pitch4 + col4] = top;
    if (row + 1 < h) out[(row + 1) * pitch4 + col4] = bottom;
  }
}
// Launch: convolution2DTiledVec4<5><<<dim3((w + 63) / 64, (h + 31) / 32), dim3(16, 16)>>>(...);`,
};
