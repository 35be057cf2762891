// Reduction tree in global memory, in place: the starting point of the ladder. Each workgroup
// sums its WORKGROUP_SIZE elements where they lie, halving the number of active invocations at
// every level (lid < s), and writes one partial sum. The input buffer is overwritten.
// Every level reads and writes global memory, and storageBarrier() (not workgroupBarrier())
// is what makes one level's writes visible to the next level's reads within the workgroup.
// Element type: the driver rewrites the `alias T` line for i32 or f32 (line numbers unchanged).
alias T = u32;
override WORKGROUP_SIZE: u32 = 256;

struct Params {
  n: u32, // elements in `data` to reduce
}

@group(0) @binding(0) var<storage, read_write> data: array<T>;
@group(0) @binding(1) var<storage, read_write> partials: array<T>;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let group = linear_workgroup_index(wid, nwg);
  let base = group * WORKGROUP_SIZE;
  // Padding workgroups of a folded grid have nothing to do. The test is uniform over the
  // workgroup, so the barriers below are still reached by every invocation that stays.
  if (base >= params.n) {
    return;
  }
  let i = base + lid;
  // s = 128, 64, …, 1 for 256 invocations: 8 levels, each one a round trip to global memory.
  for (var s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {
    // An element past n counts as zero: its partner simply keeps its value.
    if (lid < s && i + s < params.n) {
      data[i] += data[i + s];
    }
    storageBarrier();
  }
  if (lid == 0u) {
    partials[group] = data[base];
  }
}
