enable subgroups; diagnostic(off, subgroup_uniformity);
// y = A·x, CSR vector: a vector of VECTOR_WIDTH lanes of one subgroup (a warp) per row, as in
// Bell & Garland's CSR vector kernel. Lane k of a vector takes nonzeros start + k,
// start + k + width, … so the vector reads consecutive words of the value and column arrays
// (coalesced); then a butterfly of subgroupShuffleXor with offsets width/2 … 1 adds the vector's
// partial sums in registers, and its first lane stores y. The driver picks the width from the
// mean row length (2, 4, 8, 16 or 32 lanes, the subgroup's size at most), so rows of about 16
// nonzeros keep 16 lanes busy each, two rows per 32-lane warp, instead of idling half the warp.
//
// Which invocations share a subgroup is not derived from the local index (WGSL does not promise
// it): each subgroup claims a slot k with one atomicAdd on a workgroup counter and learns after a
// barrier how many subgroups there are. The workgroup owns ROWS_PER_WORKGROUP consecutive rows;
// subgroup k takes `per` = lanes / width of them at a time, at rounds k, k + subgroups, … and
// workgroups stride over blocks of rows, so any row count fits one dispatch.
// `diagnostic(off, subgroup_uniformity)`: every loop bound below is the same for the whole
// subgroup except the nonzero loop, after which all lanes meet again before the shuffles.
override WORKGROUP_SIZE: u32 = 256;
override ROWS_PER_WORKGROUP: u32 = 16;
override VECTOR_WIDTH: u32 = 16;

struct Params {
  rows: u32,
}

@group(0) @binding(0) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(1) var<storage, read> col_index: array<u32>;
@group(0) @binding(2) var<storage, read> values: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;
@group(0) @binding(5) var<uniform> params: Params;

// Subgroups that have claimed a slot. Workgroup memory starts zeroed.
var<workgroup> claim: atomic<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(subgroup_invocation_id) sid: u32) {
  let live = subgroupAdd(1u);          // lanes in this subgroup
  let width = min(VECTOR_WIDTH, live); // lanes per row
  let per = live / width;              // rows a subgroup takes at a time
  let lane = sid % width;              // place in its vector
  var claimed = 0u;
  if (subgroupElect()) {
    claimed = atomicAdd(&claim, 1u);
  }
  let slot = subgroupBroadcastFirst(claimed);
  workgroupBarrier();
  let subgroups = atomicLoad(&claim);

  for (var block = wid.x * ROWS_PER_WORKGROUP; block < params.rows; block += nwg.x * ROWS_PER_WORKGROUP) {
    for (var first = slot * per; first < ROWS_PER_WORKGROUP; first += subgroups * per) {
      let row = block + first + sid / width;
      var start = 0u;
      var end = 0u;
      if (row < params.rows && first + sid / width < ROWS_PER_WORKGROUP) {
        start = row_ptr[row];
        end = row_ptr[row + 1u];
      }
      var sum = 0.0;
      for (var j = start + lane; j < end; j += width) {
        sum += values[j] * x[col_index[j]];
      }
      for (var offset = width / 2u; offset > 0u; offset /= 2u) {
        sum += subgroupShuffleXor(sum, offset);
      }
      if (lane == 0u && row < params.rows && first + sid / width < ROWS_PER_WORKGROUP) {
        y[row] = sum;
      }
    }
  }
}
