enable subgroups; diagnostic(off, subgroup_uniformity);
// Issue 29 experiment (scripts/experiments/spmv-sell.ts), not a lab variant: shaders/spmv/sell.wgsl
// with two pieces per invocation. A subgroup of `live` lanes takes 2·live consecutive pieces
// (two slices when live is 32); lane l sums piece l and piece live + l side by side in one loop, so
// the two pieces' memory trips (slice offsets and rows, first loads, gathers) overlap: a short
// piece's fixed trips are shared by two pieces. The sliced ELL format, the padding rules and the
// segmented scan are sell.wgsl's; each of the two pieces' sums goes through its own scan.
override WORKGROUP_SIZE: u32 = 256;
const STEP: u32 = 4u;
const LANES: u32 = 32u;
const CUT: u32 = 0x80000000u;

struct Params {
  pieces: u32,
}

@group(0) @binding(0) var<storage, read> start: array<u32>;
@group(0) @binding(1) var<storage, read> col: array<u32>;
@group(0) @binding(2) var<storage, read> val: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read> owner: array<u32>;
@group(0) @binding(5) var<storage, read_write> y: array<atomic<u32>>;
@group(0) @binding(6) var<uniform> params: Params;

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

// The segmented scan of sell.wgsl over one set of pieces, then the run's last lane writes y.
fn scan_and_store(key: u32, total: f32, sid: u32, live: u32) {
  var sum = total;
  let keyBefore = subgroupShuffleUp(key, 1u);
  var head = sid == 0u || keyBefore != key;
  for (var offset = 1u; offset < live; offset *= 2u) {
    let before = subgroupShuffleUp(sum, offset);
    let headBefore = subgroupShuffleUp(select(0u, 1u, head), offset);
    if (sid >= offset && !head) {
      sum += before;
    }
    head = head || (sid >= offset && headBefore == 1u);
  }
  let keyAfter = subgroupShuffleDown(key, 1u);
  if (key != NO_KEY && (sid + 1u == live || keyAfter != key)) {
    if ((key & CUT) == 0u) {
      atomicStore(&y[key], bitcast<u32>(sum));
    } else {
      add_to_y(key & ~CUT, sum);
    }
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(subgroup_invocation_id) sid: u32) {
  let live = subgroupAdd(1u);
  var claimed = 0u;
  if (subgroupElect()) {
    claimed = atomicAdd(&claim, 1u);
  }
  let slot = subgroupBroadcastFirst(claimed);
  workgroupBarrier();
  let pa = ((wid.x + wid.y * groups.x) * WORKGROUP_SIZE + slot * live) * 2u + sid;
  let pb = pa + live;
  var keyA = NO_KEY;
  var keyB = NO_KEY;
  var sumA = 0.0;
  var sumB = 0.0;
  // A piece past the end has an empty range (first = end = 0).
  var firstA = 0u;
  var endA = 0u;
  var firstB = 0u;
  var endB = 0u;
  if (pa < params.pieces) {
    keyA = owner[pa];
    firstA = start[pa / LANES] + pa % LANES;
    endA = start[pa / LANES + 1u];
  }
  if (pb < params.pieces) {
    keyB = owner[pb];
    firstB = start[pb / LANES] + pb % LANES;
    endB = start[pb / LANES + 1u];
  }
  let lastA = max(endA, 1u) - 1u;
  let lastB = max(endB, 1u) - 1u;
  var ca: array<u32, STEP>;
  var va: array<f32, STEP>;
  var cb: array<u32, STEP>;
  var vb: array<f32, STEP>;
  for (var k = 0u; k < STEP; k++) {
    let i = firstA + k * LANES;
    ca[k] = select(0u, col[min(i, lastA)], i < endA);
    va[k] = select(0.0, val[min(i, lastA)], i < endA);
    let j = firstB + k * LANES;
    cb[k] = select(0u, col[min(j, lastB)], j < endB);
    vb[k] = select(0.0, val[min(j, lastB)], j < endB);
  }
  var ea = firstA;
  var eb = firstB;
  loop {
    if (ea >= endA && eb >= endB) {
      break;
    }
    var ga: array<f32, STEP>;
    var gb: array<f32, STEP>;
    for (var k = 0u; k < STEP; k++) {
      ga[k] = x[ca[k]];
      gb[k] = x[cb[k]];
    }
    var can: array<u32, STEP>;
    var van: array<f32, STEP>;
    var cbn: array<u32, STEP>;
    var vbn: array<f32, STEP>;
    for (var k = 0u; k < STEP; k++) {
      let i = ea + (STEP + k) * LANES;
      can[k] = select(0u, col[min(i, lastA)], i < endA);
      van[k] = select(0.0, val[min(i, lastA)], i < endA);
      let j = eb + (STEP + k) * LANES;
      cbn[k] = select(0u, col[min(j, lastB)], j < endB);
      vbn[k] = select(0.0, val[min(j, lastB)], j < endB);
    }
    for (var k = 0u; k < STEP; k++) {
      sumA += va[k] * ga[k];
      sumB += vb[k] * gb[k];
    }
    ca = can;
    va = van;
    cb = cbn;
    vb = vbn;
    ea += STEP * LANES;
    eb += STEP * LANES;
  }
  scan_and_store(keyA, sumA, sid, live);
  scan_and_store(keyB, sumB, sid, live);
}
