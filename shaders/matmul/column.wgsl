// Matrix multiply, 1-D register tiling: a workgroup of 256 invocations owns a 64 × 64 block of C
// and steps along K 16 at a time, copying a 64 × 16 tile of A and a 16 × 64 tile of B into
// workgroup memory (four words of each per invocation). Each invocation computes a column of
// TM = 16 outputs: it reads one word of the B tile into a register and uses it 16 times against 16
// words of the A tile, so a workgroup-memory load feeds more than one multiply-add. Loads past the
// edges put zero in the tiles; stores past the edges are skipped.
// Element type: the driver rewrites the `alias T` line for i32 (line numbers unchanged).
alias T = f32;
const BM = 64u;  // rows of the C block
const BN = 64u;  // columns of the C block
const BK = 16u;  // depth of one tile step
const TM = 16u;  // outputs per invocation, down one column

struct Params {
  m: u32, // rows of A and C
  n: u32, // columns of B and C
  k: u32, // columns of A, rows of B
}

@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> c: array<T>;
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> tileA: array<T, 1024>; // BM × BK, row by row
var<workgroup> tileB: array<T, 1024>; // BK × BN, row by row

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let col = t % BN;       // the column of the block this invocation computes
  let rowGroup = t / BN;  // which 16 rows of it (0…3)
  let blockRow = wid.y * BM;
  let blockCol = wid.x * BN;
  var acc: array<T, 16>;
  for (var i = 0u; i < TM; i++) {
    acc[i] = T(0);
  }
  for (var k0 = 0u; k0 < params.k; k0 += BK) {
    for (var j = 0u; j < 4u; j++) {
      let e = t + j * 256u;
      let ar = blockRow + e / BK;
      let ak = k0 + e % BK;
      var va = T(0);
      if (ar < params.m && ak < params.k) {
        va = a[ar * params.k + ak];
      }
      tileA[e] = va;
      let bk = k0 + e / BN;
      let bc = blockCol + e % BN;
      var vb = T(0);
      if (bk < params.k && bc < params.n) {
        vb = b[bk * params.n + bc];
      }
      tileB[e] = vb;
    }
    workgroupBarrier(); // both tiles are complete
    for (var kk = 0u; kk < BK; kk++) {
      let bv = tileB[kk * BN + col];
      for (var i = 0u; i < TM; i++) {
        acc[i] += tileA[(rowGroup * TM + i) * BK + kk] * bv;
      }
    }
    workgroupBarrier(); // all reads done before the next step overwrites the tiles
  }
  let outCol = blockCol + col;
  for (var i = 0u; i < TM; i++) {
    let outRow = blockRow + rowGroup * TM + i;
    if (outRow < params.m && outCol < params.n) {
      c[outRow * params.n + outCol] = acc[i];
    }
  }
}
