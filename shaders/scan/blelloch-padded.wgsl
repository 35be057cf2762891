alias T = u32;
// Blelloch's work-efficient scan (see blelloch.wgsl for the up-sweep, root clear and down-sweep)
// with every workgroup-memory index padded so that no warp request has a bank conflict. Line 1
// names the element type: the lab swaps `u32` for `f32` or `i32` in place, keeping line numbers.
//
// Workgroup memory has 32 banks of 4 bytes: word w lives in bank w % 32. Unpadded, the lanes of a
// warp at stride s touch words 2s apart, so lanes k and k + 16/s share a bank. Padding inserts one
// unused word after every 32: word index i is stored at pad(i) = i + (i >> 5).
//   s = 1: lane k touches 2k + 1. k < 16 stays at 2k + 1 (odd banks 1…31); k ≥ 16 moves to
//          2k + 2 (even banks 2…30, then 0): 32 different banks.
//   s = 2: lane k = 8q + r touches 32q + 4r + 3, stored at 32q + 4r + 3 + q: bank 4r + 3 + q,
//          distinct for r < 8, q < 4. Larger strides work the same way until fewer lanes are
//          left than banks.
// Loads and stores at consecutive indices stay consecutive (the +1 applies to whole groups of
// 32), so they are conflict-free too. Checked for tiles of up to 1 024 elements
// (WORKGROUP_SIZE ≤ 512); at 2 048, stride 32 would put lanes k and k + 16 on bank 2k: 2-way.
// Cost: 2W/32 extra words of workgroup memory.

override WORKGROUP_SIZE: u32 = 256;
// false: output[i] = input[0] + … + input[i] (inclusive); true: input[0] + … + input[i − 1].
override EXCLUSIVE: bool = false;

struct Params {
  n: u32,          // elements in `input`
  tile_count: u32, // workgroups with work: ceil(n / (2 · WORKGROUP_SIZE))
}

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read_write> tile_sums: array<T>;
@group(0) @binding(3) var<uniform> params: Params;

// 2W words plus one pad word per 32: pad(2W − 1) = 2W − 1 + (2W − 1) / 32 < 2W + 2W / 32.
var<workgroup> temp: array<T, 2 * WORKGROUP_SIZE + (2 * WORKGROUP_SIZE) / 32>;

fn pad(i: u32) -> u32 {
  return i + (i >> 5u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let tile = linear_workgroup_index(wid, nwg);
  if (tile >= params.tile_count) {
    return; // the last row of a folded grid may be partly empty
  }
  let size = 2u * WORKGROUP_SIZE;
  let base = tile * size;
  let a = lid;
  let b = lid + WORKGROUP_SIZE;
  var va = T(0);
  var vb = T(0);
  if (base + a < params.n) {
    va = input[base + a];
  }
  if (base + b < params.n) {
    vb = input[base + b];
  }
  temp[pad(a)] = va;
  temp[pad(b)] = vb;

  // Up-sweep.
  for (var stride = 1u; stride < size; stride = stride * 2u) {
    workgroupBarrier();
    let index = 2u * stride * (lid + 1u) - 1u;
    if (index < size) {
      temp[pad(index)] = temp[pad(index - stride)] + temp[pad(index)];
    }
  }
  workgroupBarrier();

  // Clear the root, keeping the tile total (lane 0's register).
  var total = T(0);
  if (lid == 0u) {
    total = temp[pad(size - 1u)];
    tile_sums[tile] = total;
    temp[pad(size - 1u)] = T(0);
  }

  // Down-sweep.
  for (var stride = WORKGROUP_SIZE; stride > 0u; stride = stride / 2u) {
    workgroupBarrier();
    let index = 2u * stride * (lid + 1u) - 1u;
    if (index < size) {
      let left = temp[pad(index - stride)];
      temp[pad(index - stride)] = temp[pad(index)];
      temp[pad(index)] = left + temp[pad(index)];
    }
  }
  workgroupBarrier();

  if (EXCLUSIVE) {
    if (base + a < params.n) {
      output[base + a] = temp[pad(a)];
    }
    if (base + b < params.n) {
      output[base + b] = temp[pad(b)];
    }
  } else {
    // Element p's inclusive sum is element p + 1's exclusive sum: write one place to the left
    // rather than read pad(p + 1), which would put lanes 0 and 31 of a warp on one bank.
    if (a > 0u && base + a - 1u < params.n) {
      output[base + a - 1u] = temp[pad(a)];
    }
    if (base + b - 1u < params.n) {
      output[base + b - 1u] = temp[pad(b)];
    }
    if (lid == 0u && base + size - 1u < params.n) {
      output[base + size - 1u] = total;
    }
  }
}
