// Tiled 2-D convolution with a halo (course seed 003): a workgroup of IN_TILE × IN_TILE
// invocations loads an input tile, its output tile plus the halo of r = (MASK_WIDTH − 1) / 2 cells
// on every side, into workgroup memory: one cell per invocation, 0 for ghost cells outside the
// image. After the barrier only the first OUT_TILE × OUT_TILE invocations compute an output
// (IN_TILE = OUT_TILE + MASK_WIDTH − 1); the others only loaded. For a 5 × 5 mask and a 16 × 16
// workgroup that is 144 computing invocations and 112 idle ones.
// (The seed's kernel also let the idle invocations store their zero into the next tile's outputs
// and read the mask with the image width as its row length; here only computing invocations store
// and the mask row is MASK_WIDTH long.)
override OUT_TILE: u32 = 12;
override MASK_WIDTH: u32 = 5;
override IN_TILE: u32 = 16;
override TILE_WORDS: u32 = 256; // IN_TILE²

struct Params {
  width: u32,
  height: u32,
  pitch: u32,      // words per row in the buffers (= width here)
  mask_width: u32, // = MASK_WIDTH
}

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read> mask: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> tile: array<f32, TILE_WORDS>;

@compute @workgroup_size(IN_TILE, IN_TILE)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let tx = lid.x;
  let ty = lid.y;
  // Output pixel of this invocation (meaningful when it computes), and the input cell it loads.
  let row_o = wid.y * OUT_TILE + ty;
  let col_o = wid.x * OUT_TILE + tx;
  let row_i = i32(row_o) - i32(MASK_WIDTH / 2u);
  let col_i = i32(col_o) - i32(MASK_WIDTH / 2u);
  if (row_i >= 0 && row_i < i32(params.height) && col_i >= 0 && col_i < i32(params.width)) {
    tile[ty * IN_TILE + tx] = input[u32(row_i) * params.pitch + u32(col_i)];
  } else {
    tile[ty * IN_TILE + tx] = 0.0; // a ghost cell
  }
  workgroupBarrier();

  if (tx < OUT_TILE && ty < OUT_TILE) {
    var value = 0.0;
    for (var j = 0u; j < MASK_WIDTH; j++) {
      for (var k = 0u; k < MASK_WIDTH; k++) {
        value += mask[j * MASK_WIDTH + k] * tile[(ty + j) * IN_TILE + tx + k];
      }
    }
    if (row_o < params.height && col_o < params.width) {
      output[row_o * params.pitch + col_o] = value;
    }
  }
}
