// Bandwidth-bound in one pass: the grid-stride vec4 kernel of vec4-grid-stride.wgsl, except that
// each workgroup adds its total straight into the result with atomicAdd. The second dispatch of
// the two-pass version costs a few microseconds of launch and a pass over 2048 partials; at 2^26
// elements on a big GPU that is several per cent of the whole time.
// Element type: the driver rewrites the `alias T` line for i32 (line numbers unchanged); there is
// no f32 version because WGSL has no floating-point atomics.
enable subgroups;
alias T = u32;
override WORKGROUP_SIZE: u32 = 256;
const WINDOW: u32 = 64u;

struct Params {
  n: u32, // elements in `input` to reduce (the buffer holds ceil(n / 4) vec4s)
}

@group(0) @binding(0) var<storage, read> input: array<vec4<T>>;
@group(0) @binding(1) var<storage, read_write> total: array<atomic<T>>;
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
  // 2^26 elements, 8192 workgroups of 256: 2^24 vec4s / 2 097 152 invocations = 8 steps each.
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
  let workgroup_total = subgroupAdd(total_acc);
  if (lid == 0u) {
    // One atomic per workgroup (8192 at most) instead of a second dispatch: integer addition
    // wraps and is associative and commutative, so the arrival order of workgroups cannot change
    // the sum. WGSL has no f32 atomics, which is why this variant is for u32 and i32 only.
    atomicAdd(&total[0], workgroup_total);
  }
}
