// Warp divergence patterns, "warp-aligned" (course seed 001, Professional CUDA C's mathKernel2):
// the same two branches, chosen by (tid / warpSize) % 2. All 32 lanes of a warp share tid / 32, so
// a whole warp takes one branch and the next warp the other: the same work, no divergent branch.
// WARP_SIZE is the warp the pattern is written for (CUDA's warpSize); the driver sets 32.
override WORKGROUP_SIZE: u32 = 256;
override WARP_SIZE: u32 = 32;

struct Params {
  n: u32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let tid = gid.x;
  if (tid >= params.n) {
    return;
  }
  var a = 0.0;
  var b = 0.0;
  if ((tid / WARP_SIZE) % 2u == 0u) {
    a = x[tid] * 2.0;
  } else {
    b = x[tid] + 100.0;
  }
  c[tid] = a + b;
}
