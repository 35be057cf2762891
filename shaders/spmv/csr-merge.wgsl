enable subgroups; diagnostic(off, subgroup_uniformity);
// y = A·x, CSR merge path (Merrill & Garland's merge-based SpMV): every workgroup takes the same
// number of work items, where an item is either one nonzero or the end of one row. Laid end to
// end, the row ends rowPtr[1…rows] and the nonzero indices 0, 1, … merge into one sorted path of
// rows + nonzeros items; a row end comes before nonzero j when rowPtr[r + 1] <= j. Cutting that
// path into tiles of TILE_ITEMS gives each workgroup a balanced share whatever the row lengths:
// a row of 60 000 nonzeros is spread over many tiles, a run of empty rows costs one item each.
//
// Per tile:
// 1. One subgroup finds where the tile's first and last diagonal cross the path (rows i0…i1,
//    nonzeros j0…j1 of this tile): half its lanes search each, probing that many evenly spaced
//    rows at once, so each round narrows the range 16-fold on a 32-lane warp (6 rounds of loads
//    for 4 million rows, where a binary search waits on 22 in a row). With SUBGROUP_SEARCH off,
//    two invocations do plain binary searches instead (kept to time the difference).
// 2. The workgroup loads the tile's row ends and computes its products values[j] · x[col[j]] into
//    workgroup memory: coalesced loads, ITEMS independent gathers in flight per invocation.
// 3. Each invocation takes ITEMS consecutive items of the tile, finds its own start on the path
//    with a binary search in workgroup memory, and walks: a nonzero adds its product to the running
//    sum, a row end closes the row. Rows that open and close inside one invocation are stored
//    at once; the first row an invocation closes may have begun in invocations before it.
// 4. Fix-up: that first row's sum is the tails of the invocations before it that lie in the row,
//    in order, then the invocation's own head. A row that began in an earlier tile, and the row
//    still open at the tile's end, are added into y with the compare-exchange f32 add of
//    coo.wgsl: at most two atomics per tile, whatever the matrix. y starts as zeros.
//
// Inside a tile the order of additions is fixed by the kernel (each row: its items left to right,
// invocation by invocation). Only the partial sums of a row that crosses tiles meet in an atomic
// add, in whatever order the tiles finish; the lab's values are small integers, so that order
// cannot change a bit.
const ITEMS: u32 = 7;
const NONE: u32 = 0xffffffffu;
override WORKGROUP_SIZE: u32 = 256;
override SUBGROUP_SEARCH: bool = true;
override TILE_ITEMS: u32 = 1792; // WORKGROUP_SIZE × ITEMS

struct Params {
  rows: u32,
  nonzeros: u32,
  tiles: u32,
}

@group(0) @binding(0) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(1) var<storage, read> col_index: array<u32>;
@group(0) @binding(2) var<storage, read> values: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<atomic<u32>>;
@group(0) @binding(5) var<uniform> params: Params;

// The tile: i0, i1 (rows whose ends it holds) and j0, j1 (its nonzeros).
var<workgroup> bounds: array<u32, 4>;
// The tile's row ends (rowPtr[i0 + 1 …]) first, then its products as f32 bits: rows + nonzeros
// of a tile are TILE_ITEMS at most.
var<workgroup> tile: array<u32, TILE_ITEMS>;
// Per invocation: the first row it closes (tile-relative, NONE if it closes none) with its head
// (the sum before that row end), and the row open after its last item with that row's sum so far.
var<workgroup> first_end: array<u32, WORKGROUP_SIZE>;
var<workgroup> head: array<f32, WORKGROUP_SIZE>;
var<workgroup> tail: array<f32, WORKGROUP_SIZE>;

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

// Row ends before diagonal `diag` of the whole path: the largest i with rowPtr[i] <= diag − i
// (i row ends and diag − i nonzeros come first).
fn rows_before(diag: u32) -> u32 {
  var lo = select(0u, diag - params.nonzeros, diag > params.nonzeros);
  var hi = min(diag, params.rows);
  while (lo < hi) {
    let mid = (lo + hi) / 2u;
    if (row_ptr[mid + 1u] <= diag - mid - 1u) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The same search by the lanes of one subgroup: lanes 0 … half − 1 for the tile's first diagonal,
// the others for its last. Each round a side's k lanes probe rows lo, lo + step, … (step =
// ⌈(hi − lo) / k⌉); the probes that pass are the first c (the test holds below the answer and
// fails from it on), so the answer lies after probe c − 1 and at or before probe c.
fn search_tile(t: u32, total: u32, sid: u32) {
  let live = subgroupAdd(1u);
  let half = live / 2u;
  let side = select(0u, 1u, sid >= half);
  let q = sid - side * half;
  let k = select(half, live - half, side == 1u);
  let diag = min((t + side) * TILE_ITEMS, total);
  var lo = select(0u, diag - params.nonzeros, diag > params.nonzeros);
  var hi = min(diag, params.rows);
  loop {
    let open = lo < hi;
    if (!subgroupAny(open)) {
      break;
    }
    let step = (hi - lo + k - 1u) / k;
    let p = lo + q * step;
    var passed = false;
    if (open && p < hi) {
      passed = row_ptr[p + 1u] <= diag - p - 1u;
    }
    let c0 = subgroupAdd(select(0u, 1u, passed && side == 0u));
    let c1 = subgroupAdd(select(0u, 1u, passed && side == 1u));
    let c = select(c0, c1, side == 1u);
    if (open) {
      if (c == 0u) {
        hi = lo;
      } else {
        let next = lo + (c - 1u) * step + 1u;
        hi = min(hi, lo + c * step);
        lo = next;
      }
    }
  }
  if (q == 0u) {
    bounds[side] = lo;
    bounds[2u + side] = diag - lo;
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>, @builtin(subgroup_invocation_id) sid: u32) {
  let total = params.rows + params.nonzeros;
  for (var t = wid.x; t < params.tiles; t += nwg.x) {
    // 1. Where the tile starts and ends on the path.
    if (SUBGROUP_SEARCH) {
      if (subgroupAny(lid == 0u)) {
        search_tile(t, total, sid);
      }
    } else if (lid < 2u) {
      let diag = min((t + lid) * TILE_ITEMS, total);
      let r = rows_before(diag);
      bounds[lid] = r;
      bounds[2u + lid] = diag - r;
    }
    workgroupBarrier();
    let i0 = bounds[0];
    let j0 = bounds[2];
    let rows = bounds[1] - i0;
    let nnz = bounds[3] - j0;

    // 2. Row ends and products into workgroup memory; all loads first, then all gathers.
    for (var k = lid; k < rows; k += WORKGROUP_SIZE) {
      tile[k] = row_ptr[i0 + k + 1u];
    }
    var cols: array<u32, ITEMS>;
    var vals: array<f32, ITEMS>;
    for (var k = 0u; k < ITEMS; k++) {
      let q = lid + k * WORKGROUP_SIZE;
      if (q < nnz) {
        cols[k] = col_index[j0 + q];
        vals[k] = values[j0 + q];
      }
    }
    for (var k = 0u; k < ITEMS; k++) {
      let q = lid + k * WORKGROUP_SIZE;
      if (q < nnz) {
        tile[rows + q] = bitcast<u32>(vals[k] * x[cols[k]]);
      }
    }
    workgroupBarrier();

    // 3. This invocation's items: its start on the path, then the walk.
    let count = rows + nnz;
    let start = min(lid * ITEMS, count);
    let end = min(start + ITEMS, count);
    var lo = select(0u, start - nnz, start > nnz);
    var hi = min(start, rows);
    while (lo < hi) {
      let mid = (lo + hi) / 2u;
      if (tile[mid] <= j0 + start - mid - 1u) {
        lo = mid + 1u;
      } else {
        hi = mid;
      }
    }
    var r = lo;         // next row end (tile-relative)
    var j = start - lo; // next nonzero (tile-relative)
    var sum = 0.0;
    var first = NONE;
    var head_sum = 0.0;
    for (var item = start; item < end; item++) {
      if (r < rows && (j >= nnz || tile[r] <= j0 + j)) {
        if (first == NONE) {
          first = r;
          head_sum = sum;
        } else {
          atomicStore(&y[i0 + r], bitcast<u32>(sum));
        }
        sum = 0.0;
        r++;
      } else {
        sum += bitcast<f32>(tile[rows + j]);
        j++;
      }
    }
    first_end[lid] = first;
    head[lid] = head_sum;
    tail[lid] = sum;
    workgroupBarrier();

    // 4. Fix-up. The first row this invocation closes: the invocations since the last one that
    // closed a row all lie inside it; that one's tail is where the row began in this tile.
    if (first != NONE) {
      var b = lid;
      while (b > 0u && first_end[b - 1u] == NONE) {
        b--;
      }
      var row_sum = 0.0;
      if (b > 0u) {
        row_sum = tail[b - 1u];
      }
      for (var s = b; s < lid; s++) {
        row_sum += tail[s];
      }
      row_sum += head_sum;
      if (b == 0u && row_ptr[i0] < j0) {
        add_to_y(i0, row_sum); // began in an earlier tile
      } else {
        atomicStore(&y[i0 + first], bitcast<u32>(row_sum));
      }
    }
    // The row still open at the tile's end (row i1, if it has nonzeros here): the last invocation
    // with items adds its part; the next tiles add theirs.
    if (count > 0u && lid == (count - 1u) / ITEMS) {
      let i1 = i0 + rows;
      if (i1 < params.rows && row_ptr[i1] < j0 + nnz) {
        var b = lid;
        if (first == NONE) {
          while (b > 0u && first_end[b - 1u] == NONE) {
            b--;
          }
        }
        var row_sum = 0.0;
        if (first == NONE && b > 0u) {
          row_sum = tail[b - 1u];
        }
        for (var s = b; s <= lid; s++) {
          row_sum += tail[s];
        }
        add_to_y(i1, row_sum);
      }
    }
    workgroupBarrier();
  }
}
