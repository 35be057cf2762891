// Twin of shaders/convolution/tiled-vec4.wgsl: Warpscope translates this kernel, and the tests
// require the same output as the WGSL. Rows are pitch4 float4s long, so float4 loads stay aligned.
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

// The host picks the instance for the mask: each is a separate kernel.
void launchConvolution2DTiledVec4(const float4 *in, float4 *out, int maskWidth, int w, int h, int pitch4) {
  dim3 grid((w + 63) / 64, (h + 31) / 32), block(16, 16);
  switch (maskWidth) {
    case 3: convolution2DTiledVec4<3><<<grid, block>>>(in, out, w, h, pitch4); break;
    case 5: convolution2DTiledVec4<5><<<grid, block>>>(in, out, w, h, pitch4); break;
    case 7: convolution2DTiledVec4<7><<<grid, block>>>(in, out, w, h, pitch4); break;
  }
}
