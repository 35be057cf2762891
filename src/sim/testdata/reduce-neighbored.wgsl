// Neighbored-addressing reduction: `lid % (2*stride) == 0` diverges inside every warp.
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> partials: array<u32>;

var<workgroup> s: array<u32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  s[lid] = input[wid.x * 256u + lid];
  workgroupBarrier();
  for (var stride = 1u; stride < 256u; stride *= 2u) {
    if (lid % (2u * stride) == 0u) {
      s[lid] += s[lid + stride];
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    partials[wid.x] = s[0];
  }
}
