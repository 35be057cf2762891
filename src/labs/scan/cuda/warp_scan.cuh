// A warp's scan and sum by shuffles, written once for the warp-shuffle scan (subgroup.cu) and the
// vec4 single passes (single_pass_vec4.cuh). In CUDA a warp is always 32 lanes and
// lane = threadIdx.x % 32. Warpscope runs the warp functions on 32-lane warps: the simulator
// always, a GPU only where its subgroups are 32 lanes (it says so before the run).
#pragma once
#define FULL_MASK 0xffffffffu

// Kogge–Stone over the warp: lane i ends with v of lanes 0 … i.
template <typename T>
__device__ T warpInclusiveScan(T v) {
  unsigned int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d *= 2) {
    T up = __shfl_up_sync(FULL_MASK, v, d);  // lane - d's running sum (its own below d)
    if (lane >= d) v += up;
  }
  return v;
}

// The butterfly: every lane ends with the warp's sum.
template <typename T>
__device__ T warpSum(T v) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(FULL_MASK, v, d);
  return v;
}
