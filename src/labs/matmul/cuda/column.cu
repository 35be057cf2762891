// Twin of shaders/matmul/column.wgsl: Warpscope translates this kernel, and the tests require the
// same C as the WGSL (T is float or int). A block of 256 threads owns a 64 × 64 block of C; each
// thread computes TM = 16 outputs down one column.
#define BM 64
#define BN 64
#define BK 16
#define TM 16
template <typename T>
__global__ void matmulColumn(const T *A, const T *B, T *C, int M, int N, int K) {
  __shared__ T tileA[BM * BK];
  __shared__ T tileB[BK * BN];
  int t = threadIdx.x, col = t % BN, rowGroup = t / BN;
  int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;
  T acc[TM] = {0};
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int j = 0; j < 4; ++j) {
      int e = t + j * 256;
      int ar = blockRow + e / BK, ak = k0 + e % BK;
      tileA[e] = (ar < M && ak < K) ? A[ar * K + ak] : 0;
      int bk = k0 + e / BN, bc = blockCol + e % BN;
      tileB[e] = (bk < K && bc < N) ? B[bk * N + bc] : 0;
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk) {
      T b = tileB[kk * BN + col];          // one shared load feeds TM multiply-adds
      for (int i = 0; i < TM; ++i) acc[i] += tileA[(rowGroup * TM + i) * BK + kk] * b;
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    int r = blockRow + rowGroup * TM + i, c = blockCol + col;
    if (r < M && c < N) C[r * N + c] = acc[i];
  }
}

// The host launches the instance for the lab's element type: each is a separate kernel.
void launchMatmulColumn(const float *A, const float *B, float *C, int M, int N, int K) {
  matmulColumn<float><<<dim3((N + 63) / 64, (M + 63) / 64), 256>>>(A, B, C, M, N, K);
}
void launchMatmulColumn(const int *A, const int *B, int *C, int M, int N, int K) {
  matmulColumn<int><<<dim3((N + 63) / 64, (M + 63) / 64), 256>>>(A, B, C, M, N, K);
}
