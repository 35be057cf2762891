// Twin of shaders/matmul/coalesced.wgsl: Warpscope translates this kernel, and the tests require
// the same C as the WGSL (T is float or int, as the lab's element type).
template <typename T>
__global__ void matmulCoalesced(const T *A, const T *B, T *C, int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;   // x runs along a row: neighbours read neighbours
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    T acc = 0;
    for (int i = 0; i < K; ++i) acc += A[row * K + i] * B[i * N + col];
    C[row * N + col] = acc;
  }
}

// The host launches the instance for the lab's element type: each is a separate kernel.
void launchMatmulCoalesced(const float *A, const float *B, float *C, int M, int N, int K) {
  matmulCoalesced<float><<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
}
void launchMatmulCoalesced(const int *A, const int *B, int *C, int M, int N, int K) {
  matmulCoalesced<int><<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
}
