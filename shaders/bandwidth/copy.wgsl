// Copy baseline: every invocation copies vec4s in a grid-stride loop: one read and one write of
// each byte, the traffic pattern of any out-of-place kernel that touches its data once.
struct Params {
  vec4_count: u32,
}

@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * 256u;
  for (var i = gid.x; i < params.vec4_count; i += stride) {
    dst[i] = src[i];
  }
}
