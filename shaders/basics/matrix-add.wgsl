// Matrix add, C = A + B, on a 2-D grid (the CUDA idiom row = blockIdx.y*blockDim.y + threadIdx.y,
// col = blockIdx.x*blockDim.x + threadIdx.x). Invocation (x, y) of the whole grid owns column x
// of row y; the matrices are stored row by row, so element (row, col) sits at row * cols + col.
// A 16 × 16 workgroup numbers its invocations x fastest: lanes 0–15 of a warp are one row of the
// tile and lanes 16–31 the next, so each warp touches two 64-byte runs of each matrix.
override TILE: u32 = 16;

struct Params {
  rows: u32,
  cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(TILE, TILE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  // A grid takes at most 65 535 workgroups a side: a matrix wider or taller than that many tiles
  // gets a capped grid, and each invocation strides on by the whole grid (TILE × groups) in that
  // direction, a 2-D grid-stride loop. When the grid covers the matrix, each loop runs once.
  // The grid is rounded up to whole tiles: invocations past the edge do nothing.
  for (var row = gid.y; row < params.rows; row += TILE * groups.y) {
    for (var col = gid.x; col < params.cols; col += TILE * groups.x) {
      let i = row * params.cols + col;
      c[i] = a[i] + b[i];
    }
  }
}
