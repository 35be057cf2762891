// Matrix multiply, 2-D register tiling with vec4: a workgroup of 16 × 16 invocations owns a
// 64 × 64 block of C, and each invocation a 4 × 4 square of it, kept as four vec4 rows in
// registers. Per step of BK = 16 along K every invocation loads one vec4 of A and one of B from
// global memory. The A tile is stored transposed (k-major), so an invocation reads its four
// rows' values for one k as four neighbouring words, and its four columns of B as one vec4: 8
// words feed 16 multiply-adds. The transposed store writes words 64 apart, which share banks.
// Needs K and N to be multiples of 4 (whole vec4s); M is free. Out-of-range loads give zero.
// Element type: the driver rewrites the `alias T` line for i32 (line numbers unchanged).
alias T = f32;
const BM = 64u;
const BN = 64u;
const BK = 16u;

struct Params {
  m: u32, // rows of A and C
  n: u32, // columns of B and C (a multiple of 4)
  k: u32, // columns of A, rows of B (a multiple of 4)
}

@group(0) @binding(0) var<storage, read> a: array<vec4<T>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<T>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<T>>;
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> tileA: array<T, 1024>;       // BK × BM: A transposed, k-major
var<workgroup> tileB: array<vec4<T>, 256>;  // BK × BN / 4

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let blockRow = wid.y * BM;
  let k4 = params.k / 4u;
  let n4 = params.n / 4u;
  var acc: array<vec4<T>, 4>;
  for (var i = 0u; i < 4u; i++) {
    acc[i] = vec4<T>(T(0));
  }
  for (var k0 = 0u; k0 < params.k; k0 += BK) {
    // A: row t / 4 of the block, words 4·(t % 4)…+3 of this step.
    let ar = blockRow + t / 4u;
    let ak = k0 + (t % 4u) * 4u;
    var va = vec4<T>(T(0));
    if (ar < params.m && ak < params.k) {
      va = a[ar * k4 + ak / 4u];
    }
    let at = (t % 4u) * 4u * BM + t / 4u;
    tileA[at] = va.x;
    tileA[at + BM] = va.y;
    tileA[at + 2u * BM] = va.z;
    tileA[at + 3u * BM] = va.w;
    // B: row t / 16 of the step, vec4 t % 16 of the block.
    let bk = k0 + t / 16u;
    let bc4 = wid.x * (BN / 4u) + t % 16u;
    var vb = vec4<T>(T(0));
    if (bk < params.k && bc4 < n4) {
      vb = b[bk * n4 + bc4];
    }
    tileB[t] = vb;
    workgroupBarrier(); // both tiles are complete
    for (var kk = 0u; kk < BK; kk++) {
      let bv = tileB[kk * (BN / 4u) + lid.x];
      let base = kk * BM + lid.y * 4u;
      acc[0] += tileA[base] * bv;
      acc[1] += tileA[base + 1u] * bv;
      acc[2] += tileA[base + 2u] * bv;
      acc[3] += tileA[base + 3u] * bv;
    }
    workgroupBarrier(); // all reads done before the next step overwrites the tiles
  }
  let oc4 = wid.x * (BN / 4u) + lid.x;
  for (var i = 0u; i < 4u; i++) {
    let orow = blockRow + lid.y * 4u + i;
    if (orow < params.m && oc4 < n4) {
      c[orow * n4 + oc4] = acc[i];
    }
  }
}
