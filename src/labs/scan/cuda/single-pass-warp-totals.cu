// Twin of shaders/scan/single-pass-warp-totals.wgsl: single-pass-vec4.cu with the work between
// the two barriers given to warp 0. Read single-pass-vec4.cu first; what differs is how the warps
// learn their offsets. There every warp, after the first barrier, reads all the warps' totals and
// reduces them twice (the totals before it, and the whole tile's): with 8 warps, 8 times the same
// work, 16 warp sums each. Here warp 0 alone scans the totals (lane g holds warp g's: a block has
// at most 32 warps), publishes the tile's aggregate, writes each warp's offset within the tile over
// its totals, and looks back.
#include "single_pass_vec4.cuh"

template <typename T, typename V, bool EXCLUSIVE, int SPIN_LIMIT>
__global__ void scanSinglePassWarpTotals(const V *input, V *output, volatile unsigned int *status, unsigned int n, unsigned int tile_count) {
  __shared__ T warpTotals[VECS * 32];        // [r * 32 + w]: warp w's sum of row r, then its offset in the tile
  __shared__ unsigned int ticket;  __shared__ T tilePrefix;   // the sum of every tile before this one
  unsigned int lid = threadIdx.x, lane = lid & 31, warp = lid >> 5, W = blockDim.x;
  V x[VECS];                                 // row r's uint4 at lid
  T laneBefore[VECS];                        // the sums of row r of the lanes before this one
  Ticket t = loadAndScanTile(input, x, laneBefore, warpTotals, status, &ticket, n, tile_count);

  if (warp == 0) {
    // Warp 0 scans the warps' totals, row after row, and writes each warp's offset over its totals.
    bool mine = lane < W / 32;               // lane g stands for warp g
    T tileTotal = T(0);                      // the rows before row r, then the whole tile
    for (int r = 0; r < VECS; r++) {
      T own = mine ? warpTotals[r * 32 + lane] : T(0);
      T inclusive = warpInclusiveScan(own);
      T before = __shfl_up_sync(FULL_MASK, inclusive, 1);
      if (mine) warpTotals[r * 32 + lane] = tileTotal + (lane > 0 ? before : T(0));
      tileTotal += __shfl_sync(FULL_MASK, inclusive, 31);
    }
    publishAndLookBack(input, status, t.tile, t.mark, tileTotal, n, SPIN_LIMIT, &tilePrefix);
  }
  __syncthreads();

  // Rescan each uint4 serially from its offset and store (coalesced, like the loads).
  T prefix = tilePrefix;
  unsigned int base = t.tile * W * VECS;
  for (int r = 0; r < VECS; r++)
    storeScanned(output, base + r * W + lid, x[r], prefix + warpTotals[r * 32 + warp] + laneBefore[r], EXCLUSIVE, (n + 3) / 4);
}

SINGLE_PASS_VEC4_HOST(scanSinglePassWarpTotals)
