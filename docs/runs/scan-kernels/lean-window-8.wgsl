enable subgroups; diagnostic(off, subgroup_uniformity);
alias T = u32;
// Single-pass scan built for bandwidth: decoupled look-back with fallback (see single-pass.wgsl
// for why the fallback makes it safe without forward progress between workgroups), with
// 32 elements per invocation, vec4 loads and stores, subgroup scans and a look-back that reads a
// whole subgroup's worth of predecessors at once. Line 2 names the element type (line 1 holds the
// directives): the lab swaps `u32` for `f32` or `i32` in place, keeping every line number. The
// `diagnostic` lets subgroup operations run inside the look-back's branch: only one subgroup takes
// it, whole, and every loop there exits on values the whole subgroup agrees on.
//
// Tile = WORKGROUP_SIZE · 32 elements (8 192 at 256), in VECS = 8 rows of WORKGROUP_SIZE vec4s.
// Invocation at position p holds vec4 p of every row: each load and store instruction of a warp
// covers 32 consecutive vec4s (512 bytes, fully coalesced), and no transpose through workgroup
// memory is needed, since the 4 elements of a vec4 are consecutive. Why 8 rows: a tile waits for
// its look-back with its data in registers, loading nothing, so the fewer and larger the tiles the
// closer the scan gets to a copy (on an H100: 4 rows 74.8 %, 8 rows 78.2 % of copy; see
// docs/benchmarks.md). The rows are named values, not an array, so they stay in registers.
//  1. Positions: as in subgroup.wgsl, each subgroup claims consecutive positions and a subgroup
//     number k with one workgroup atomic, so nothing depends on how invocations form subgroups.
//  2. Each invocation sums its 8 vec4s (one sum per row, as two vec4s over rows 0 … 3 and
//     4 … 7); one subgroupExclusiveAdd and one subgroupAdd of each scan 4 rows at once; subgroup
//     totals go to workgroup memory; one barrier; each subgroup adds the totals before its own.
//  3. Subgroup k = 0 alone publishes the tile's aggregate and looks back: lane i reads tile
//     j − 1 − i, so one round trip to memory sees up to subgroup_size predecessors. The window
//     counts up to the nearest tile with an inclusive prefix if every tile before it is ready;
//     if a tile stays not ready for SPIN_LIMIT reads, the subgroup sums the ready ones nearer,
//     then reduces that tile itself from `input` (the fallback) and looks on from the tile before.
//     Every loop is bounded, so the scan finishes under any schedule.
//  4. Barrier; every invocation rescans its vec4s serially from its offset and stores them.
// Status words (a ticket, then 2 per tile) are packed (flag << 16) | 16-bit half; flag =
// mark · 2 + kind (kind 0 aggregate, 1 inclusive prefix; mark 1 + dispatch % 2, 0 = never
// written). Both halves must carry the same flag: each (word, flag) is written once per dispatch,
// so two equal flags always belong to one published value. A half-written upgrade from aggregate
// to inclusive reads as not ready for that try. Repeated dispatches need no reset (see
// single-pass.wgsl: tickets keep counting, the mark alternates).
//
// The input and output bindings are vec4 arrays: the driver pads both to a multiple of 4 elements;
// elements at or past n read as 0, and what lands in the output's padding is not part of the scan.

override WORKGROUP_SIZE: u32 = 256;
override EXCLUSIVE: bool = false; // false: inclusive; true: exclusive
override SPIN_LIMIT: u32 = 64;    // reads of a window before falling back; 0 always falls back

const VECS = 8u; // vec4s per invocation (rows of the tile)

struct Params {
  n: u32,          // elements in the scan (the buffers hold ceil(n / 4) vec4s)
  tile_count: u32, // ceil(n / (WORKGROUP_SIZE · 32))
}

@group(0) @binding(0) var<storage, read> input: array<vec4<T>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<T>>;
// status[0]: ticket counter; tile t: status[1 + 2t] (low half), status[2 + 2t] (high half).
// Zeroed before the first dispatch, never reset after.
@group(0) @binding(2) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> params: Params;

const NOT_READY = 0u;
const AGGREGATE = 1u; // the tile's own sum
const INCLUSIVE = 2u; // the sum of the tile and everything before it

// (positions claimed << 16) | subgroups claimed. Workgroup memory starts zeroed.
var<workgroup> claim: atomic<u32>;
// Subgroup k's totals of rows 0 … 3 and 4 … 7 at [k] (subgroups have at least 4 invocations).
var<workgroup> subgroup_totals0: array<vec4<T>, WORKGROUP_SIZE / 4u>;
var<workgroup> subgroup_totals1: array<vec4<T>, WORKGROUP_SIZE / 4u>;
var<workgroup> ticket: u32;
var<workgroup> tile_prefix: T; // the sum of every tile before this one

// vec4 vi of the input, with elements at or past n read as 0.
fn load_vec(vi: u32) -> vec4<T> {
  let e = vi * 4u;
  if (e + 3u < params.n) {
    return input[vi];
  }
  if (e >= params.n) {
    return vec4<T>(T(0));
  }
  let w = input[vi];
  return vec4<T>(w.x, select(T(0), w.y, e + 1u < params.n), select(T(0), w.z, e + 2u < params.n), T(0));
}

fn publish(t: u32, kind: u32, value: T, mark: u32) {
  let bits = bitcast<u32>(value);
  let flag = (mark << 1u) | (kind - 1u);
  atomicStore(&status[1u + 2u * t], (flag << 16u) | (bits & 0xffffu));
  atomicStore(&status[2u + 2u * t], (flag << 16u) | (bits >> 16u));
}

// Tile t's state and value bits as this dispatch published them: (NOT_READY, 0) if neither.
fn read_slot(t: u32, mark: u32) -> vec2<u32> {
  let lo = atomicLoad(&status[1u + 2u * t]);
  let hi = atomicLoad(&status[2u + 2u * t]);
  let flag = lo >> 16u;
  if (flag == (hi >> 16u) && (flag >> 1u) == mark) {
    return vec2<u32>(1u + (flag & 1u), (hi << 16u) | (lo & 0xffffu));
  }
  return vec2<u32>(NOT_READY, 0u);
}

// The fallback, by one subgroup of `live` lanes: tile t's sum from `input`.
fn reduce_tile(t: u32, rank: u32, live: u32) -> T {
  let first = t * WORKGROUP_SIZE * VECS;
  var acc = vec4<T>(T(0));
  for (var q = rank; q < WORKGROUP_SIZE * VECS; q = q + live) {
    acc = acc + load_vec(first + q);
  }
  return subgroupAdd(acc.x + acc.y + acc.z + acc.w);
}

// The look-back, by one whole subgroup: the sum of every tile before `tile`.
const WINDOW = 8u; // predecessors read per turn of the look-back

fn look_back(tile: u32, mark: u32, rank: u32, live: u32) -> T {
  var prefix = T(0);
  var j = tile; // tiles 0 … j − 1 are still to count
  while (j > 0u) {
    let width = min(j, min(WINDOW, live)); // lanes that read this turn
    let valid = rank < width;
    let t = j - 1u - min(rank, j - 1u); // lane rank looks at tile j − 1 − rank
    var state = NOT_READY;
    var bits = 0u;
    var first_incl = width; // the nearest lane holding an inclusive prefix
    var first_wait = 0u;   // the nearest lane not ready (before any read: lane 0)
    for (var tries = 0u; tries < SPIN_LIMIT; tries = tries + 1u) {
      if (valid && state != INCLUSIVE) {
        let s = read_slot(t, mark);
        if (s.x != NOT_READY) { // a lane that saw an aggregate keeps it if the upgrade is half-seen
          state = s.x;
          bits = s.y;
        }
      }
      first_incl = subgroupMin(select(width, rank, valid && state == INCLUSIVE));
      first_wait = subgroupMin(select(width, rank, valid && state == NOT_READY));
      if (first_wait > first_incl || first_wait == width) {
        break; // ready up to an inclusive prefix, or the whole window ready
      }
    }
    // Count lanes 0 … limit − 1: up to and with the inclusive prefix, else up to the first wait.
    var limit = first_wait;
    if (first_incl < first_wait) {
      limit = first_incl + 1u;
    }
    prefix = prefix + subgroupAdd(select(T(0), bitcast<T>(bits), valid && rank < limit));
    if (first_incl < first_wait) {
      break;
    }
    j = j - min(limit, j);
    if (first_wait < width && j > 0u) {
      prefix = prefix + reduce_tile(j - 1u, rank, live); // it stayed silent: do it ourselves
      j = j - 1u;
    }
  }
  return prefix;
}

// Stores vec4 vi of the output: v scanned serially, starting from `offset`.
fn store_scanned(vi: u32, v: vec4<T>, offset: T, vec_count: u32) {
  let s1 = v.x;
  let s2 = s1 + v.y;
  let s3 = s2 + v.z;
  var scanned = vec4<T>(s1, s2, s3, s3 + v.w);
  if (EXCLUSIVE) {
    scanned = vec4<T>(T(0), s1, s2, s3);
  }
  if (vi < vec_count) {
    output[vi] = vec4<T>(offset) + scanned;
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  if (linear_workgroup_index(wid, nwg) >= params.tile_count) {
    return; // the last row of a folded grid may be partly empty; these take no ticket
  }
  if (lid == 0u) {
    ticket = atomicAdd(&status[0], 1u);
  }
  // Claim positions (before the barrier inside workgroupUniformLoad, so the count is final after).
  let live = subgroupAdd(1u);          // lanes in this subgroup
  let rank = subgroupExclusiveAdd(1u); // 0 … live − 1
  var claimed = 0u;
  if (subgroupElect()) {
    claimed = atomicAdd(&claim, (live << 16u) | 1u);
  }
  claimed = subgroupBroadcastFirst(claimed);
  let k = claimed & 0xffffu;
  let pos = (claimed >> 16u) + rank;

  let drawn = workgroupUniformLoad(&ticket);
  let tile = drawn % params.tile_count;
  let mark = 1u + (drawn / params.tile_count) % 2u;
  let base = tile * WORKGROUP_SIZE * VECS; // first vec4 of the tile
  let vec_count = (params.n + 3u) / 4u;

  // Load: row r's vec4 at position pos (8 rows, named so they stay in registers). Every tile but
  // the last is whole: its loads need no bounds logic.
  var x0: vec4<T>;
  var x1: vec4<T>;
  var x2: vec4<T>;
  var x3: vec4<T>;
  var x4: vec4<T>;
  var x5: vec4<T>;
  var x6: vec4<T>;
  var x7: vec4<T>;
  if (tile + 1u < params.tile_count) {
    x0 = input[base + pos];
    x1 = input[base + WORKGROUP_SIZE + pos];
    x2 = input[base + 2u * WORKGROUP_SIZE + pos];
    x3 = input[base + 3u * WORKGROUP_SIZE + pos];
    x4 = input[base + 4u * WORKGROUP_SIZE + pos];
    x5 = input[base + 5u * WORKGROUP_SIZE + pos];
    x6 = input[base + 6u * WORKGROUP_SIZE + pos];
    x7 = input[base + 7u * WORKGROUP_SIZE + pos];
  } else {
    x0 = load_vec(base + pos);
    x1 = load_vec(base + WORKGROUP_SIZE + pos);
    x2 = load_vec(base + 2u * WORKGROUP_SIZE + pos);
    x3 = load_vec(base + 3u * WORKGROUP_SIZE + pos);
    x4 = load_vec(base + 4u * WORKGROUP_SIZE + pos);
    x5 = load_vec(base + 5u * WORKGROUP_SIZE + pos);
    x6 = load_vec(base + 6u * WORKGROUP_SIZE + pos);
    x7 = load_vec(base + 7u * WORKGROUP_SIZE + pos);
  }
  // Row sums as vec4s over rows (component r of sums0 = row r, of sums1 = row 4 + r).
  let sums0 = vec4<T>(x0.x + x0.y + x0.z + x0.w, x1.x + x1.y + x1.z + x1.w,
                      x2.x + x2.y + x2.z + x2.w, x3.x + x3.y + x3.z + x3.w);
  let sums1 = vec4<T>(x4.x + x4.y + x4.z + x4.w, x5.x + x5.y + x5.z + x5.w,
                      x6.x + x6.y + x6.z + x6.w, x7.x + x7.y + x7.z + x7.w);
  let lane_before0 = subgroupExclusiveAdd(sums0); // rows 0 … 3 scanned at once
  let lane_before1 = subgroupExclusiveAdd(sums1); // rows 4 … 7
  let subgroup_total0 = subgroupShuffle(lane_before0 + sums0, live - 1u);
  let subgroup_total1 = subgroupShuffle(lane_before1 + sums1, live - 1u);
  if (subgroupElect()) {
    subgroup_totals0[k] = subgroup_total0;
    subgroup_totals1[k] = subgroup_total1;
  }
  workgroupBarrier();

  if (k == 0u) {
    // Subgroup 0 scans the subgroups' totals: lane i takes a run of `per` consecutive subgroups.
    let groups = atomicLoad(&claim) & 0xffffu;
    let per = (groups + live - 1u) / live;
    let first = min(rank * per, groups);
    let last = min(first + per, groups);
    var run0 = vec4<T>(T(0));
    var run1 = vec4<T>(T(0));
    for (var g = first; g < last; g = g + 1u) {
      run0 = run0 + subgroup_totals0[g];
      run1 = run1 + subgroup_totals1[g];
    }
    let ex0 = subgroupExclusiveAdd(run0);
    let ex1 = subgroupExclusiveAdd(run1);
    let all0 = subgroupShuffle(ex0 + run0, live - 1u);
    let all1 = subgroupShuffle(ex1 + run1, live - 1u);
    // The rows before each row, over the whole tile.
    let row_before0 = vec4<T>(T(0), all0.x, all0.x + all0.y, all0.x + all0.y + all0.z);
    let rows0 = row_before0.w + all0.w; // rows 0 … 3
    let row_before1 = vec4<T>(rows0) + vec4<T>(T(0), all1.x, all1.x + all1.y, all1.x + all1.y + all1.z);
    let tile_total = row_before1.w + all1.w;
    if (rank == 0u) {
      if (tile == 0u) {
        publish(tile, INCLUSIVE, tile_total, mark);
      } else {
        publish(tile, AGGREGATE, tile_total, mark);
      }
    }
    // Each subgroup's offset within the tile, per row, in place of its totals.
    var base0 = row_before0 + ex0;
    var base1 = row_before1 + ex1;
    for (var g = first; g < last; g = g + 1u) {
      let s0 = subgroup_totals0[g];
      let s1 = subgroup_totals1[g];
      subgroup_totals0[g] = base0;
      subgroup_totals1[g] = base1;
      base0 = base0 + s0;
      base1 = base1 + s1;
    }
    let prefix = look_back(tile, mark, rank, live);
    if (rank == 0u) {
      if (tile > 0u) {
        publish(tile, INCLUSIVE, prefix + tile_total, mark);
      }
      tile_prefix = prefix;
    }
  }
  workgroupBarrier();

  // Rescan each vec4 serially from its offset and store (coalesced, like the loads).
  let offsets0 = vec4<T>(tile_prefix) + subgroup_totals0[k] + lane_before0;
  let offsets1 = vec4<T>(tile_prefix) + subgroup_totals1[k] + lane_before1;
  store_scanned(base + pos, x0, offsets0.x, vec_count);
  store_scanned(base + WORKGROUP_SIZE + pos, x1, offsets0.y, vec_count);
  store_scanned(base + 2u * WORKGROUP_SIZE + pos, x2, offsets0.z, vec_count);
  store_scanned(base + 3u * WORKGROUP_SIZE + pos, x3, offsets0.w, vec_count);
  store_scanned(base + 4u * WORKGROUP_SIZE + pos, x4, offsets1.x, vec_count);
  store_scanned(base + 5u * WORKGROUP_SIZE + pos, x5, offsets1.y, vec_count);
  store_scanned(base + 6u * WORKGROUP_SIZE + pos, x6, offsets1.z, vec_count);
  store_scanned(base + 7u * WORKGROUP_SIZE + pos, x7, offsets1.w, vec_count);
}

