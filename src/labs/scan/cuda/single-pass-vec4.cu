// Twin of shaders/scan/single-pass-vec4.wgsl: the single pass built for bandwidth. The whole scan
// in one launch, 32 elements a thread as 8 uint4s, warp scans by shuffles, and a look-back that
// reads a whole warp's worth of predecessors at once (single_pass_vec4.cuh: the tile, the status
// words, the look-back with its fallback; single-pass.cu: why a bounded spin and a fallback).
//  1. A ticket gives the block its tile; each thread loads its uint4 of each of the 8 rows.
//  2. Each thread sums its rows; each warp scans those sums (one scan a row) and its lane 31
//     writes the warp's totals to shared memory; barrier; each warp adds up the totals before
//     its own and the whole tile's.
//  3. Warp 0 alone publishes the tile's aggregate, looks back and publishes its inclusive prefix.
//  4. Barrier; every thread rescans its uint4s serially from its offset and stores them.
// Why 8 rows: a tile waits for its look-back with its data in registers, loading nothing, so the
// fewer and larger the tiles the closer the scan gets to a copy (docs/benchmarks.md).
#include "single_pass_vec4.cuh"

// T is the element, V its 4-vector (unsigned int and uint4, int and int4, or float and float4);
// input and output hold ceil(n / 4) vectors, elements at or past n read as 0.
template <typename T, typename V, bool EXCLUSIVE, int SPIN_LIMIT>
__global__ void scanSinglePassVec4(const V *input, V *output, volatile unsigned int *status, unsigned int n, unsigned int tile_count) {
  __shared__ T warpTotals[VECS * 32];        // [r * 32 + w]: warp w's sum of row r (at most 1024 / 32 warps)
  __shared__ unsigned int ticket;  __shared__ T tilePrefix;   // the sum of every tile before this one
  unsigned int lid = threadIdx.x, lane = lid & 31, warp = lid >> 5, W = blockDim.x;
  V x[VECS];                                 // row r's uint4 at lid
  T laneBefore[VECS];                        // the sums of row r of the lanes before this one
  Ticket t = loadAndScanTile(input, x, laneBefore, warpTotals, status, &ticket, n, tile_count);

  // The totals of the warps before this one and of all warps, per row: lane g adds warp g's.
  T before[VECS], rowBefore[VECS];           // rowBefore: the rows before row r, over the whole tile
  T tileTotal = T(0);
  for (int r = 0; r < VECS; r++) {
    T total = lane < W / 32 ? warpTotals[r * 32 + lane] : T(0);
    before[r] = warpSum(lane < warp ? total : T(0));
    rowBefore[r] = tileTotal;
    tileTotal += warpSum(total);
  }

  if (warp == 0) publishAndLookBack(input, status, t.tile, t.mark, tileTotal, n, SPIN_LIMIT, &tilePrefix);
  __syncthreads();

  // Rescan each uint4 serially from its offset and store (coalesced, like the loads).
  T prefix = tilePrefix;
  unsigned int base = t.tile * W * VECS;
  for (int r = 0; r < VECS; r++)
    storeScanned(output, base + r * W + lid, x[r], prefix + rowBefore[r] + before[r] + laneBefore[r], EXCLUSIVE, (n + 3) / 4);
}

SINGLE_PASS_VEC4_HOST(scanSinglePassVec4)
