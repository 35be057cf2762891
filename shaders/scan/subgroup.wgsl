enable subgroups;
alias T = u32;
// Scan of one tile of WORKGROUP_SIZE elements with subgroup operations (a subgroup is WebGPU's
// name for a warp). Line 2 names the element type (line 1 must be the `enable`): the lab swaps
// `u32` for `f32` or `i32` in place, keeping every line number.
//
// 1. Each subgroup scans its own elements with subgroupInclusiveAdd, in registers: no workgroup
//    memory and no barrier.
// 2. The last lane of each subgroup writes the subgroup's total; one barrier; each subgroup adds
//    the totals of the subgroups before it.
//
// Correct for any subgroup size (4 on SwiftShader, 32 on NVIDIA, 64 on some AMD parts, even a
// partial last subgroup) and for any grouping: WGSL promises neither a size nor that invocation
// `lid` sits in subgroup lid / size. So nothing is derived from lid: each subgroup counts its
// live lanes (subgroupAdd(1)), and one lane claims that many consecutive tile positions and a
// subgroup number with a single atomicAdd on a packed counter (positions in the high 16 bits,
// subgroups in the low 16): position = claimed start + rank of the lane among live lanes. Because
// both come from one atomic, subgroup k's positions follow exactly those of subgroups 0…k − 1.
// A warp still reads consecutive words (coalesced), whatever order subgroups claim in.
//
// Arrays of any length: tile totals go to `tile_sums`, which the lab scans and adds back.

override WORKGROUP_SIZE: u32 = 256;
// false: output[i] = input[0] + … + input[i] (inclusive); true: input[0] + … + input[i − 1].
override EXCLUSIVE: bool = false;

struct Params {
  n: u32,          // elements in `input`
  tile_count: u32, // workgroups with work: ceil(n / WORKGROUP_SIZE)
}

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read_write> tile_sums: array<T>;
@group(0) @binding(3) var<uniform> params: Params;

// (positions claimed << 16) | subgroups claimed. Workgroup memory starts zeroed.
var<workgroup> claim: atomic<u32>;
// Subgroup k's total at [k]: at most one subgroup per invocation.
var<workgroup> subgroup_totals: array<T, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let tile = linear_workgroup_index(wid, nwg);
  if (tile >= params.tile_count) {
    return; // the last row of a folded grid may be partly empty
  }
  let live = subgroupAdd(1u);           // lanes in this subgroup (≤ subgroup_size)
  let rank = subgroupExclusiveAdd(1u);  // 0 … live − 1
  var claimed = 0u;
  if (subgroupElect()) {
    claimed = atomicAdd(&claim, (live << 16u) | 1u);
  }
  claimed = subgroupBroadcastFirst(claimed); // the elected lane is the first live one
  let k = claimed & 0xffffu;
  let pos = (claimed >> 16u) + rank;

  let i = tile * WORKGROUP_SIZE + pos;
  var v = T(0); // past the end, pad with the identity
  if (i < params.n) {
    v = input[i];
  }
  let inclusive = subgroupInclusiveAdd(v);
  var exclusive = T(0);
  if (EXCLUSIVE) {
    exclusive = subgroupExclusiveAdd(v); // not inclusive − v: that is inexact in f32
  }
  if (rank == live - 1u) {
    subgroup_totals[k] = inclusive;
  }
  workgroupBarrier();

  // Sum the k totals before this subgroup: lane r adds totals r, r + live, r + 2·live, …, then
  // one subgroupAdd combines the lanes (k ≤ W / live, so ≤ W / live² loads per lane).
  var part = T(0);
  for (var j = rank; j < k; j = j + live) {
    part = part + subgroup_totals[j];
  }
  let offset = subgroupAdd(part);

  var result = offset + inclusive;
  if (EXCLUSIVE) {
    result = offset + exclusive;
  }
  if (i < params.n) {
    output[i] = result;
  }
  if (pos == WORKGROUP_SIZE - 1u) {
    tile_sums[tile] = offset + inclusive;
  }
}
