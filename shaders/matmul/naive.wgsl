// Matrix multiply C = A × B, naive (course seed 003): one invocation per element of C, reading a
// whole row of A and a whole column of B from global memory. A is M × K, B is K × N and C is
// M × N, all stored row by row. Here the invocation's x runs down the rows of C, so the 32 lanes
// of a warp (x fastest) take 32 different rows: their reads of A are K words apart and their
// writes of C N words apart, one memory sector per lane.
// Element type: the driver rewrites the `alias T` line for i32 (line numbers unchanged).
alias T = f32;
override WG: u32 = 16;

struct Params {
  m: u32, // rows of A and C
  n: u32, // columns of B and C
  k: u32, // columns of A, rows of B
}

@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> c: array<T>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(WG, WG)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let row = gid.x;
  let col = gid.y;
  // The grid is rounded up to whole workgroups: invocations past the edge do nothing.
  if (row < params.m && col < params.n) {
    var acc = T(0);
    for (var i = 0u; i < params.k; i++) {
      acc += a[row * params.k + i] * b[i * params.n + col];
    }
    c[row * params.n + col] = acc;
  }
}
