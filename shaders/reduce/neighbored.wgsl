// Shared memory, neighbored pairs: at level s the invocations whose lid is a multiple of 2*s add
// their neighbour s words to the right. Correct, but the active invocations are spread out: at
// s = 1 every warp has 16 of 32 lanes working, at s = 16 only 1 of 32, yet every warp still runs
// the branch. With 32-lane warps and 256 invocations, levels s = 1..16 keep all 8 warps busy and
// divergent; only s >= 32 leaves whole warps idle.
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
  // One element per invocation; past the end of the input it loads the identity, zero.
  let i = base + lid;
  var v = T(0);
  if (i < params.n) {
    v = input[i];
  }
  sdata[lid] = v;
  workgroupBarrier();

  // s = 1, 2, 4, …: lid % (2*s) == 0 selects lanes 0, 2, 4, … then 0, 4, 8, …: divergent warps.
  for (var s = 1u; s < WORKGROUP_SIZE; s *= 2u) {
    if (lid % (2u * s) == 0u) {
      sdata[lid] += sdata[lid + s];
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    partials[group] = sdata[0];
  }
}
