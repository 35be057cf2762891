// Matrix multiply, global reads coalesced: the same loop as the naive kernel, but the invocation's
// x now runs along the columns of C. The 32 lanes of a warp take neighbouring columns of one row
// (16 of one row and 16 of the next with 16 × 16 workgroups): every lane reads the same word of A
// (one broadcast), consecutive words of B, and writes consecutive words of C.
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
  let col = gid.x;
  let row = gid.y;
  if (row < params.m && col < params.n) {
    var acc = T(0);
    for (var i = 0u; i < params.k; i++) {
      acc += a[row * params.k + i] * b[i * params.n + col];
    }
    c[row * params.n + col] = acc;
  }
}
