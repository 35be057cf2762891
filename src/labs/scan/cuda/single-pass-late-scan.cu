// Twin of shaders/scan/single-pass-late-scan.wgsl: single-pass-vec4.cu with its work reordered so
// that less stays live while the tile waits for its predecessors. Read single-pass-vec4.cu first;
// what differs is when the scans within the tile run. There, across the look-back, each thread
// also keeps its place among the lanes, the totals of the warps before it and the offsets of its
// 8 rows. Here, before the barrier, each warp only adds up its rows (one warpSum a row); warp 0
// adds those totals into the tile's aggregate. The warp scans, the totals before each warp and the
// rows' offsets wait until the tile's prefix is known, so only x[] stays live across the wait:
// fewer registers, more blocks per SM to load while one waits (docs/benchmarks.md, "tile size
// against the look-back's wait").
#include "single_pass_vec4.cuh"

template <typename T, typename V, bool EXCLUSIVE, int SPIN_LIMIT>
__global__ void scanSinglePassLateScan(const V *input, V *output, volatile unsigned int *status, unsigned int n, unsigned int tile_count) {
  __shared__ T warpTotals[VECS * 32];        // [r * 32 + w]: warp w's sum of row r (at most 1024 / 32 warps)
  __shared__ unsigned int ticket;  __shared__ T tilePrefix;   // the sum of every tile before this one
  unsigned int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, W = blockDim.x;
  V x[VECS];                                 // row r's uint4 at lid
  Ticket t = loadTile(input, x, status, &ticket, n, tile_count);

  // Before the look-back, only each warp's totals.
  for (int r = 0; r < VECS; r++) {
    T total = warpSum(hsum(x[r]));
    if (lane == 0) warpTotals[r * 32 + warp] = total;
  }
  __syncthreads();
  if (warp == 0) {
    T tileTotal = T(0);
    for (int r = 0; r < VECS; r++) tileTotal += warpSum(lane < W / 32 ? warpTotals[r * 32 + lane] : T(0));
    publishAndLookBack(input, status, t.tile, t.mark, tileTotal, n, SPIN_LIMIT, &tilePrefix);
  }
  __syncthreads();

  // After the look-back: each row scanned across the warp, the totals of the warps before this one
  // and of all warps, then its uint4 rescanned serially from its offset and stored.
  T offset = tilePrefix;                     // the tile's prefix and the rows before row r
  unsigned int first = t.tile * W * VECS + threadIdx.x;   // this thread's uint4 of row 0
  for (int r = 0; r < VECS; r++) {
    T inclusive = warpInclusiveScan(hsum(x[r]));
    T laneBefore = __shfl_up_sync(FULL_MASK, inclusive, 1);
    T total = lane < W / 32 ? warpTotals[r * 32 + lane] : T(0);
    T before = warpSum(lane < warp ? total : T(0));
    storeScanned(output, first + r * W, x[r], offset + before + (lane > 0 ? laneBefore : T(0)), EXCLUSIVE, (n + 3) / 4);
    offset += warpSum(total);
  }
}

SINGLE_PASS_VEC4_HOST(scanSinglePassLateScan)
