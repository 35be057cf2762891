// The CUDA `volatile` last-warp trick transcribed to WGSL, kept to show what goes wrong: once 64
// values are left, invocations 0..31 finish with six unsynchronised steps, trusting that a warp's
// 32 lanes run in lockstep. WGSL promises no such thing: at step +16, lane 0 reads word 16 while
// lane 16 writes it, with no barrier between them. That is a data race; the value lane 0 gets is
// unspecified. It compiles and runs, and it may even give the right sum (on hardware whose
// subgroups have 32 or more lanes and run them in lockstep), but with SwiftShader's 4-lane
// subgroups lanes 16..19 may not have written yet when lane 0 reads. The simulator flags each of
// these reads as a race. last-warp-subgroup.wgsl is the correct version. Needs WORKGROUP_SIZE >= 64.
// Element type: the driver rewrites the `alias T` line for i32 or f32 (line numbers unchanged).
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
        @builtin(num_workgroups) nwg: vec3<u32>) {
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

  for (var s = WORKGROUP_SIZE / 2u; s >= WINDOW; s >>= 1u) {
    if (lid < s) {
      sdata[lid] += sdata[lid + s];
    }
    workgroupBarrier();
  }

  // DATA RACE (on purpose): no barrier separates one line's writes from the next line's reads.
  if (lid < 32u) {
    sdata[lid] += sdata[lid + 32u];
    sdata[lid] += sdata[lid + 16u]; // lane 0 reads word 16 as lane 16 writes it
    sdata[lid] += sdata[lid + 8u];
    sdata[lid] += sdata[lid + 4u];
    sdata[lid] += sdata[lid + 2u];
    sdata[lid] += sdata[lid + 1u];
  }
  if (lid == 0u) {
    partials[group] = sdata[0];
  }
}
