alias T = u32;
// Hillis–Steele scan of one tile of WORKGROUP_SIZE elements in workgroup memory, one element per
// invocation. Line 1 names the element type: the lab swaps `u32` for `f32` or `i32` in place, so
// every line number stays the one in this file.
//
// Step k adds the element `offset = 2^k` places to the left: after log2(W) steps every element
// holds the sum of itself and everything before it. Only the lanes with lid >= offset add, so a
// tile of W elements costs Σ_k (W − 2^k) = W·log2(W) − (W − 1) additions (W = 1024: 9 217),
// against W − 1 for a sequential loop: simple and shallow, but not work-efficient.
//
// Two halves of `buf` are read and written alternately (double buffering): a lane never
// overwrites a value another lane still has to read in the same step, so one barrier per step
// suffices. Neighbouring lanes touch neighbouring words, so no step has a bank conflict.
//
// Arrays of any length: each workgroup writes its tile's total to `tile_sums`; the lab scans those
// and adds them back (shaders/scan/add-tile-sums.wgsl). Folded dispatches (more than 65 535 tiles)
// recover the tile index with linear_workgroup_index, appended from shaders/common.

override WORKGROUP_SIZE: u32 = 256;
// false: output[i] = input[0] + … + input[i] (inclusive); true: input[0] + … + input[i − 1].
override EXCLUSIVE: bool = false;

struct Params {
  n: u32,          // elements in `input`
  tile_count: u32, // workgroups with work: ceil(n / WORKGROUP_SIZE)
}

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<storage, read_write> tile_sums: array<T>;
@group(0) @binding(3) var<uniform> params: Params;

// Two halves: [0, W) and [W, 2W). `cur` says which one holds the latest values.
var<workgroup> buf: array<T, 2 * WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let tile = linear_workgroup_index(wid, nwg);
  if (tile >= params.tile_count) {
    return; // the last row of a folded grid may be partly empty
  }
  let i = tile * WORKGROUP_SIZE + lid;
  var value = T(0); // past the end, pad with the identity so the tile total is unchanged
  if (i < params.n) {
    value = input[i];
  }
  buf[lid] = value;

  var cur = 0u;
  for (var offset = 1u; offset < WORKGROUP_SIZE; offset = offset * 2u) {
    workgroupBarrier(); // the previous step's writes are visible before anyone reads them
    let nxt = WORKGROUP_SIZE - cur; // 0 ↔ W
    if (lid >= offset) {
      buf[nxt + lid] = buf[cur + lid - offset] + buf[cur + lid];
    } else {
      buf[nxt + lid] = buf[cur + lid]; // a copy, not an addition
    }
    cur = nxt;
  }
  workgroupBarrier(); // the exclusive result reads the neighbour's inclusive sum

  if (i < params.n) {
    if (EXCLUSIVE) {
      var shifted = T(0);
      if (lid > 0u) {
        shifted = buf[cur + lid - 1u];
      }
      output[i] = shifted;
    } else {
      output[i] = buf[cur + lid];
    }
  }
  if (lid == WORKGROUP_SIZE - 1u) {
    tile_sums[tile] = buf[cur + lid];
  }
}
