// 2-D convolution with the mask in a uniform buffer: WGSL's counterpart of CUDA's constant memory
// (`__constant__`, or a `const __restrict__` pointer the compiler may cache). Every lane of a warp
// reads the same mask element at the same time, the case such a cache broadcasts. The image reads
// are those of the basic kernel.
override TILE: u32 = 16;

struct Params {
  width: u32,
  height: u32,
  pitch: u32,      // words per row in the buffers (= width here)
  mask_width: u32, // m: 3, 5 or 7
}

// Up to 7 × 7 = 49 values, four to a vec4 (uniform arrays step 16 bytes).
struct Mask {
  values: array<vec4<f32>, 13>,
}

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<uniform> mask: Mask;
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
        let e = j * m + k;
        value += mask.values[e / 4u][e % 4u] * input[u32(y) * params.pitch + u32(x)];
      }
    }
  }
  output[row * params.pitch + col] = value;
}
