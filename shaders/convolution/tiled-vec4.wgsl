// Tiled 2-D convolution in which every invocation computes: a 16 × 16 workgroup owns an output
// tile 64 columns wide and 32 rows tall; each invocation computes a 4 × 2 block of outputs, two
// rows of four neighbours, each row stored as one vec4. The input tile, with a halo of 4 columns
// (one vec4; masks up to 9 × 9) and r rows, is loaded as vec4s in a loop over all 256
// invocations, so no invocation idles in either phase. Each invocation then reads three vec4s of
// each of the m + 1 tile rows its two output rows need and slides the mask over them: 3·(m + 1)
// vec4 reads of workgroup memory for 8 outputs (a 1 × 1 tile would need m² scalar reads each).
// Rows are `pitch` words long, a multiple of 4, so vec4 loads stay aligned.
override MASK_WIDTH: u32 = 5;
const OUT_W: u32 = 64;  // output columns per workgroup (16 invocations × 4)
const OUT_H: u32 = 32;  // output rows per workgroup (16 invocations × 2)
const IN_W4: u32 = 18;  // vec4s per tile row: 4 halo columns, 64, 4 halo columns
override IN_H: u32 = 36;         // OUT_H + MASK_WIDTH − 1
override TILE_VEC4S: u32 = 648;  // IN_W4 × IN_H

struct Params {
  width: u32,
  height: u32,
  pitch: u32,      // words per row in the buffers: width rounded up to a multiple of 4
  mask_width: u32, // = MASK_WIDTH
}

struct Mask {
  values: array<vec4<f32>, 13>,
}

@group(0) @binding(0) var<storage, read> input: array<vec4<f32>>;
@group(0) @binding(1) var<uniform> mask: Mask;
@group(0) @binding(2) var<storage, read_write> output: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> tile: array<vec4<f32>, TILE_VEC4S>;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_index) t: u32, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let r = MASK_WIDTH / 2u;
  let row_vec4s = params.pitch / 4u;
  // Tile vec4 (ty, c) holds image row wid.y·16 − r + ty, vec4 column wid.x·16 − 1 + c.
  for (var v = t; v < TILE_VEC4S; v += 256u) {
    let ty = v / IN_W4;
    let c = v % IN_W4;
    let y = i32(wid.y * OUT_H + ty) - i32(r);
    let x4 = i32(wid.x * (OUT_W / 4u) + c) - 1;
    if (y >= 0 && y < i32(params.height) && x4 >= 0 && x4 < i32(row_vec4s)) {
      tile[v] = input[u32(y) * row_vec4s + u32(x4)];
    } else {
      tile[v] = vec4<f32>(0.0); // ghost cells (and the zero padding past the last column)
    }
  }
  workgroupBarrier();

  let tx = lid.x;
  let ty = lid.y;
  var top = vec4<f32>(0.0);    // output row 2·ty
  var bottom = vec4<f32>(0.0); // output row 2·ty + 1
  // Tile row 2·ty + i feeds mask row i of the top output and mask row i − 1 of the bottom one.
  for (var i = 0u; i <= MASK_WIDTH; i++) {
    // Columns 4·tx … 4·tx + 11 of the tile row: the outputs' window starts at 4·tx + 4 − r.
    let base = (2u * ty + i) * IN_W4 + tx;
    let a = tile[base];
    let b = tile[base + 1u];
    let c = tile[base + 2u];
    let w = array<f32, 12>(a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w);
    for (var k = 0u; k < MASK_WIDTH; k++) {
      let s = 4u - r + k;
      let window = vec4<f32>(w[s], w[s + 1u], w[s + 2u], w[s + 3u]);
      if (i < MASK_WIDTH) {
        let e = i * MASK_WIDTH + k;
        top += mask.values[e / 4u][e % 4u] * window;
      }
      if (i > 0u) {
        let e = (i - 1u) * MASK_WIDTH + k;
        bottom += mask.values[e / 4u][e % 4u] * window;
      }
    }
  }
  let row = wid.y * OUT_H + 2u * ty;
  let col4 = wid.x * (OUT_W / 4u) + tx;
  if (col4 < row_vec4s) {
    if (row < params.height) {
      output[row * row_vec4s + col4] = top;
    }
    if (row + 1u < params.height) {
      output[(row + 1u) * row_vec4s + col4] = bottom;
    }
  }
}
