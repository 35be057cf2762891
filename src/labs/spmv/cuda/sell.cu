// Twin of shaders/spmv/sell.wgsl: Warpscope translates this kernel, and the tests require the same
// y as the WGSL. Sliced ELL (SELL-C-σ, Kreutzer et al. 2014) with long rows cut into pieces.
// The CPU (sell.ts) cuts every row longer than a limit into equal pieces, sorts the pieces by
// length inside windows, and stores each slice of 32 pieces column-major, padded to the slice's
// longest piece: nonzero k of the piece in lane l of slice s is at start[s] + 32·k + l (the last
// step's slots past the slice's end read as padding). owner[p] is piece p's row, with CUT set if
// the row was cut. One thread sums one piece, the next step's loads in flight with this step's
// gathers; a segmented scan over the warp adds up each run of a cut row's pieces, and the run's
// last lane adds it into y (y must start as zeros).
#define STEP 8
#define LANES 32
#define CUT 0x80000000u
#define NO_KEY 0xffffffffu

__global__ void spmvSell(const unsigned *start, const unsigned *col, const float *val, const float *x,
                         const unsigned *owner, float *y, unsigned pieces) {
  unsigned lane = threadIdx.x % 32;
  unsigned p = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;  // a grid past 65535 blocks folds into y
  unsigned key = NO_KEY;
  float sum = 0.0f;
  if (p < pieces) {
    unsigned s = p / LANES, first = start[s] + p % LANES, end = start[s + 1];
    unsigned last = max(end, 1u) - 1;                 // slots past the slice's end read as padding
    unsigned c[STEP]; float v[STEP];
    #pragma unroll
    for (int k = 0; k < STEP; k++) {                  // coalesced
      unsigned i = first + k * LANES;
      c[k] = i < end ? col[min(i, last)] : 0u;
      v[k] = i < end ? val[min(i, last)] : 0.0f;
    }
    for (unsigned e = first; e < end; e += STEP * LANES) {
      float g[STEP];
      #pragma unroll
      for (int k = 0; k < STEP; k++) g[k] = x[c[k]];  // STEP gathers in flight
      unsigned cn[STEP]; float vn[STEP];
      #pragma unroll
      for (int k = 0; k < STEP; k++) {                // and with them the next step's loads
        unsigned i = e + (STEP + k) * LANES;
        cn[k] = i < end ? col[min(i, last)] : 0u;
        vn[k] = i < end ? val[min(i, last)] : 0.0f;
      }
      #pragma unroll
      for (int k = 0; k < STEP; k++) { sum += v[k] * g[k]; c[k] = cn[k]; v[k] = vn[k]; }
    }
    key = owner[p];
  }
  // Segmented inclusive scan with head flags: no sum crosses the start of a run of one key.
  unsigned keyBefore = __shfl_up_sync(0xffffffff, key, 1);
  bool head = lane == 0 || keyBefore != key;
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    float before = __shfl_up_sync(0xffffffff, sum, offset);
    bool headBefore = __shfl_up_sync(0xffffffff, head, offset);
    if (lane >= offset && !head) sum += before;
    head = head || (lane >= offset && headBefore);
  }
  unsigned keyAfter = __shfl_down_sync(0xffffffff, key, 1);
  if (key != NO_KEY && (lane == 31 || keyAfter != key)) {
    if ((key & CUT) == 0) y[key] = sum;          // a whole row: its sum, in the CPU's order
    else atomicAdd(&y[key & ~CUT], sum);         // a run of a cut row's pieces
  }
}
// Launch: cudaMemset(y, 0, rows * sizeof(float));
//         spmvSell<<<(pieces + 255) / 256, 256>>>(start, col, val, x, owner, y, pieces);  (at most 65535 blocks, else fold them into y)
