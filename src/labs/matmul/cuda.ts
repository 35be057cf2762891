/**
 * The matrix-multiply kernels' CUDA, for the code pane (written for Warpscope): the twinned
 * variants' `.cu` files (translated and checked against the WGSL, `cudaTwins.ts`), and a rendering
 * of the fast and tile-16x8 kernels.
 */
import type { MatmulVariant } from './kernel.ts';
import NAIVE from './cuda/naive.cu?raw';
import COALESCED from './cuda/coalesced.cu?raw';
import TILED from './cuda/tiled.cu?raw';
import COLUMN from './cuda/column.cu?raw';
import VEC4_2D from './cuda/vec4-2d.cu?raw';






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

const TILE_16X8 = `// CUDA rendering of shaders/matmul/tile-16x8.wgsl (float4; K and N multiples of 4).
#define BM 256
#define BK 8
#define AR 64                               // float4s per transposed A row: 256 words
#define BR 32                               // float4s per B row: 128 columns
// float4 arithmetic as WGSL's vec4 has it: a scalar times every lane, and lane-wise +=.
__device__ float4 operator*(float s, float4 v) { return make_float4(s * v.x, s * v.y, s * v.z, s * v.w); }
__device__ float4 &operator+=(float4 &a, float4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; return a; }
__device__ float4 loadA(const float4 *A, int row, int k, int M, int K) {
  return (row < M && k < K) ? A[row * (K / 4) + k / 4] : make_float4(0, 0, 0, 0);
}
__device__ float4 loadB(const float4 *B, int k, int c4, int N, int K) {
  return (k < K && c4 < N / 4) ? B[k * (N / 4) + c4] : make_float4(0, 0, 0, 0);
}
__global__ void matmulTile16x8(const float4 *A, const float4 *B, float4 *C, int M, int N, int K) {
  __shared__ float4 tileA[BK * AR];         // A transposed: tileA[k * AR + r / 4] holds rows r..r+3 at k
  __shared__ float4 tileB[BK * BR];
  int t = threadIdx.y * 16 + threadIdx.x;
  int row = blockIdx.y * BM + t, bk = t / BR, c4 = blockIdx.x * BR + t % BR;
  float4 acc[32] = {};                      // acc[8 * i + 2 * r + h]: row 64 * i + 4 * ty + r, half h
  auto store = [&](float4 lo, float4 hi, float4 vb) {
    float *ta = (float *)tileA;             // row t of A down column t of the transposed tile
    ta[0 * AR * 4 + t] = lo.x; ta[1 * AR * 4 + t] = lo.y; ta[2 * AR * 4 + t] = lo.z; ta[3 * AR * 4 + t] = lo.w;
    ta[4 * AR * 4 + t] = hi.x; ta[5 * AR * 4 + t] = hi.y; ta[6 * AR * 4 + t] = hi.z; ta[7 * AR * 4 + t] = hi.w;
    tileB[t] = vb;
  };
  store(loadA(A, row, 0, M, K), loadA(A, row, 4, M, K), loadB(B, bk, c4, N, K));
  __syncthreads();
  int steps = (K + BK - 1) / BK;
  for (int s = 0; s < steps; ++s) {
    int k0 = (s + 1) * BK;
    bool more = s + 1 < steps;
    float4 lo = {}, hi = {}, vb = {};
    if (more) { lo = loadA(A, row, k0, M, K); hi = loadA(A, row, k0 + 4, M, K); vb = loadB(B, k0 + bk, c4, N, K); }
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float4 b0 = tileB[kk * BR + threadIdx.x], b1 = tileB[kk * BR + 16 + threadIdx.x];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        float4 a = tileA[kk * AR + 16 * i + threadIdx.y];
        const float *pa = &a.x;
#pragma unroll
        for (int r = 0; r < 4; ++r) { acc[8 * i + 2 * r] += pa[r] * b0; acc[8 * i + 2 * r + 1] += pa[r] * b1; }
      }
    }
    __syncthreads();                        // every read of the tiles is done
    if (more) store(lo, hi, vb);
    __syncthreads();                        // the next step's tiles are complete
  }
  int c0 = blockIdx.x * BR + threadIdx.x;
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    int r = blockIdx.y * BM + (i / 4) * 64 + threadIdx.y * 4 + i % 4;
    if (r >= M) continue;
    if (c0 < N / 4) C[r * (N / 4) + c0] = acc[2 * i];
    if (c0 + 16 < N / 4) C[r * (N / 4) + c0 + 16] = acc[2 * i + 1];
  }
}
// Launch: matmulTile16x8<<<dim3(ceil(N / 128.), ceil(M / 256.)), dim3(16, 16)>>>(A, B, C, M, N, K);`;

export const MATMUL_CUDA: Readonly<Record<MatmulVariant, string>> = {
  naive: NAIVE,
  coalesced: COALESCED,
  tiled: TILED,
  column: COLUMN,
  'vec4-2d': VEC4_2D,
  fast: FAST,
  'tile-16x8': TILE_16X8,
};
