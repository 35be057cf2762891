// Shared memory, interleaved pairs (sequential addressing): at level s the first s invocations
// add the word s places to their right, s = WORKGROUP_SIZE/2 down to 1. The working invocations
// are contiguous, so warps are either fully active or idle until s < 32, and lane k touches
// words k and k + s: 32 consecutive words, one per bank → no bank conflicts.
// Element type: the driver rewrites the `alias T` line for i32 or f32 (line numbers unchanged).
alias T = u32;
override WORKGROUP_SIZE: u32 = 256;

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
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let group = linear_workgroup_index(wid, nwg);
  let base = group * WORKGROUP_SIZE;
  if (base >= params.n) {
    return; // padding workgroup of a folded grid (uniform: barriers below stay valid)
  }
  let i = base + lid;
  var v = T(0);
  if (i < params.n) {
    v = input[i];
  }
  sdata[lid] = v;
  workgroupBarrier();

  // s halves from WORKGROUP_SIZE / 2: whole warps work or idle until s < 32, then lanes of warp 0 drop out.
  for (var s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      sdata[lid] += sdata[lid + s];
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    partials[group] = sdata[0];
  }
}
