// y = A·x, JDS as the seed stores it: the rows sorted by length, longest first, kept in CSR
// arrays over that order, with perm[i] naming the original row stored i-th. One invocation per
// stored row, as in CSR scalar, but the rows of a warp now have similar lengths, so lanes finish
// together instead of idling behind one long row; empty rows gather at the end. Each result goes
// back to its own row through perm.
override WORKGROUP_SIZE: u32 = 256;

struct Params {
  rows: u32,
}

@group(0) @binding(0) var<storage, read> perm: array<u32>;
@group(0) @binding(1) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(2) var<storage, read> col_index: array<u32>;
@group(0) @binding(3) var<storage, read> values: array<f32>;
@group(0) @binding(4) var<storage, read> x: array<f32>;
@group(0) @binding(5) var<storage, read_write> y: array<f32>;
@group(0) @binding(6) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * WORKGROUP_SIZE;
  for (var i = gid.x; i < params.rows; i += stride) {
    let end = row_ptr[i + 1u];
    var sum = 0.0;
    for (var j = row_ptr[i]; j < end; j++) {
      sum += values[j] * x[col_index[j]];
    }
    y[perm[i]] = sum;
  }
}
