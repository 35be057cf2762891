// Many elements per invocation: the bandwidth-bound one. A fixed grid of workgroups walks the
// whole input in a grid-stride loop, one vec4 (16 bytes) per invocation per step, so a 32-lane
// warp asks for 512 consecutive bytes at a time and the loop is all loads and adds. The tree runs
// once per workgroup, after the loop, and costs nothing next to it: the driver launches at most a
// few thousand workgroups whatever n is, so 2^26 elements take two passes.
// The input is read as vec4: its length must be a multiple of 4 (the driver pads with zeros),
// and params.n counts elements. Needs WORKGROUP_SIZE >= 64.
// Element type: the driver rewrites the `alias T` line for i32 or f32 (line numbers unchanged).
enable subgroups;
alias T = u32;
override WORKGROUP_SIZE: u32 = 256;
const WINDOW: u32 = 64u;

struct Params {
  n: u32, // elements in `input` to reduce (the buffer holds ceil(n / 4) vec4s)
}

@group(0) @binding(0) var<storage, read> input: array<vec4<T>>;
@group(0) @binding(1) var<storage, read_write> partials: array<T>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> sdata: array<T, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(subgroup_invocation_id) sid: u32,
        @builtin(subgroup_size) sg_size: u32) {
  // The grid is never folded (the driver caps it far below 65 535), so x alone indexes it.
  let vec4_count = (params.n + 3u) / 4u;
  let stride = nwg.x * WORKGROUP_SIZE;
  // 2^26 elements, 2048 workgroups of 256: 2^24 vec4s / 524 288 invocations = 32 steps each.
  var acc = vec4<T>(T(0));
  for (var i = wid.x * WORKGROUP_SIZE + lid; i < vec4_count; i += stride) {
    acc += input[i];
  }
  sdata[lid] = (acc.x + acc.y) + (acc.z + acc.w);
  workgroupBarrier();

  for (var s = WORKGROUP_SIZE / 2u; s >= WINDOW; s >>= 1u) {
    if (lid < s) {
      sdata[lid] += sdata[lid + s];
    }
    workgroupBarrier();
  }

  var total_acc = T(0);
  for (var j = sid; j < WINDOW; j += sg_size) {
    total_acc += sdata[j];
  }
  let total = subgroupAdd(total_acc);
  if (lid == 0u) {
    partials[wid.x] = total;
  }
}
