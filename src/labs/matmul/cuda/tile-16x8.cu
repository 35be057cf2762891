// Twin of shaders/matmul/tile-16x8.wgsl: Warpscope translates this kernel, and the tests require the
// same C as the WGSL (float4 loads and stores; K and N multiples of 4; M is free). A 16 x 16 block
// owns a 256 x 128 block of C and each thread a 16 x 8 piece of it, 32 float4 accumulators: rows
// 4 * ty .. 4 * ty + 3 of each of the four 64-row bands, times float4 columns tx and tx + 16 (64
// columns apart). Per k, 4 float4s of the A tile and 2 of the B tile (24 words) feed 128
// multiply-adds, where the 8 x 8 kernel (fast.cu) reads 16 words for 64.
// - The A tile is stored transposed (k-major: a float4 holds 4 rows of A at one k): thread t loads
//   both float4s of row t of the block for the step and stores their 8 floats down column t, one
//   component at a time (a float4 has no operator[], so setLane picks it), so a warp's stores land
//   on 32 neighbouring words. The B tile is row-major, one float4 each.
// - One buffer of each tile (12 KiB); the next step's float4s are loaded into registers before the
//   multiply-adds and stored after them, between two barriers.
// - Everything inside a step is written out by the macros below: the 32 accumulators are 32 plain
//   variables and each of the 8 k's of a step has its own lines with constant offsets. The WGSL's
//   measurements (issue 29) found an array of accumulators 33 % slower and a k loop as slow.

// Component k (0 .. 3) of *v.
__device__ void setLane(float4 *v, unsigned k, float value) {
  if (k == 0) v->x = value;
  else if (k == 1) v->y = value;
  else if (k == 2) v->z = value;
  else v->w = value;
}

// a * b + c, component by component, each a fused multiply-add.
__device__ float4 fma4(float a, float4 b, float4 c) {
  return make_float4(fmaf(a, b.x, c.x), fmaf(a, b.y, c.y), fmaf(a, b.z, c.z), fmaf(a, b.w, c.w));
}

// Row `row` of C: float4 c0 and float4 c0 + 16 (64 columns on), where they exist.
__device__ void storeRow(float4 *C, unsigned M, unsigned row, unsigned c0, unsigned n4, float4 left, float4 right) {
  if (row < M) {
    if (c0 < n4) C[row * n4 + c0] = left;
    if (c0 + 16 < n4) C[row * n4 + c0 + 16] = right;
  }
}

// The 8 accumulators of one band: its 4 rows (the components of a) times the two B float4s.
#define BAND(a, b0, b1, c0, c1, c2, c3, c4, c5, c6, c7) \
  c0 = fma4(a.x, b0, c0); c1 = fma4(a.x, b1, c1);        \
  c2 = fma4(a.y, b0, c2); c3 = fma4(a.y, b1, c3);        \
  c4 = fma4(a.z, b0, c4); c5 = fma4(a.z, b1, c5);        \
  c6 = fma4(a.w, b0, c6); c7 = fma4(a.w, b1, c7);

// k of the step: 4 float4s of A (the four bands), 2 of B, 128 multiply-adds.
#define STEP_K(k)                                                                                   \
  {                                                                                                 \
    float4 a0 = tileA[ty + 64 * k], a1 = tileA[ty + 64 * k + 16];                                   \
    float4 a2 = tileA[ty + 64 * k + 32], a3 = tileA[ty + 64 * k + 48];                              \
    float4 b0 = tileB[tx + 32 * k], b1 = tileB[tx + 32 * k + 16];                                   \
    BAND(a0, b0, b1, acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7)                                \
    BAND(a1, b0, b1, acc8, acc9, acc10, acc11, acc12, acc13, acc14, acc15)                          \
    BAND(a2, b0, b1, acc16, acc17, acc18, acc19, acc20, acc21, acc22, acc23)                        \
    BAND(a3, b0, b1, acc24, acc25, acc26, acc27, acc28, acc29, acc30, acc31)                        \
  }

// Row t of the block's A at the step's k: float4 ak of the row, down column t of the tile.
#define STORE_A(va, ak)                                          \
  setLane(&tileA[(ak * 4 + 0) * 64 + t / 4], t % 4, va.x);       \
  setLane(&tileA[(ak * 4 + 1) * 64 + t / 4], t % 4, va.y);       \
  setLane(&tileA[(ak * 4 + 2) * 64 + t / 4], t % 4, va.z);       \
  setLane(&tileA[(ak * 4 + 3) * 64 + t / 4], t % 4, va.w);

__global__ void matmulTile16x8(const float4 *A, const float4 *B, float4 *C, unsigned M, unsigned N, unsigned K) {
  __shared__ float4 tileA[8 * 64];       // A transposed: 256 rows at each k of the step
  __shared__ float4 tileB[8 * 32];       // B: 8 rows of 128 columns
  unsigned tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
  unsigned k4 = K / 4, n4 = N / 4;
  unsigned row0 = blockIdx.y * 256, col4 = blockIdx.x * 32;
  unsigned bk = t / 32, bc = t % 32;     // this thread's float4 of the B tile
  unsigned steps = (K + 7) / 8;
  // acc(I) = row 4 * ty + (I / 2) % 4 of band I / 8, float4 column tx + 16 * (I % 2).
  float4 acc0 = make_float4(0.0f, 0.0f, 0.0f, 0.0f), acc1 = acc0, acc2 = acc0, acc3 = acc0;
  float4 acc4 = acc0, acc5 = acc0, acc6 = acc0, acc7 = acc0, acc8 = acc0, acc9 = acc0, acc10 = acc0, acc11 = acc0;
  float4 acc12 = acc0, acc13 = acc0, acc14 = acc0, acc15 = acc0, acc16 = acc0, acc17 = acc0, acc18 = acc0, acc19 = acc0;
  float4 acc20 = acc0, acc21 = acc0, acc22 = acc0, acc23 = acc0, acc24 = acc0, acc25 = acc0, acc26 = acc0, acc27 = acc0;
  float4 acc28 = acc0, acc29 = acc0, acc30 = acc0, acc31 = acc0;
  // Step 0 straight into the tiles.
  float4 va0 = make_float4(0.0f, 0.0f, 0.0f, 0.0f), va1 = va0, vb = va0;
  if (row0 + t < M && 0 < K) va0 = A[(row0 + t) * k4];
  if (row0 + t < M && 4 < K) va1 = A[(row0 + t) * k4 + 1];
  if (bk < K && col4 + bc < n4) vb = B[bk * n4 + col4 + bc];
  STORE_A(va0, 0)
  STORE_A(va1, 1)
  tileB[bk * 32 + bc] = vb;
  __syncthreads();
  for (unsigned s = 0; s < steps; s++) {
    bool more = s + 1 < steps;
    if (more) {                          // the next step's float4s into registers
      unsigned k0 = (s + 1) * 8;
      va0 = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      va1 = va0;
      vb = va0;
      if (row0 + t < M && k0 < K) va0 = A[(row0 + t) * k4 + k0 / 4];
      if (row0 + t < M && k0 + 4 < K) va1 = A[(row0 + t) * k4 + k0 / 4 + 1];
      if (k0 + bk < K && col4 + bc < n4) vb = B[(k0 + bk) * n4 + col4 + bc];
    }
    STEP_K(0)
    STEP_K(1)
    STEP_K(2)
    STEP_K(3)
    STEP_K(4)
    STEP_K(5)
    STEP_K(6)
    STEP_K(7)
    __syncthreads();                     // every read of the tiles is done
    if (more) {
      STORE_A(va0, 0)
      STORE_A(va1, 1)
      tileB[bk * 32 + bc] = vb;
    }
    __syncthreads();                     // the next step's tiles are complete
  }
  // The 16 rows of this thread, two float4s each, where they exist.
  unsigned c0 = col4 + tx;
  storeRow(C, M, row0 + ty * 4, c0, n4, acc0, acc1);
  storeRow(C, M, row0 + ty * 4 + 1, c0, n4, acc2, acc3);
  storeRow(C, M, row0 + ty * 4 + 2, c0, n4, acc4, acc5);
  storeRow(C, M, row0 + ty * 4 + 3, c0, n4, acc6, acc7);
  storeRow(C, M, row0 + (ty + 16) * 4, c0, n4, acc8, acc9);
  storeRow(C, M, row0 + (ty + 16) * 4 + 1, c0, n4, acc10, acc11);
  storeRow(C, M, row0 + (ty + 16) * 4 + 2, c0, n4, acc12, acc13);
  storeRow(C, M, row0 + (ty + 16) * 4 + 3, c0, n4, acc14, acc15);
  storeRow(C, M, row0 + (ty + 32) * 4, c0, n4, acc16, acc17);
  storeRow(C, M, row0 + (ty + 32) * 4 + 1, c0, n4, acc18, acc19);
  storeRow(C, M, row0 + (ty + 32) * 4 + 2, c0, n4, acc20, acc21);
  storeRow(C, M, row0 + (ty + 32) * 4 + 3, c0, n4, acc22, acc23);
  storeRow(C, M, row0 + (ty + 48) * 4, c0, n4, acc24, acc25);
  storeRow(C, M, row0 + (ty + 48) * 4 + 1, c0, n4, acc26, acc27);
  storeRow(C, M, row0 + (ty + 48) * 4 + 2, c0, n4, acc28, acc29);
  storeRow(C, M, row0 + (ty + 48) * 4 + 3, c0, n4, acc30, acc31);
}
// Launch: matmulTile16x8<<<dim3((N + 127) / 128, (M + 255) / 256), dim3(16, 16)>>>(A, B, C, M, N, K);
