enable subgroups; diagnostic(off, subgroup_uniformity);
// y = A·x, sliced ELL (SELL-C-σ, Kreutzer et al. 2014) with long rows cut into pieces: the SpMV
// lab's `sell` variant (issue 29; src/labs/spmv/sell.ts converts and picks the options). The CPU cuts
// every row longer than a limit into pieces of at most that many nonzeros, sorts the pieces by
// length inside windows of σ pieces, and stores each slice of 32 consecutive pieces column-major,
// padded to the slice's longest piece: nonzero k of the piece in lane l of slice s is at
// start[s] + 32·k + l, so a warp's loads of one step cover 128 contiguous bytes.
// One invocation sums one piece, STEP nonzeros at a time: STEP gathers of x, all independent, and
// with them in flight the next step's STEP loads of columns and values, then the sums (a lane
// waits on one memory trip per step instead of two). Padding is column 0 with value 0, and the
// last step's slots past the slice's end read as padding too (the slice is not padded to whole
// steps: on the power-law matrix that padding was 9 % of the stored words). A piece that is a
// whole row stores its sum. A cut row's pieces have equal lengths (within one), so the sort keeps
// them next to each other: a segmented scan over the subgroup (with head flags, so it is right
// whatever order the pieces come in) sums each run of pieces of one row, and the run's last lane
// adds the total into y with the compare-exchange f32 add (y starts as zeros): the 60 261-nonzero
// row of the power-law matrix costs about 30 atomics instead of one per piece.
// Pieces are dealt to subgroups as hybrid.wgsl deals its units, without assuming which
// invocations share one.
override WORKGROUP_SIZE: u32 = 256;
// Nonzeros per step of a piece (the slices' widths are whole steps).
const STEP: u32 = 4u;
// Lanes per slice.
const LANES: u32 = 32u;
// Bit of `owner` set for a piece of a row that was cut.
const CUT: u32 = 0x80000000u;

struct Params {
  pieces: u32,
}

@group(0) @binding(0) var<storage, read> start: array<u32>; // slices + 1, in nonzeros
@group(0) @binding(1) var<storage, read> col: array<u32>;
@group(0) @binding(2) var<storage, read> val: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read> owner: array<u32>; // per piece: its row, CUT if the row was cut
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
  let p = (wid.x + wid.y * groups.x) * WORKGROUP_SIZE + slot * live + sid;
  var key = NO_KEY;
  var sum = 0.0;
  if (p < params.pieces) {
    let s = p / LANES;
    let first = start[s] + p % LANES;
    let end = start[s + 1u];
    // Slots past the slice's end read as padding (an empty first slice reads slot 0, which exists).
    let last = max(end, 1u) - 1u;
    var c: array<u32, STEP>;
    var v: array<f32, STEP>;
    for (var k = 0u; k < STEP; k++) {
      let i = first + k * LANES;
      c[k] = select(0u, col[min(i, last)], i < end);
      v[k] = select(0.0, val[min(i, last)], i < end);
    }
    for (var e = first; e < end; e += STEP * LANES) {
      var g: array<f32, STEP>;
      for (var k = 0u; k < STEP; k++) {
        g[k] = x[c[k]];
      }
      // The next step's loads go out while this step's gathers are in flight.
      var cn: array<u32, STEP>;
      var vn: array<f32, STEP>;
      for (var k = 0u; k < STEP; k++) {
        let i = e + (STEP + k) * LANES;
        cn[k] = select(0u, col[min(i, last)], i < end);
        vn[k] = select(0.0, val[min(i, last)], i < end);
      }
      for (var k = 0u; k < STEP; k++) {
        sum += v[k] * g[k];
      }
      c = cn;
      v = vn;
    }
    key = owner[p];
  }
  // Segmented inclusive scan with head flags: a lane whose key differs from the lane before it
  // starts a run, and no sum crosses a run's start.
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
