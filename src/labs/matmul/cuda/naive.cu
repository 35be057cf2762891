// Twin of shaders/matmul/naive.wgsl: Warpscope translates this kernel, and the tests require the
// same C as the WGSL (T is float or int, as the lab's element type).
template <typename T>
__global__ void matmulNaive(const T *A, const T *B, T *C, int M, int N, int K) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;   // x runs down the rows: a warp spans 32 rows
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    T acc = 0;
    for (int i = 0; i < K; ++i) acc += A[row * K + i] * B[i * N + col];
    C[row * N + col] = acc;
  }
}

// The host launches the instance for the lab's element type: each is a separate kernel.
void launchMatmulNaive(const float *A, const float *B, float *C, int M, int N, int K) {
  matmulNaive<float><<<dim3((M + 15) / 16, (N + 15) / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
}
void launchMatmulNaive(const int *A, const int *B, int *C, int M, int N, int K) {
  matmulNaive<int><<<dim3((M + 15) / 16, (N + 15) / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
}
