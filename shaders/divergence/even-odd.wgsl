// Warp divergence patterns, "even–odd" (course seed 001, Professional CUDA C's mathKernel1): each
// invocation picks its branch by the parity of its index, tid % 2. Neighbouring lanes of one warp
// disagree, so every warp runs both branches one after the other, half its lanes masked off in
// each: one divergent branch per warp.
override WORKGROUP_SIZE: u32 = 256;

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
  if (tid % 2u == 0u) {
    a = x[tid] * 2.0;
  } else {
    b = x[tid] + 100.0;
  }
  c[tid] = a + b;
}
