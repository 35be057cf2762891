// EXPERIMENT (issue 29, not shipped): measured as "shipped tile-16x8" in device call 3 (5.08 ms at 4096³ on the H100):
// the accumulators as private variables and the k lines in a function called 8 times. The run's
// `tile-16x8-k-loop` (4.77 ms) is this file with the 8 calls replaced by
// `for (var kk = 0u; kk < BK; kk++) { multiply(kk, lid.x, lid.y); }`.
// Matrix multiply, 128 outputs per invocation: a workgroup of 16 × 16 invocations owns a 256 × 128
// block of C, and each invocation a 16 × 8 piece of it (32 vec4 accumulators): four 4-row bands
// 64 rows apart times two vec4 columns 64 columns apart, so a warp's reads from the tiles are a
// few neighbouring vec4s. Per k, 4 vec4s of the A tile and 2 of the B tile (24 words) feed 128
// multiply-adds, against 16 words for 64 in the 8 × 8 kernel: fewer workgroup-memory requests
// per multiply-add, which is what bounds these kernels on an H100.
// - The A tile is stored transposed (k-major): invocation t loads row t of the block (two vec4s,
//   k0…k0 + 7) and stores its 8 words down column t, so a warp's stores land on 32 neighbouring
//   words (no bank conflict, no swizzle). A vec4 of the tile holds 4 rows of A at one k.
// - One buffer of each tile (12 KiB); the next step's vec4s are loaded into registers before the
//   multiply-adds and stored after them, between two barriers.
// - The 32 accumulators are 32 plain variables, and `multiply` is called once per k with k a
//   constant: on the H100 the same kernel with `var acc: array<vec4<T>, 32>` (every index a
//   constant) ran 33 % slower, and with the k loop kept as a loop slower still (docs/benchmarks.md).
// Needs K and N to be multiples of 4 (whole vec4s); M is free. Out-of-range loads give zero.
// Element type: the driver rewrites the `alias T` line for i32 (line numbers unchanged).
alias T = f32;
const BM = 256u;         // rows of C per workgroup (one row of A per invocation)
const BK = 8u;           // depth of one step along K
const AR = 64u;          // vec4s per row of the transposed A tile: BM words
const BR = 32u;          // vec4s per row of the B tile: 128 columns

struct Params {
  m: u32, // rows of A and C
  n: u32, // columns of B and C (a multiple of 4)
  k: u32, // columns of A, rows of B (a multiple of 4)
}

@group(0) @binding(0) var<storage, read> a: array<vec4<T>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<T>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<T>>;
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> tileA: array<vec4<T>, 512>; // BK × AR: A transposed
var<workgroup> tileB: array<vec4<T>, 256>; // BK × BR

// accR_H: row R of the 16 (row 64·(R / 4) + 4·lid.y + R % 4 of the block), vec4 column lid.x + 16·H.
// Private: one set per invocation, zero at its start.
var<private> acc0_0: vec4<T>;
var<private> acc0_1: vec4<T>;
var<private> acc1_0: vec4<T>;
var<private> acc1_1: vec4<T>;
var<private> acc2_0: vec4<T>;
var<private> acc2_1: vec4<T>;
var<private> acc3_0: vec4<T>;
var<private> acc3_1: vec4<T>;
var<private> acc4_0: vec4<T>;
var<private> acc4_1: vec4<T>;
var<private> acc5_0: vec4<T>;
var<private> acc5_1: vec4<T>;
var<private> acc6_0: vec4<T>;
var<private> acc6_1: vec4<T>;
var<private> acc7_0: vec4<T>;
var<private> acc7_1: vec4<T>;
var<private> acc8_0: vec4<T>;
var<private> acc8_1: vec4<T>;
var<private> acc9_0: vec4<T>;
var<private> acc9_1: vec4<T>;
var<private> acc10_0: vec4<T>;
var<private> acc10_1: vec4<T>;
var<private> acc11_0: vec4<T>;
var<private> acc11_1: vec4<T>;
var<private> acc12_0: vec4<T>;
var<private> acc12_1: vec4<T>;
var<private> acc13_0: vec4<T>;
var<private> acc13_1: vec4<T>;
var<private> acc14_0: vec4<T>;
var<private> acc14_1: vec4<T>;
var<private> acc15_0: vec4<T>;
var<private> acc15_1: vec4<T>;

// Words k…k + 3 of row `row` of A, or zeros outside it.
fn loadA(row: u32, k: u32) -> vec4<T> {
  if (row < params.m && k < params.k) {
    return a[row * (params.k / 4u) + k / 4u];
  }
  return vec4<T>(T(0));
}

// Vec4 `c4` of row `k` of B, or zeros outside it.
fn loadB(k: u32, c4: u32) -> vec4<T> {
  if (k < params.k && c4 < params.n / 4u) {
    return b[k * (params.n / 4u) + c4];
  }
  return vec4<T>(T(0));
}

// Invocation t's share of a step: row t of A (words 0…7 of the step) down column t of the
// transposed tile, and vec4 t % 32 of row t / 32 of the B tile.
fn storeTiles(t: u32, lo: vec4<T>, hi: vec4<T>, vb: vec4<T>) {
  let col = t / 4u;
  let lane = t % 4u;
  tileA[col][lane] = lo.x;
  tileA[AR + col][lane] = lo.y;
  tileA[2u * AR + col][lane] = lo.z;
  tileA[3u * AR + col][lane] = lo.w;
  tileA[4u * AR + col][lane] = hi.x;
  tileA[5u * AR + col][lane] = hi.y;
  tileA[6u * AR + col][lane] = hi.z;
  tileA[7u * AR + col][lane] = hi.w;
  tileB[t] = vb;
}

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let row = wid.y * BM + t;                 // the row of A this invocation loads
  let bk = t / BR;                          // the row of the B tile it loads
  let c4 = wid.x * BR + t % BR;             // and the vec4 column
  storeTiles(t, loadA(row, 0u), loadA(row, 4u), loadB(bk, c4));
  workgroupBarrier();
  let steps = (params.k + BK - 1u) / BK;
  for (var s = 0u; s < steps; s++) {
    // The next step's vec4s into registers; they are stored after the multiply-adds.
    let k0 = (s + 1u) * BK;
    let more = s + 1u < steps;
    var lo = vec4<T>(T(0));
    var hi = vec4<T>(T(0));
    var vb = vec4<T>(T(0));
    if (more) {
      lo = loadA(row, k0);
      hi = loadA(row, k0 + 4u);
      vb = loadB(k0 + bk, c4);
    }
    multiply(0u, lid.x, lid.y);
    multiply(1u, lid.x, lid.y);
    multiply(2u, lid.x, lid.y);
    multiply(3u, lid.x, lid.y);
    multiply(4u, lid.x, lid.y);
    multiply(5u, lid.x, lid.y);
    multiply(6u, lid.x, lid.y);
    multiply(7u, lid.x, lid.y);
    workgroupBarrier(); // every read of the tiles is done
    if (more) {
      storeTiles(t, lo, hi, vb);
    }
    workgroupBarrier(); // the next step's tiles are complete
  }
  let c0 = wid.x * BR + lid.x;
  let r0 = wid.y * BM + lid.y * 4u;
  store_row(r0 + 0u, c0, acc0_0, acc0_1);
  store_row(r0 + 1u, c0, acc1_0, acc1_1);
  store_row(r0 + 2u, c0, acc2_0, acc2_1);
  store_row(r0 + 3u, c0, acc3_0, acc3_1);
  store_row(r0 + 64u, c0, acc4_0, acc4_1);
  store_row(r0 + 65u, c0, acc5_0, acc5_1);
  store_row(r0 + 66u, c0, acc6_0, acc6_1);
  store_row(r0 + 67u, c0, acc7_0, acc7_1);
  store_row(r0 + 128u, c0, acc8_0, acc8_1);
  store_row(r0 + 129u, c0, acc9_0, acc9_1);
  store_row(r0 + 130u, c0, acc10_0, acc10_1);
  store_row(r0 + 131u, c0, acc11_0, acc11_1);
  store_row(r0 + 192u, c0, acc12_0, acc12_1);
  store_row(r0 + 193u, c0, acc13_0, acc13_1);
  store_row(r0 + 194u, c0, acc14_0, acc14_1);
  store_row(r0 + 195u, c0, acc15_0, acc15_1);
}

// Row `r` of C: vec4 `c0` (columns 4·c0…) and vec4 `c0 + 16` (64 columns on), where they exist.
fn store_row(r: u32, c0: u32, left: vec4<T>, right: vec4<T>) {
  let n4 = params.n / 4u;
  if (r < params.m) {
    if (c0 < n4) {
      c[r * n4 + c0] = left;
    }
    if (c0 + 16u < n4) {
      c[r * n4 + c0 + 16u] = right;
    }
  }
}

// Row kk of both tiles into the 128 accumulators: rows 4·ty… of each 64-row band of A, and
// columns 4·tx… of each 64-column half of B.
fn multiply(kk: u32, tx: u32, ty: u32) {
  let a0 = tileA[kk * AR + ty];
  let a1 = tileA[kk * AR + 16u + ty];
  let a2 = tileA[kk * AR + 32u + ty];
  let a3 = tileA[kk * AR + 48u + ty];
  let b0 = tileB[kk * BR + tx];
  let b1 = tileB[kk * BR + 16u + tx];
  acc0_0 += a0.x * b0;
  acc0_1 += a0.x * b1;
  acc1_0 += a0.y * b0;
  acc1_1 += a0.y * b1;
  acc2_0 += a0.z * b0;
  acc2_1 += a0.z * b1;
  acc3_0 += a0.w * b0;
  acc3_1 += a0.w * b1;
  acc4_0 += a1.x * b0;
  acc4_1 += a1.x * b1;
  acc5_0 += a1.y * b0;
  acc5_1 += a1.y * b1;
  acc6_0 += a1.z * b0;
  acc6_1 += a1.z * b1;
  acc7_0 += a1.w * b0;
  acc7_1 += a1.w * b1;
  acc8_0 += a2.x * b0;
  acc8_1 += a2.x * b1;
  acc9_0 += a2.y * b0;
  acc9_1 += a2.y * b1;
  acc10_0 += a2.z * b0;
  acc10_1 += a2.z * b1;
  acc11_0 += a2.w * b0;
  acc11_1 += a2.w * b1;
  acc12_0 += a3.x * b0;
  acc12_1 += a3.x * b1;
  acc13_0 += a3.y * b0;
  acc13_1 += a3.y * b1;
  acc14_0 += a3.z * b0;
  acc14_1 += a3.z * b1;
  acc15_0 += a3.w * b0;
  acc15_1 += a3.w * b1;
}
