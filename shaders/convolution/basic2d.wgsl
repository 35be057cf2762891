// 2-D convolution, basic (course seed 003): one invocation per output pixel in 16 × 16
// workgroups. Output (row, col) sums mask[j][k] · input[row − r + j][col − r + k] over the m × m
// mask, r = (m − 1) / 2, skipping ghost cells outside the image. Every output reads m² input
// values from global memory, and its neighbours read almost the same ones again.
override TILE: u32 = 16;

struct Params {
  width: u32,
  height: u32,
  pitch: u32,      // words per row in the buffers (= width here)
  mask_width: u32, // m: 3, 5 or 7
}

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read> mask: array<f32>; // m × m, row-major
@group(0) @binding(2) var<storage, read_write> output: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(TILE, TILE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let col = gid.x;
  let row = gid.y;
  if (col >= params.width || row >= params.height) {
    return;
  }
  let m = params.mask_width;
  let start_col = i32(col) - i32(m / 2u);
  let start_row = i32(row) - i32(m / 2u);
  var value = 0.0;
  for (var j = 0u; j < m; j++) {
    let y = start_row + i32(j);
    for (var k = 0u; k < m; k++) {
      let x = start_col + i32(k);
      if (y >= 0 && y < i32(params.height) && x >= 0 && x < i32(params.width)) {
        value += mask[j * m + k] * input[u32(y) * params.pitch + u32(x)];
      }
    }
  }
  output[row * params.pitch + col] = value;
}
