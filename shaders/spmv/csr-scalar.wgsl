// Sparse matrix–vector product y = A·x, CSR scalar (course seed 003): one invocation per row.
// Invocation `row` walks its own slice row_ptr[row] … row_ptr[row + 1] of the value and column
// arrays. Neighbouring lanes read words a whole row apart (no coalescing), and a warp runs as
// long as its longest row: lanes whose rows are short or empty sit idle meanwhile.
// Rows beyond the grid are picked up by a grid-stride loop, so any row count fits one dispatch.
override WORKGROUP_SIZE: u32 = 256;

struct Params {
  rows: u32,
}

@group(0) @binding(0) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(1) var<storage, read> col_index: array<u32>;
@group(0) @binding(2) var<storage, read> values: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;
@group(0) @binding(5) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * WORKGROUP_SIZE;
  for (var row = gid.x; row < params.rows; row += stride) {
    let end = row_ptr[row + 1u];
    var sum = 0.0;
    for (var j = row_ptr[row]; j < end; j++) {
      sum += values[j] * x[col_index[j]];
    }
    y[row] = sum;
  }
}
