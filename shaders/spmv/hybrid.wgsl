enable subgroups; diagnostic(off, subgroup_uniformity);
// y = A·x, ELL + COO hybrid: the first WIDTH nonzeros of every row in ELL (column-major, padded),
// the rest of the long rows as COO triples in row order. WIDTH is chosen on the CPU by the
// lesson's rule: the largest K with at least a third of the rows holding K or more nonzeros, so
// every ELL column is at least a third full and a few very long rows no longer pad the others.
//
// One dispatch does both parts over a sequence of units: units 0 … rows − 1 are the rows' ELL
// parts, the next `count` units the COO triples. Each unit gives a key and a partial sum: key r
// for row r's ELL part, rows + r for a triple of row r, so keys rise along the sequence. The
// lanes of a subgroup take consecutive units; a segmented scan with subgroupShuffleUp adds each
// lane's sum to the lanes before it with the same key, and only the last lane of each run adds
// the run's total into y, with the compare-exchange f32 add of coo.wgsl (a row's ELL sum and its
// tail's runs may arrive in any order, from any subgroup). A long row's tail costs one atomic per
// run in a subgroup instead of one per nonzero. y starts as zeros.
//
// Units are dealt to subgroups without assuming which invocations share one: each subgroup claims
// a slot with an atomicAdd on a workgroup counter, so lane i of slot k takes unit
// base + k·lanes + i, lane i being its subgroup_invocation_id (the order the shuffles use).
override WORKGROUP_SIZE: u32 = 256;

struct Params {
  rows: u32,
  width: u32, // ELL slots per row
  count: u32, // COO triples
}

@group(0) @binding(0) var<storage, read> ell_col: array<u32>;
@group(0) @binding(1) var<storage, read> ell_val: array<f32>;
@group(0) @binding(2) var<storage, read> coo_row: array<u32>;
@group(0) @binding(3) var<storage, read> coo_col: array<u32>;
@group(0) @binding(4) var<storage, read> coo_val: array<f32>;
@group(0) @binding(5) var<storage, read> x: array<f32>;
@group(0) @binding(6) var<storage, read_write> y: array<atomic<u32>>;
@group(0) @binding(7) var<uniform> params: Params;

var<workgroup> claim: atomic<u32>;

const NO_KEY: u32 = 0xffffffffu;

fn add_to_y(i: u32, v: f32) {
  var seen = atomicLoad(&y[i]);
  loop {
    let tried = atomicCompareExchangeWeak(&y[i], seen, bitcast<u32>(bitcast<f32>(seen) + v));
    if (tried.exchanged) {
      break;
    }
    seen = tried.old_value;
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(subgroup_invocation_id) sid: u32) {
  let live = subgroupAdd(1u);
  var claimed = 0u;
  if (subgroupElect()) {
    claimed = atomicAdd(&claim, 1u);
  }
  let slot = subgroupBroadcastFirst(claimed);
  workgroupBarrier();

  let total = params.rows + params.count;
  for (var base = wid.x * WORKGROUP_SIZE; base < total; base += nwg.x * WORKGROUP_SIZE) {
    let t = base + slot * live + sid;
    var key = NO_KEY;
    var sum = 0.0;
    if (t < params.rows) {
      for (var i = 0u; i < params.width; i++) {
        let k = i * params.rows + t;
        sum += ell_val[k] * x[ell_col[k]];
      }
      key = t;
    } else if (t < total) {
      let k = t - params.rows;
      let row = coo_row[k];
      sum = coo_val[k] * x[coo_col[k]];
      key = params.rows + row;
    }
    // Segmented inclusive scan over the subgroup: keys rise with the lane, so a lane `offset`
    // back with the same key means every lane between has it too.
    for (var offset = 1u; offset < live; offset *= 2u) {
      let before = subgroupShuffleUp(sum, offset);
      let beforeKey = subgroupShuffleUp(key, offset);
      if (sid >= offset && beforeKey == key) {
        sum += before;
      }
    }
    let nextKey = subgroupShuffleDown(key, 1u);
    if (key != NO_KEY && (sid + 1u == live || nextKey != key)) {
      add_to_y(select(key, key - params.rows, key >= params.rows), sum);
    }
  }
}
