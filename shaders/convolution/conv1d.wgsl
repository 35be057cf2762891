// 1-D convolution with ghost cells (course seed 003): the image is read as one long signal of
// n = width × height values. Output i is the sum of mask[k] · input[i − r + k] for k = 0 … m − 1,
// r = (m − 1) / 2; where i − r + k falls before 0 or past the end, the missing "ghost" value counts
// as 0, so the invocation simply skips it (and its lanes sit out that multiply-add).
override WORKGROUP_SIZE: u32 = 256;

struct Params {
  width: u32,
  height: u32,
  pitch: u32,      // words per row in the buffers (= width here)
  mask_width: u32, // m: 3, 5 or 7
}

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read> mask: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let n = params.width * params.height;
  let i = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (i >= n) {
    return;
  }
  let start = i32(i) - i32(params.mask_width / 2u);
  var value = 0.0;
  for (var k = 0u; k < params.mask_width; k++) {
    let j = start + i32(k);
    if (j >= 0 && j < i32(n)) {
      value += mask[k] * input[j];
    }
  }
  output[i] = value;
}
