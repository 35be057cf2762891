// Twin of shaders/matmul/fast.wgsl: Warpscope translates this kernel, and the tests require the
// same C as the WGSL (float4 loads and stores; K and N multiples of 4; M is free). A 16 x 16 block
// owns a 128 x 128 block of C and each thread an 8 x 8 piece of it (64 accumulators as 16 float4s):
// two 4-row bands 64 rows apart times two 4-column bands 64 columns apart, so a warp's float4 reads
// of the tiles land on neighbouring words. Per step of BK = 8 along K each thread loads one float4
// of A and one of B: 16 words feed 64 multiply-adds per k.
// - The A tile is stored transposed (k-major: a float4 holds 4 rows of A at one k) and swizzled:
//   rows k = 4 .. 7 keep float4 column c at c ^ 4, so the transposed stores of lanes t and t + 1
//   (rows k and k + 4, 512 words apart) are 16 banks apart instead of on one bank. Each thread
//   stores its 4 floats of A one component at a time; a float4 has no operator[], so setLane picks
//   the component.
// - The tiles are double-buffered: the next step's float4s are loaded into registers before the
//   multiply-adds and stored into the other buffer after them, so one barrier per step suffices.
constexpr unsigned BM = 128;             // rows (and columns) of C per block
constexpr unsigned BK = 8;               // k per step
constexpr unsigned AS = 32;              // float4s per transposed A-tile row: 128 words
constexpr unsigned A_BUF = BK * AS;      // float4s per A buffer
constexpr unsigned B_BUF = BK * 32;      // float4s per B buffer

// Component k (0 .. 3) of *v.
__device__ void setLane(float4 *v, unsigned k, float value) {
  if (k == 0) v->x = value;
  else if (k == 1) v->y = value;
  else if (k == 2) v->z = value;
  else v->w = value;
}

// c + a * b, component by component.
__device__ float4 madd(float a, float4 b, float4 c) {
  return make_float4(c.x + a * b.x, c.y + a * b.y, c.z + a * b.z, c.w + a * b.w);
}

// Row `row` of C: float4 c0 (columns 4 * c0 ..) and float4 c0 + 16 (64 columns on), where they exist.
__device__ void storeRow(float4 *C, unsigned M, unsigned row, unsigned c0, unsigned n4, float4 left, float4 right) {
  if (row < M) {
    if (c0 < n4) C[row * n4 + c0] = left;
    if (c0 + 16 < n4) C[row * n4 + c0 + 16] = right;
  }
}

__global__ void matmulFast(const float4 *A, const float4 *B, float4 *C, unsigned M, unsigned N, unsigned K) {
  __shared__ float4 tileA[2 * A_BUF];    // 2 buffers: A transposed and swizzled
  __shared__ float4 tileB[2 * B_BUF];    // 2 buffers (16 KiB in all)
  unsigned tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
  unsigned k4 = K / 4, n4 = N / 4;
  // This thread's share of each tile load: A row t / 2, words 4 * (t % 2) .. + 3; B row t / 32, float4 t % 32.
  unsigned ar = blockIdx.y * BM + t / 2, ah = t % 2;
  unsigned bkr = t / 32, bc4 = blockIdx.x * 32 + t % 32;
  unsigned aRow = t / 2;
  unsigned aCol = (aRow / 4) ^ (ah * 4); // the column this thread stores to, swizzled
  float4 acc[16];
  for (int i = 0; i < 16; i++) acc[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  // Step 0 into buffer 0.
  float4 va = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (ar < M && ah * 4 < K) va = A[ar * k4 + ah];
  float4 vb = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (bkr < K && bc4 < n4) vb = B[bkr * n4 + bc4];
  setLane(&tileA[(ah * 4) * AS + aCol], aRow % 4, va.x);
  setLane(&tileA[(ah * 4 + 1) * AS + aCol], aRow % 4, va.y);
  setLane(&tileA[(ah * 4 + 2) * AS + aCol], aRow % 4, va.z);
  setLane(&tileA[(ah * 4 + 3) * AS + aCol], aRow % 4, va.w);
  tileB[bkr * 32 + t % 32] = vb;
  __syncthreads();
  unsigned steps = (K + BK - 1) / BK;
  for (unsigned s = 0; s < steps; s++) {
    unsigned cur = s % 2;
    bool more = s + 1 < steps;
    if (more) {                          // the next step's float4s into registers
      unsigned k0 = (s + 1) * BK;
      va = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (ar < M && k0 + ah * 4 < K) va = A[ar * k4 + k0 / 4 + ah];
      vb = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (k0 + bkr < K && bc4 < n4) vb = B[(k0 + bkr) * n4 + bc4];
    }
    for (unsigned kk = 0; kk < BK; kk++) {
      unsigned arow = cur * A_BUF + kk * AS;
      float4 a0 = tileA[arow + (ty ^ (kk & 4))];
      float4 a1 = tileA[arow + ((16 + ty) ^ (kk & 4))];
      unsigned brow = cur * B_BUF + kk * 32;
      float4 b0 = tileB[brow + tx];
      float4 b1 = tileB[brow + 16 + tx];
      // Written out so every accumulator index is a constant and the 16 float4s stay in registers.
      acc[0] = madd(a0.x, b0, acc[0]);
      acc[1] = madd(a0.x, b1, acc[1]);
      acc[2] = madd(a0.y, b0, acc[2]);
      acc[3] = madd(a0.y, b1, acc[3]);
      acc[4] = madd(a0.z, b0, acc[4]);
      acc[5] = madd(a0.z, b1, acc[5]);
      acc[6] = madd(a0.w, b0, acc[6]);
      acc[7] = madd(a0.w, b1, acc[7]);
      acc[8] = madd(a1.x, b0, acc[8]);
      acc[9] = madd(a1.x, b1, acc[9]);
      acc[10] = madd(a1.y, b0, acc[10]);
      acc[11] = madd(a1.y, b1, acc[11]);
      acc[12] = madd(a1.z, b0, acc[12]);
      acc[13] = madd(a1.z, b1, acc[13]);
      acc[14] = madd(a1.w, b0, acc[14]);
      acc[15] = madd(a1.w, b1, acc[15]);
    }
    if (more) {                          // into the other buffer, last read before the previous barrier
      unsigned nxt = 1 - cur;
      setLane(&tileA[nxt * A_BUF + (ah * 4) * AS + aCol], aRow % 4, va.x);
      setLane(&tileA[nxt * A_BUF + (ah * 4 + 1) * AS + aCol], aRow % 4, va.y);
      setLane(&tileA[nxt * A_BUF + (ah * 4 + 2) * AS + aCol], aRow % 4, va.z);
      setLane(&tileA[nxt * A_BUF + (ah * 4 + 3) * AS + aCol], aRow % 4, va.w);
      tileB[nxt * B_BUF + bkr * 32 + t % 32] = vb;
    }
    __syncthreads();                     // one barrier per step: the other buffer is full, this one free
  }
  unsigned c0 = blockIdx.x * 32 + tx;
  unsigned row0 = blockIdx.y * BM + ty * 4;
  storeRow(C, M, row0, c0, n4, acc[0], acc[1]);
  storeRow(C, M, row0 + 1, c0, n4, acc[2], acc[3]);
  storeRow(C, M, row0 + 2, c0, n4, acc[4], acc[5]);
  storeRow(C, M, row0 + 3, c0, n4, acc[6], acc[7]);
  storeRow(C, M, row0 + 64, c0, n4, acc[8], acc[9]);
  storeRow(C, M, row0 + 65, c0, n4, acc[10], acc[11]);
  storeRow(C, M, row0 + 66, c0, n4, acc[12], acc[13]);
  storeRow(C, M, row0 + 67, c0, n4, acc[14], acc[15]);
}
// Launch: matmulFast<<<dim3((N + 127) / 128, (M + 127) / 128), dim3(16, 16)>>>(A, B, C, M, N, K);
