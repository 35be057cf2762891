// Interleaved-addressing shared-memory tree reduction: one partial sum per workgroup.
override WG: u32 = 256u;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> partials: array<u32>;

var<workgroup> s: array<u32, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let n = arrayLength(&input);
  let i = wid.x * WG + lid;
  var v = 0u;
  if (i < n) {
    v = input[i];
  }
  s[lid] = v;
  workgroupBarrier();
  for (var stride = WG / 2u; stride > 0u; stride >>= 1u) {
    if (lid < stride) {
      s[lid] += s[lid + stride];
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    partials[wid.x] = s[0];
  }
}
