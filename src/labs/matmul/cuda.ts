/** Our CUDA renderings of the matrix-multiply kernels, for the code pane (written for Warpscope). */
import type { MatmulVariant } from './kernel.ts';

const NAIVE = `// CUDA rendering of shaders/matmul/naive.wgsl (T is float or int).
__global__ void matmulNaive(const T *A, const T *B, T *C, int M, int N, int K) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;   // x runs down the rows: a warp spans 32 rows
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    T acc = 0;
    for (int i = 0; i < K; ++i) acc += A[row * K + i] * B[i * N + col];
    C[row * N + col] = acc;
  }
}
// Launch: matmulNaive<<<dim3(ceil(M / 16.), ceil(N / 16.)), dim3(16, 16)>>>(A, B, C, M, N, K);`;

const COALESCED = `// CUDA rendering of shaders/matmul/coalesced.wgsl (T is float or int).
__global__ void matmulCoalesced(const T *A, const T *B, T *C, int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;   // x runs along a row: neighbours read neighbours
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    T acc = 0;
    for (int i = 0; i < K; ++i) acc += A[row * K + i] * B[i * N + col];
    C[row * N + col] = acc;
  }
}
// Launch: matmulCoalesced<<<dim3(ceil(N / 16.), ceil(M / 16.)), dim3(16, 16)>>>(A, B, C, M, N, K);`;

const TILED = `// CUDA rendering of shaders/matmul/tiled.wgsl (T is float or int; TILE 16 or 32, WG_Y = min(TILE, 256 / TILE)).
template <int TILE, int WG_Y>
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
// Launch: matmulTiled<TILE, WG_Y><<<dim3(ceil(N / (float)TILE), ceil(M / (float)TILE)), dim3(TILE, WG_Y)>>>(A, B, C, M, N, K);`;

const COLUMN = `// CUDA rendering of shaders/matmul/column.wgsl (T is float or int).
#define BM 64
#define BN 64
#define BK 16
#define TM 16
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
// Launch: matmulColumn<<<dim3(ceil(N / 64.), ceil(M / 64.)), 256>>>(A, B, C, M, N, K);`;

const VEC4_2D = `// CUDA rendering of shaders/matmul/vec4-2d.wgsl (float4; K and N multiples of 4).
__global__ void matmulVec4(const float4 *A, const float4 *B, float4 *C, int M, int N, int K) {
  __shared__ float tileA[16 * 64];         // BK x BM: A transposed
  __shared__ float4 tileB[16 * 16];        // BK x BN / 4
  int t = threadIdx.y * 16 + threadIdx.x, k4 = K / 4, n4 = N / 4;
  int blockRow = blockIdx.y * 64;
  float4 acc[4] = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
    int ar = blockRow + t / 4, ak = k0 + (t % 4) * 4;
    float4 a = (ar < M && ak < K) ? A[ar * k4 + ak / 4] : make_float4(0, 0, 0, 0);
    int at = (t % 4) * 4 * 64 + t / 4;     // four words 64 apart: same bank, a 4-way store
    tileA[at] = a.x; tileA[at + 64] = a.y; tileA[at + 128] = a.z; tileA[at + 192] = a.w;
    int bk = k0 + t / 16, bc4 = blockIdx.x * 16 + t % 16;
    tileB[t] = (bk < K && bc4 < n4) ? B[bk * n4 + bc4] : make_float4(0, 0, 0, 0);
    __syncthreads();
    for (int kk = 0; kk < 16; ++kk) {
      float4 b = tileB[kk * 16 + threadIdx.x];
      const float *a4 = &tileA[kk * 64 + threadIdx.y * 4];
      for (int i = 0; i < 4; ++i) acc[i] += a4[i] * b;   // 4 + 1 loads, 16 multiply-adds
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i) {
    int r = blockRow + threadIdx.y * 4 + i, c4 = blockIdx.x * 16 + threadIdx.x;
    if (r < M && c4 < n4) C[r * n4 + c4] = acc[i];
  }
}
// (float4 arithmetic as in WGSL: a4[i] * b scales every lane.)
// Launch: matmulVec4<<<dim3(ceil(N / 64.), ceil(M / 64.)), dim3(16, 16)>>>(A, B, C, M, N, K);`;

const FAST = `// CUDA rendering of shaders/matmul/fast.wgsl (float4; K and N multiples of 4).
#define BM 128
#define BK 8
#define AS 32                               // float4s per transposed A row: 128 words
__global__ void matmulFast(const float4 *A, const float4 *B, float4 *C, int M, int N, int K) {
  __shared__ float4 tileA[2][BK * AS];      // double-buffered, A transposed and swizzled (col ^ (k & 4))
  __shared__ float4 tileB[2][BK * 32];
  int t = threadIdx.y * 16 + threadIdx.x, k4 = K / 4, n4 = N / 4;
  int ar = blockIdx.y * BM + t / 2, ah = t % 2, aRow = t / 2;
  int aCol = (aRow / 4) ^ (ah * 4);         // rows 4..7 of a buffer keep column c at c ^ 4
  int bkr = t / 32, bc4 = blockIdx.x * 32 + t % 32;
  float4 acc[16] = {};
  auto loadA = [&](int k0) { return (ar < M && k0 + ah * 4 < K) ? A[ar * k4 + k0 / 4 + ah] : make_float4(0, 0, 0, 0); };
  auto loadB = [&](int k0) { return (k0 + bkr < K && bc4 < n4) ? B[(k0 + bkr) * n4 + bc4] : make_float4(0, 0, 0, 0); };
  auto store = [&](int buf, float4 a, float4 b) {
    float *ta = (float *)tileA[buf];
    int w = aCol * 4 + aRow % 4;
    ta[(ah * 4 + 0) * AS * 4 + w] = a.x; ta[(ah * 4 + 1) * AS * 4 + w] = a.y;
    ta[(ah * 4 + 2) * AS * 4 + w] = a.z; ta[(ah * 4 + 3) * AS * 4 + w] = a.w;
    tileB[buf][bkr * 32 + t % 32] = b;
  };
  store(0, loadA(0), loadB(0));
  __syncthreads();
  int steps = (K + BK - 1) / BK;
  for (int s = 0; s < steps; ++s) {
    int cur = s % 2;
    bool more = s + 1 < steps;
    float4 va, vb;
    if (more) { va = loadA((s + 1) * BK); vb = loadB((s + 1) * BK); }   // in flight during the FMAs
    for (int kk = 0; kk < BK; ++kk) {
      float4 a0 = tileA[cur][kk * AS + (threadIdx.y ^ (kk & 4))], a1 = tileA[cur][kk * AS + ((16 + threadIdx.y) ^ (kk & 4))];
      float4 b0 = tileB[cur][kk * 32 + threadIdx.x], b1 = tileB[cur][kk * 32 + 16 + threadIdx.x];
      const float *pa0 = &a0.x, *pa1 = &a1.x;
      for (int i = 0; i < 4; ++i) {
        acc[2 * i] += pa0[i] * b0;     acc[2 * i + 1] += pa0[i] * b1;
        acc[8 + 2 * i] += pa1[i] * b0; acc[8 + 2 * i + 1] += pa1[i] * b1;
      }
    }
    if (more) store(1 - cur, va, vb);   // the other buffer was last read before the previous barrier
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int half = 0; half < 2; ++half) {
      int row = blockIdx.y * BM + half * 64 + threadIdx.y * 4 + i, c0 = blockIdx.x * 32 + threadIdx.x;
      if (row >= M) continue;
      if (c0 < n4) C[row * n4 + c0] = acc[half * 8 + 2 * i];
      if (c0 + 16 < n4) C[row * n4 + c0 + 16] = acc[half * 8 + 2 * i + 1];
    }
}
// (float4 arithmetic as in WGSL: pa0[i] * b0 scales every lane.)
// Launch: matmulFast<<<dim3(ceil(N / 128.), ceil(M / 128.)), dim3(16, 16)>>>(A, B, C, M, N, K);`;

export const MATMUL_CUDA: Readonly<Record<MatmulVariant, string>> = {
  naive: NAIVE,
  coalesced: COALESCED,
  tiled: TILED,
  column: COLUMN,
  'vec4-2d': VEC4_2D,
  fast: FAST,
};
