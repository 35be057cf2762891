// Matrix multiply, the fastest variant here: a workgroup of 16 × 16 invocations owns a 128 × 128
// block of C and each invocation an 8 × 8 piece of it (64 accumulators, as 16 vec4s): two 4-row
// bands 64 rows apart times two 4-column bands 64 columns apart, so the vec4 reads of a warp
// from workgroup memory land on neighbouring words. Per step of BK = 8 along K, each invocation
// loads one vec4 of A and one of B from global memory: 16 words feed 64 multiply-adds per k.
// - The A tile is stored transposed (k-major) and swizzled: rows k = 4…7 keep vec4 column c at
//   c XOR 4 (bit 2 of the column flips with bit 2 of k). Plainly stored, the transposed stores of
//   lanes t and t + 1 (rows k and k + 4, 512 words apart) hit one bank; swizzled, they are 16 banks
//   apart. (Padding each row by 4 words would do the same but take 16 640 bytes, over the 16 KiB
//   of workgroup memory WebGPU promises; the swizzle costs no memory.)
// - The tiles are double-buffered: the next step's vec4s are loaded into registers before the
//   multiply-adds and stored into the other buffer after them, so one barrier per step suffices
//   (the buffer being written was last read before the previous barrier).
// Needs K and N to be multiples of 4 (whole vec4s); M is free. Out-of-range loads give zero.
// Element type: the driver rewrites the `alias T` line for i32 (line numbers unchanged).
alias T = f32;
const BM = 128u;
const BK = 8u;
const AS = 32u;          // vec4s per transposed A-tile row: 128 words
const A_BUF = 256u;      // BK × AS vec4s per buffer
const B_BUF = 256u;      // BK × 32 vec4s per buffer

struct Params {
  m: u32, // rows of A and C
  n: u32, // columns of B and C (a multiple of 4)
  k: u32, // columns of A, rows of B (a multiple of 4)
}

@group(0) @binding(0) var<storage, read> a: array<vec4<T>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<T>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<T>>;
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> tileA: array<vec4<T>, 512>; // 2 buffers × BK × AS: A transposed and swizzled
var<workgroup> tileB: array<vec4<T>, 512>; // 2 buffers × BK × 32 (16 KiB in all)

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let k4 = params.k / 4u;
  let n4 = params.n / 4u;
  // This invocation's share of each tile load: A row t / 2, words 4·(t % 2)…+3; B row t / 32, vec4 t % 32.
  let ar = wid.y * BM + t / 2u;
  let ah = t % 2u;
  let bkr = t / 32u;
  let bc4 = wid.x * 32u + t % 32u;
  let aRow = t / 2u;
  // Rows ah·4…ah·4 + 3 of the transposed tile: the column this invocation stores to, swizzled.
  let aCol = (aRow / 4u) ^ (ah * 4u);
  // Zero-initialised, like every WGSL function-scope variable.
  var acc: array<vec4<T>, 16>;
  // Step 0 into buffer 0.
  var va = vec4<T>(T(0));
  if (ar < params.m && ah * 4u < params.k) {
    va = a[ar * k4 + ah];
  }
  var vb = vec4<T>(T(0));
  if (bkr < params.k && bc4 < n4) {
    vb = b[bkr * n4 + bc4];
  }
  tileA[(ah * 4u) * AS + aCol][aRow % 4u] = va.x;
  tileA[(ah * 4u + 1u) * AS + aCol][aRow % 4u] = va.y;
  tileA[(ah * 4u + 2u) * AS + aCol][aRow % 4u] = va.z;
  tileA[(ah * 4u + 3u) * AS + aCol][aRow % 4u] = va.w;
  tileB[bkr * 32u + t % 32u] = vb;
  workgroupBarrier();
  let steps = (params.k + BK - 1u) / BK;
  for (var s = 0u; s < steps; s++) {
    let cur = s % 2u;
    let more = s + 1u < steps;
    if (more) {
      // Next step's vec4s into registers; they are stored after the multiply-adds.
      let k0 = (s + 1u) * BK;
      va = vec4<T>(T(0));
      if (ar < params.m && k0 + ah * 4u < params.k) {
        va = a[ar * k4 + k0 / 4u + ah];
      }
      vb = vec4<T>(T(0));
      if (k0 + bkr < params.k && bc4 < n4) {
        vb = b[(k0 + bkr) * n4 + bc4];
      }
    }
    for (var kk = 0u; kk < BK; kk++) {
      let arow = cur * A_BUF + kk * AS;
      let a0 = tileA[arow + (lid.y ^ (kk & 4u))];
      let a1 = tileA[arow + ((16u + lid.y) ^ (kk & 4u))];
      let brow = cur * B_BUF + kk * 32u;
      let b0 = tileB[brow + lid.x];
      let b1 = tileB[brow + 16u + lid.x];
      // Written out so every accumulator index is a constant and the 16 vec4s stay in registers.
      acc[0] += a0.x * b0;
      acc[1] += a0.x * b1;
      acc[2] += a0.y * b0;
      acc[3] += a0.y * b1;
      acc[4] += a0.z * b0;
      acc[5] += a0.z * b1;
      acc[6] += a0.w * b0;
      acc[7] += a0.w * b1;
      acc[8] += a1.x * b0;
      acc[9] += a1.x * b1;
      acc[10] += a1.y * b0;
      acc[11] += a1.y * b1;
      acc[12] += a1.z * b0;
      acc[13] += a1.z * b1;
      acc[14] += a1.w * b0;
      acc[15] += a1.w * b1;
    }
    if (more) {
      let nxt = 1u - cur;
      tileA[nxt * A_BUF + (ah * 4u) * AS + aCol][aRow % 4u] = va.x;
      tileA[nxt * A_BUF + (ah * 4u + 1u) * AS + aCol][aRow % 4u] = va.y;
      tileA[nxt * A_BUF + (ah * 4u + 2u) * AS + aCol][aRow % 4u] = va.z;
      tileA[nxt * A_BUF + (ah * 4u + 3u) * AS + aCol][aRow % 4u] = va.w;
      tileB[nxt * B_BUF + bkr * 32u + t % 32u] = vb;
    }
    workgroupBarrier(); // one barrier per step: the other buffer is full, this one free
  }
  let c0 = wid.x * 32u + lid.x;
  let row0 = wid.y * BM + lid.y * 4u;
  store_row(row0, c0, n4, acc[0], acc[1]);
  store_row(row0 + 1u, c0, n4, acc[2], acc[3]);
  store_row(row0 + 2u, c0, n4, acc[4], acc[5]);
  store_row(row0 + 3u, c0, n4, acc[6], acc[7]);
  store_row(row0 + 64u, c0, n4, acc[8], acc[9]);
  store_row(row0 + 65u, c0, n4, acc[10], acc[11]);
  store_row(row0 + 66u, c0, n4, acc[12], acc[13]);
  store_row(row0 + 67u, c0, n4, acc[14], acc[15]);
}

// Row `row` of C: vec4 `c0` (columns 4·c0…) and vec4 `c0 + 16` (64 columns on), where they exist.
fn store_row(row: u32, c0: u32, n4: u32, left: vec4<T>, right: vec4<T>) {
  if (row < params.m) {
    if (c0 < n4) {
      c[row * n4 + c0] = left;
    }
    if (c0 + 16u < n4) {
      c[row * n4 + c0 + 16u] = right;
    }
  }
}
