alias T = u32;
// Blelloch's work-efficient scan of one tile of 2·WORKGROUP_SIZE elements in workgroup memory, two
// elements per invocation. Line 1 names the element type: the lab swaps `u32` for `f32` or `i32`
// in place, so every line number stays the one in this file.
//
// Up-sweep: a reduction tree built in place. At stride s the invocation `lid` owns the node
// index = 2s·(lid + 1) − 1 and adds its left child, index − s. Strides 1, 2, …, W give
// 2W/2 + 2W/4 + … + 1 = 2W − 1 additions for a tile of 2W.
// Clear the root: the last slot holds the tile total; keep it, then write the identity there.
// Down-sweep: from stride W down to 1, each node hands its value to its left child and becomes
// parent + the left child's old value: another 2W − 1 additions. The tile then holds the
// exclusive scan: 2(n − 1) additions in all for n = 2W, against n·log2 n − (n − 1) for
// Hillis–Steele.
//
// Bank conflicts: at stride s the lanes of a warp touch words 2s apart, so with 32 banks of
// 4 bytes lanes k and k + 16/s land on the same bank: 2-way at s = 1, 4-way at s = 2, up to
// 32-way. blelloch-padded.wgsl removes them.
//
// Arrays of any length: each workgroup writes its tile total to `tile_sums`; the lab scans those
// and adds them back (shaders/scan/add-tile-sums.wgsl).

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

var<workgroup> temp: array<T, 2 * WORKGROUP_SIZE>;

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
  // Elements lid and lid + W: a warp reads 32 consecutive words each time (coalesced).
  let a = lid;
  let b = lid + WORKGROUP_SIZE;
  var va = T(0); // past the end, pad with the identity
  var vb = T(0);
  if (base + a < params.n) {
    va = input[base + a];
  }
  if (base + b < params.n) {
    vb = input[base + b];
  }
  temp[a] = va;
  temp[b] = vb;

  // Up-sweep.
  for (var stride = 1u; stride < size; stride = stride * 2u) {
    workgroupBarrier();
    let index = 2u * stride * (lid + 1u) - 1u;
    if (index < size) {
      temp[index] = temp[index - stride] + temp[index];
    }
  }
  workgroupBarrier();

  // Clear the root, keeping the tile total for tile_sums and the inclusive result (only lane 0
  // uses it, so it stays in lane 0's register).
  var total = T(0);
  if (lid == 0u) {
    total = temp[size - 1u];
    tile_sums[tile] = temp[size - 1u];
    temp[size - 1u] = T(0);
  }

  // Down-sweep.
  for (var stride = WORKGROUP_SIZE; stride > 0u; stride = stride / 2u) {
    workgroupBarrier();
    let index = 2u * stride * (lid + 1u) - 1u;
    if (index < size) {
      let left = temp[index - stride];
      temp[index - stride] = temp[index]; // the left child takes the parent's value
      temp[index] = left + temp[index];   // the right child takes parent + left's old value
    }
  }
  workgroupBarrier();

  if (EXCLUSIVE) {
    if (base + a < params.n) {
      output[base + a] = temp[a];
    }
    if (base + b < params.n) {
      output[base + b] = temp[b];
    }
  } else {
    // Inclusive without one more addition: element p's inclusive sum is element p + 1's exclusive
    // sum, and the last one is the total. Each lane writes its exclusive value one place to the
    // left, so workgroup memory is still read at consecutive words.
    if (a > 0u && base + a - 1u < params.n) {
      output[base + a - 1u] = temp[a];
    }
    if (base + b - 1u < params.n) {
      output[base + b - 1u] = temp[b];
    }
    if (lid == 0u && base + size - 1u < params.n) {
      output[base + size - 1u] = total;
    }
  }
}
