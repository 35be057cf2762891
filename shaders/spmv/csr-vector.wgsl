enable subgroups; diagnostic(off, subgroup_uniformity);
// y = A·x, CSR vector: one subgroup (a warp) per row. Lane k of the subgroup takes nonzeros
// start + k, start + k + size, … so the lanes read consecutive words of the value and column
// arrays together (coalesced), then subgroupAdd totals the lanes' partial sums in registers.
// A row shorter than the subgroup leaves lanes idle; a long row is shared by all of them.
//
// WGSL promises neither a subgroup size nor which invocations share a subgroup, so nothing is
// derived from the local index: each subgroup claims a slot k with one atomicAdd on a workgroup
// counter, counts its live lanes, and after a barrier learns how many subgroups there are. The
// workgroup owns ROWS_PER_WORKGROUP consecutive rows; subgroup k takes rows k, k + subgroups, …
// of them. Workgroups stride over blocks of rows, so any row count fits one dispatch.
// `diagnostic(off, subgroup_uniformity)`: the loops below depend on the slot, which is the same
// for every lane of a subgroup, so subgroupAdd is reached by whole subgroups.
override WORKGROUP_SIZE: u32 = 256;
override ROWS_PER_WORKGROUP: u32 = 8;

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
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let live = subgroupAdd(1u);          // lanes in this subgroup
  let lane = subgroupExclusiveAdd(1u); // 0 … live − 1
  var claimed = 0u;
  if (subgroupElect()) {
    claimed = atomicAdd(&claim, 1u);
  }
  let slot = subgroupBroadcastFirst(claimed);
  workgroupBarrier();
  let subgroups = atomicLoad(&claim);

  for (var block = wid.x * ROWS_PER_WORKGROUP; block < params.rows; block += nwg.x * ROWS_PER_WORKGROUP) {
    let last = min(block + ROWS_PER_WORKGROUP, params.rows);
    for (var row = block + slot; row < last; row += subgroups) {
      let end = row_ptr[row + 1u];
      var sum = 0.0;
      for (var j = row_ptr[row] + lane; j < end; j += live) {
        sum += values[j] * x[col_index[j]];
      }
      let total = subgroupAdd(sum);
      if (lane == 0u) {
        y[row] = total;
      }
    }
  }
}
