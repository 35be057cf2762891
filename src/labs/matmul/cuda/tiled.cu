// Twin of shaders/matmul/tiled.wgsl: Warpscope translates this kernel, and the tests require the
// same C as the WGSL (T is float or int; TILE 16 or 32, WG_Y = min(TILE, 256 / TILE) rows of
// threads, each computing TILE / WG_Y rows of C).
template <typename T, int TILE, int WG_Y>
__global__ void matmulTiled(const T *A, const T *B, T *C, int M, int N, int K) {
  __shared__ T tileA[TILE][TILE];
  __shared__ T tileB[TILE][TILE];
  int tx = threadIdx.x, col = blockIdx.x * TILE + tx;
  const int rows = TILE / WG_Y;
  T acc[4] = {0, 0, 0, 0};
  for (int p = 0; p < (K + TILE - 1) / TILE; ++p) {
    for (int r = 0; r < rows; ++r) {
      int ty = threadIdx.y + r * WG_Y, row = blockIdx.y * TILE + ty;
      int ka = p * TILE + tx, kb = p * TILE + ty;
      tileA[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0;   // bounds on both loads
      tileB[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0;
    }
    __syncthreads();                       // the tiles are complete
    for (int i = 0; i < TILE; ++i)
      for (int r = 0; r < rows; ++r) acc[r] += tileA[threadIdx.y + r * WG_Y][i] * tileB[i][tx];
    __syncthreads();                       // nobody still reads them when the next phase writes
  }
  for (int r = 0; r < rows; ++r) {
    int row = blockIdx.y * TILE + threadIdx.y + r * WG_Y;
    if (row < M && col < N) C[row * N + col] = acc[r];
  }
}

// The host launches the instance for the element type and the tile: each is a separate kernel.
void launchMatmulTiled(const float *A, const float *B, float *C, int M, int N, int K, int tile) {
  if (tile == 16) matmulTiled<float, 16, 16><<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
  else matmulTiled<float, 32, 8><<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 8)>>>(A, B, C, M, N, K);
}
void launchMatmulTiled(const int *A, const int *B, int *C, int M, int N, int K, int tile) {
  if (tile == 16) matmulTiled<int, 16, 16><<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
  else matmulTiled<int, 32, 8><<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 8)>>>(A, B, C, M, N, K);
}
