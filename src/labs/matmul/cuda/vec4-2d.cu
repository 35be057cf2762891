// Twin of shaders/matmul/vec4-2d.wgsl: Warpscope translates this kernel, and the tests require the
// same C as the WGSL (float4 loads and stores; K and N multiples of 4). A 16 × 16 block owns a
// 64 × 64 block of C; each thread computes a 4 × 4 block of it, four rows of one float4.
__global__ void matmulVec4(const float4 *A, const float4 *B, float4 *C, int M, int N, int K) {
  __shared__ float tileA[16 * 64];         // BK x BM: A transposed
  __shared__ float4 tileB[16 * 16];        // BK x BN / 4
  int t = threadIdx.y * 16 + threadIdx.x, k4 = K / 4, n4 = N / 4;
  int blockRow = blockIdx.y * 64;
  float4 acc[4];
  for (int i = 0; i < 4; ++i) acc[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    int ar = blockRow + t / 4, ak = k0 + (t % 4) * 4;
    float4 a = (ar < M && ak < K) ? A[ar * k4 + ak / 4] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    int at = (t % 4) * 4 * 64 + t / 4;     // four words 64 apart: same bank, a 4-way store
    tileA[at] = a.x; tileA[at + 64] = a.y; tileA[at + 128] = a.z; tileA[at + 192] = a.w;
    int bk = k0 + t / 16, bc4 = blockIdx.x * 16 + t % 16;
    tileB[t] = (bk < K && bc4 < n4) ? B[bk * n4 + bc4] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    for (int kk = 0; kk < 16; ++kk) {
      float4 b = tileB[kk * 16 + threadIdx.x];
      const float *a4 = &tileA[kk * 64 + threadIdx.y * 4];
      for (int i = 0; i < 4; ++i) {        // 4 + 1 loads, 16 multiply-adds
        acc[i].x += a4[i] * b.x; acc[i].y += a4[i] * b.y;
        acc[i].z += a4[i] * b.z; acc[i].w += a4[i] * b.w;
      }
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i) {
    int r = blockRow + threadIdx.y * 4 + i, c4 = blockIdx.x * 16 + threadIdx.x;
    if (r < M && c4 < n4) C[r * n4 + c4] = acc[i];
  }
}
// Launch: matmulVec4<<<dim3((N + 63) / 64, (M + 63) / 64), dim3(16, 16)>>>(A, B, C, M, N, K);
