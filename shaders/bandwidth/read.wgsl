// Read baseline: every invocation sums vec4s in a grid-stride loop, so the kernel does nothing
// but stream the buffer once. The sum is written only when it hits an impossible value, which
// keeps the compiler from removing the loads without costing a store per invocation.
struct Params {
  vec4_count: u32,
}

@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> sink: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * 256u;
  var acc = vec4<u32>(0u);
  for (var i = gid.x; i < params.vec4_count; i += stride) {
    acc ^= src[i];
  }
  let folded = acc.x ^ acc.y ^ acc.z ^ acc.w;
  if (folded == 0xdeadbeefu) {
    sink[gid.x] = folded;
  }
}
