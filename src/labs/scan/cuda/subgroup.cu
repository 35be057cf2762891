// Twin of shaders/scan/subgroup.wgsl: each warp scans its 32 elements with shuffles, lane 31
// writes the warp's total to shared memory, and each warp adds the totals of the warps before it.
// In CUDA a warp is always 32 lanes and lane = threadIdx.x % 32, so the WGSL's atomic claim of
// positions (a subgroup there may be 4 to 128 lanes, and its lanes need not be consecutive
// threads) is not needed here. The warp's scan and sum by shuffles: warp_scan.cuh.
#include "warp_scan.cuh"

template <typename T, bool EXCLUSIVE>
__global__ void scanSubgroup(const T *input, T *output, T *tileSums, unsigned int n) {
  __shared__ T warpTotals[32];               // one per warp: at most 1024 / 32
  unsigned int lid = threadIdx.x, lane = lid & 31, warp = lid >> 5;
  unsigned int i = blockIdx.x * blockDim.x + lid;
  T v = i < n ? input[i] : T(0);             // past the end: the identity
  T inclusive = warpInclusiveScan(v);
  T before = __shfl_up_sync(FULL_MASK, inclusive, 1);  // the exclusive sum, exact in float too
  T exclusive = lane > 0 ? before : T(0);
  if (lane == 31) warpTotals[warp] = inclusive;
  __syncthreads();
  T offset = warpSum(lane < warp ? warpTotals[lane] : T(0));  // the warps before this one
  if (i < n) output[i] = offset + (EXCLUSIVE ? exclusive : inclusive);
  if (lid == blockDim.x - 1) tileSums[blockIdx.x] = offset + inclusive;
}

// The host launches one instance per element type and kind of scan, one block per tile.
void scanTiles(const unsigned int *in, unsigned int *out, unsigned int *sums, unsigned int n, unsigned int block, bool exclusive) {
  unsigned int tiles = (n + block - 1) / block;
  if (exclusive) scanSubgroup<unsigned int, true><<<tiles, block>>>(in, out, sums, n);
  else scanSubgroup<unsigned int, false><<<tiles, block>>>(in, out, sums, n);
}
void scanTiles(const float *in, float *out, float *sums, unsigned int n, unsigned int block, bool exclusive) {
  unsigned int tiles = (n + block - 1) / block;
  if (exclusive) scanSubgroup<float, true><<<tiles, block>>>(in, out, sums, n);
  else scanSubgroup<float, false><<<tiles, block>>>(in, out, sums, n);
}
