// y = A·x, ELL (course seed 003): every row padded to the longest row's WIDTH slots and stored
// column-major, slot i of row r at i·rows + r. One invocation per row, as in CSR scalar, but all
// lanes loop WIDTH times (no divergence), and in every iteration neighbouring lanes read
// neighbouring words of the value and column arrays: one coalesced request per array. Padding
// slots hold column 0 and value 0, so they add 0 — and still cost their loads.
override WORKGROUP_SIZE: u32 = 256;

struct Params {
  rows: u32,
  width: u32, // slots per row: the longest row
}

@group(0) @binding(0) var<storage, read> col_index: array<u32>;
@group(0) @binding(1) var<storage, read> values: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;
@group(0) @binding(4) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * WORKGROUP_SIZE;
  for (var row = gid.x; row < params.rows; row += stride) {
    var sum = 0.0;
    for (var i = 0u; i < params.width; i++) {
      let k = i * params.rows + row;
      sum += values[k] * x[col_index[k]];
    }
    y[row] = sum;
  }
}
