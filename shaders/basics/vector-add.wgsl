// Vector add, C = A + B, with a grid-stride loop: each invocation starts at its global index and
// steps by the total number of invocations in the grid, so any n is covered by any grid size
// (the CUDA idiom `for (i = blockIdx.x*blockDim.x + threadIdx.x; i < n; i += blockDim.x*gridDim.x)`).
// Neighbouring lanes touch neighbouring words: every warp request is fully coalesced.
override WORKGROUP_SIZE: u32 = 256;

struct Params {
  n: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * WORKGROUP_SIZE;
  for (var i = gid.x; i < params.n; i += stride) {
    c[i] = a[i] + b[i];
  }
}
