// Completely unrolled: the loop over s becomes one guarded step per possible level. Each guard
// compares the override WORKGROUP_SIZE with a constant, and overrides are fixed when the pipeline
// is created, so the compiler keeps exactly log2(WORKGROUP_SIZE / 64) steps and drops the rest:
// no loop counter, no loop branch. (CUDA does the same with a template parameter for blockDim.x.)
// The last 64 values go through one subgroupAdd as in last-warp-subgroup.wgsl, and each
// invocation adds two elements while loading as in first-add-during-load.wgsl.
// WORKGROUP_SIZE: a power of two from 64 to 1024.
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

  // 1024 invocations keep all four steps; 256 keep the last two; 64 keep none.
  if (WORKGROUP_SIZE >= 1024u) {
    if (lid < 512u) {
      sdata[lid] += sdata[lid + 512u];
    }
    workgroupBarrier();
  }
  if (WORKGROUP_SIZE >= 512u) {
    if (lid < 256u) {
      sdata[lid] += sdata[lid + 256u];
    }
    workgroupBarrier();
  }
  if (WORKGROUP_SIZE >= 256u) {
    if (lid < 128u) {
      sdata[lid] += sdata[lid + 128u];
    }
    workgroupBarrier();
  }
  if (WORKGROUP_SIZE >= 128u) {
    if (lid < 64u) {
      sdata[lid] += sdata[lid + 64u];
    }
    workgroupBarrier();
  }

  // 64 values left: lane j of every subgroup sums words j, j + sg_size, …; one subgroupAdd.
  var acc = T(0);
  for (var j = sid; j < WINDOW; j += sg_size) {
    acc += sdata[j];
  }
  let total = subgroupAdd(acc);
  if (lid == 0u) {
    partials[group] = total;
  }
}
