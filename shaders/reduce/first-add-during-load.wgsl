// First add during load: interleaved.wgsl left half of the invocations idle from the first level
// on. Here each workgroup covers 2*WORKGROUP_SIZE elements and every invocation adds two of them
// (i and i + WORKGROUP_SIZE, both loads coalesced) before the tree starts: half the workgroups
// for the same n, and the first level of the tree done in registers.
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
  let base = group * (2u * WORKGROUP_SIZE);
  if (base >= params.n) {
    return; // padding workgroup of a folded grid (uniform: barriers below stay valid)
  }
  // 256 invocations cover 512 elements: lane k adds elements k and k + 256 of its block.
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
