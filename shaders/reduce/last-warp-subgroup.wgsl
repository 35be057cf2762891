// Last warp without barriers. The barrier tree stops when 64 values are left (two per lane of a
// 32-lane warp); the rest is one subgroupAdd instead of six more barrier levels. In CUDA this was
// the `volatile` warp-synchronous trick (last-warp-naive.wgsl shows why WGSL can't do that).
// Any subgroup size works: lane j of a subgroup sums words j, j + size, j + 2*size, … of the
// 64-word window (32 lanes: 2 words each; SwiftShader's 4 lanes: 16 words each), then
// subgroupAdd totals the lanes. WGSL does not say which invocations share a subgroup, and
// subgroupAdd must be reached in uniform control flow, so we can't single out "the first warp" by
// lid < 32 the way CUDA does: every subgroup computes the same total and only lid 0 stores it.
// Builds on first-add-during-load.wgsl. Needs WORKGROUP_SIZE >= 64.
// Element type: the driver rewrites the `alias T` line for i32 or f32 (line numbers unchanged).
enable subgroups;
alias T = u32;
override WORKGROUP_SIZE: u32 = 256;
const WINDOW: u32 = 64u;

struct Params {
  n: u32, // elements in `input` to reduce
}

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> partials: array<T>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> sdata: array<T, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(subgroup_invocation_id) sid: u32,
        @builtin(subgroup_size) sg_size: u32) {
  let group = linear_workgroup_index(wid, nwg);
  let base = group * (2u * WORKGROUP_SIZE);
  if (base >= params.n) {
    return; // padding workgroup of a folded grid (uniform: barriers below stay valid)
  }
  let i = base + lid;
  var v = T(0);
  if (i < params.n) {
    v = input[i];
  }
  if (i + WORKGROUP_SIZE < params.n) {
    v += input[i + WORKGROUP_SIZE];
  }
  sdata[lid] = v;
  workgroupBarrier();

  // 256 invocations: s = 128, 64 with barriers; 64 values remain in sdata[0..63].
  for (var s = WORKGROUP_SIZE / 2u; s >= WINDOW; s >>= 1u) {
    if (lid < s) {
      sdata[lid] += sdata[lid + s];
    }
    workgroupBarrier();
  }

  // Lane j reads words j, j + sg_size, …: consecutive lanes, consecutive words, no conflicts.
  var acc = T(0);
  for (var j = sid; j < WINDOW; j += sg_size) {
    acc += sdata[j];
  }
  let total = subgroupAdd(acc);
  if (lid == 0u) {
    partials[group] = total;
  }
}
