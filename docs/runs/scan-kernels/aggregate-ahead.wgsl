enable subgroups; diagnostic(off, subgroup_uniformity);
alias T = u32;
// Experiment (issue 29, 2026-11-28): a persistent single-pass scan whose tiles publish their
// aggregate a whole turn before they look back. Read shaders/scan/single-pass-warp-totals.wgsl
// first (status words, look-back with fallback, positions, subgroup 0 scanning the totals).
//
// Why: in the shipped kernels a tile looks back right after publishing its own aggregate, so it
// waits whenever a predecessor's loads landed later than its own (8-11 points on the H100), and
// the SM loads nothing during the look-back's round trip (5-6 points). Here each workgroup holds
// two tiles of 4 vec4 rows: the current one A (loaded, its aggregate already published) and the
// next one B (its loads in flight). A loop turn:
//  1. Subgroup 0 draws the ticket of the tile after B (C) and looks back for A. A's predecessors
//     published their aggregates about a turn ago, so the window is almost always ready; the
//     round trip overlaps B's loads. Meanwhile the other subgroups sum and scan B's rows.
//  2. Barrier. Subgroup 0 scans B's subgroup totals and publishes B's aggregate at once (its
//     look-back comes a turn later). Everyone stores A, moves B into A's registers, and issues
//     C's loads.
//  3. Barrier (B's offsets). A := B, B := C.
// Workgroups draw tickets until one is past the last tile, exactly one such ticket each, so a
// dispatch draws tile_count + workgroup_count tickets (the mark alternates with the dispatch).
// With COUNT_EVENTS (benchmarks only): window reads, fallbacks, look-backs, after the status words.

override WORKGROUP_SIZE: u32 = 256;
override EXCLUSIVE: bool = false;
override SPIN_LIMIT: u32 = 64;
override COUNT_EVENTS: bool = false;

const VECS = 4u; // vec4s per invocation per tile

struct Params {
  n: u32,
  tile_count: u32,      // ceil(n / (WORKGROUP_SIZE · 16))
  workgroup_count: u32, // workgroups that take part
}

@group(0) @binding(0) var<storage, read> input: array<vec4<T>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<T>>;
@group(0) @binding(2) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> params: Params;

const NOT_READY = 0u;
const AGGREGATE = 1u;
const INCLUSIVE = 2u;

var<workgroup> claim: atomic<u32>;
// Subgroup k's row totals of the next tile at [k]; after subgroup 0's scan, its offsets.
var<workgroup> totals: array<vec4<T>, WORKGROUP_SIZE / 4u>;
var<workgroup> first_ticket: u32;
var<workgroup> tickets: array<u32, 2>; // drawn a turn ahead, alternating slots
var<workgroup> tile_prefix: T;

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

fn read_slot(t: u32, mark: u32) -> vec2<u32> {
  let lo = atomicLoad(&status[1u + 2u * t]);
  let hi = atomicLoad(&status[2u + 2u * t]);
  let flag = lo >> 16u;
  if (flag == (hi >> 16u) && (flag >> 1u) == mark) {
    return vec2<u32>(1u + (flag & 1u), (hi << 16u) | (lo & 0xffffu));
  }
  return vec2<u32>(NOT_READY, 0u);
}

fn count_event(e: u32) {
  if (COUNT_EVENTS) {
    atomicAdd(&status[1u + 2u * params.tile_count + e], 1u);
  }
}

fn reduce_tile(t: u32, rank: u32, live: u32) -> T {
  let first = t * WORKGROUP_SIZE * VECS;
  var acc = vec4<T>(T(0));
  for (var q = rank; q < WORKGROUP_SIZE * VECS; q = q + live) {
    acc = acc + load_vec(first + q);
  }
  return subgroupAdd(acc.x + acc.y + acc.z + acc.w);
}

fn look_back(tile: u32, mark: u32, rank: u32, live: u32) -> T {
  var prefix = T(0);
  var j = tile;
  while (j > 0u) {
    let valid = rank < j;
    let t = j - 1u - min(rank, j - 1u);
    var state = NOT_READY;
    var bits = 0u;
    var first_incl = live;
    var first_wait = 0u;
    for (var tries = 0u; tries < SPIN_LIMIT; tries = tries + 1u) {
      if (rank == 0u) {
        count_event(0u);
      }
      if (valid && state != INCLUSIVE) {
        let s = read_slot(t, mark);
        if (s.x != NOT_READY) {
          state = s.x;
          bits = s.y;
        }
      }
      first_incl = subgroupMin(select(live, rank, valid && state == INCLUSIVE));
      first_wait = subgroupMin(select(live, rank, valid && state == NOT_READY));
      if (first_wait > first_incl || first_wait == live) {
        break;
      }
    }
    var limit = first_wait;
    if (first_incl < first_wait) {
      limit = first_incl + 1u;
    }
    prefix = prefix + subgroupAdd(select(T(0), bitcast<T>(bits), valid && rank < limit));
    if (first_incl < first_wait) {
      break;
    }
    j = j - min(limit, j);
    if (first_wait < live && j > 0u) {
      if (rank == 0u) {
        count_event(1u);
      }
      prefix = prefix + reduce_tile(j - 1u, rank, live);
      j = j - 1u;
    }
  }
  return prefix;
}

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

// Subgroup 0's part after a tile's subgroup totals are in `totals`: scans them, writes each
// subgroup's offset within the tile back in place, and returns the tile's total.
fn scan_totals(rank: u32, live: u32) -> T {
  let groups = atomicLoad(&claim) & 0xffffu;
  let per = (groups + live - 1u) / live;
  let first = min(rank * per, groups);
  let last = min(first + per, groups);
  var run = vec4<T>(T(0));
  for (var g = first; g < last; g = g + 1u) {
    run = run + totals[g];
  }
  let ex = subgroupExclusiveAdd(run);
  let all = subgroupShuffle(ex + run, live - 1u);
  let row_before = vec4<T>(T(0), all.x, all.x + all.y, all.x + all.y + all.z);
  var offset = row_before + ex;
  for (var g = first; g < last; g = g + 1u) {
    let s = totals[g];
    totals[g] = offset;
    offset = offset + s;
  }
  return row_before.w + all.w;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  if (linear_workgroup_index(wid, nwg) >= params.workgroup_count) {
    return;
  }
  if (lid == 0u) {
    first_ticket = atomicAdd(&status[0], 1u);
  }
  let live = subgroupAdd(1u);
  let rank = subgroupExclusiveAdd(1u);
  var claimed = 0u;
  if (subgroupElect()) {
    claimed = atomicAdd(&claim, (live << 16u) | 1u);
  }
  claimed = subgroupBroadcastFirst(claimed);
  let k = claimed & 0xffffu;
  let pos = (claimed >> 16u) + rank;
  let round = params.tile_count + params.workgroup_count; // tickets drawn per dispatch
  let vec_count = (params.n + 3u) / 4u;
  let last_whole = params.tile_count - 1u;

  let drawn = workgroupUniformLoad(&first_ticket);
  var tile = drawn % round;
  if (tile >= params.tile_count) {
    return;
  }
  let mark = 1u + (drawn / round) % 2u;
  if (lid == 0u) {
    tickets[0] = atomicAdd(&status[0], 1u); // the second tile's ticket
  }

  // Prologue: the first tile's loads, scans and aggregate, as in the loop's steps for B.
  var base = tile * WORKGROUP_SIZE * VECS;
  var x0 = load_vec(base + pos);
  var x1 = load_vec(base + WORKGROUP_SIZE + pos);
  var x2 = load_vec(base + 2u * WORKGROUP_SIZE + pos);
  var x3 = load_vec(base + 3u * WORKGROUP_SIZE + pos);
  var sums = vec4<T>(x0.x + x0.y + x0.z + x0.w, x1.x + x1.y + x1.z + x1.w,
                     x2.x + x2.y + x2.z + x2.w, x3.x + x3.y + x3.z + x3.w);
  var lane_before = subgroupExclusiveAdd(sums);
  var subgroup_total = subgroupShuffle(lane_before + sums, live - 1u);
  if (subgroupElect()) {
    totals[k] = subgroup_total;
  }
  workgroupBarrier();
  var a_total = T(0); // subgroup 0 only: the current tile's total
  if (k == 0u) {
    a_total = scan_totals(rank, live);
    if (rank == 0u) {
      publish(tile, select(AGGREGATE, INCLUSIVE, tile == 0u), a_total, mark);
    }
  }
  var next = workgroupUniformLoad(&tickets[0]) % round;
  var a_off = totals[k] + lane_before; // offsets of the current tile's rows within it
  var more = next < params.tile_count;
  var next_base = next * WORKGROUP_SIZE * VECS;
  var y0 = vec4<T>(T(0));
  var y1 = vec4<T>(T(0));
  var y2 = vec4<T>(T(0));
  var y3 = vec4<T>(T(0));
  if (next < last_whole) {
    y0 = input[next_base + pos];
    y1 = input[next_base + WORKGROUP_SIZE + pos];
    y2 = input[next_base + 2u * WORKGROUP_SIZE + pos];
    y3 = input[next_base + 3u * WORKGROUP_SIZE + pos];
  } else if (more) {
    y0 = load_vec(next_base + pos);
    y1 = load_vec(next_base + WORKGROUP_SIZE + pos);
    y2 = load_vec(next_base + 2u * WORKGROUP_SIZE + pos);
    y3 = load_vec(next_base + 3u * WORKGROUP_SIZE + pos);
  }
  var slot = 1u;

  loop {
    // 1. Subgroup 0: the ticket after B, then A's look-back (over B's loads in flight).
    if (k == 0u) {
      if (more && rank == 0u) {
        tickets[slot] = atomicAdd(&status[0], 1u);
      }
      if (rank == 0u) {
        count_event(2u);
      }
      let prefix = look_back(tile, mark, rank, live);
      if (rank == 0u) {
        if (tile > 0u) {
          publish(tile, INCLUSIVE, prefix + a_total, mark);
        }
        tile_prefix = prefix;
      }
    }
    // Every subgroup: B's row sums and subgroup scans.
    if (more) {
      sums = vec4<T>(y0.x + y0.y + y0.z + y0.w, y1.x + y1.y + y1.z + y1.w,
                     y2.x + y2.y + y2.z + y2.w, y3.x + y3.y + y3.z + y3.w);
      lane_before = subgroupExclusiveAdd(sums);
      subgroup_total = subgroupShuffle(lane_before + sums, live - 1u);
      if (subgroupElect()) {
        totals[k] = subgroup_total;
      }
    }
    workgroupBarrier();
    // 2. B's aggregate at once; then A's stores.
    if (more && k == 0u) {
      a_total = scan_totals(rank, live);
      if (rank == 0u) {
        publish(next, select(AGGREGATE, INCLUSIVE, next == 0u), a_total, mark);
      }
    }
    let a_prefix = tile_prefix;
    store_scanned(base + pos, x0, a_prefix + a_off.x, vec_count);
    store_scanned(base + WORKGROUP_SIZE + pos, x1, a_prefix + a_off.y, vec_count);
    store_scanned(base + 2u * WORKGROUP_SIZE + pos, x2, a_prefix + a_off.z, vec_count);
    store_scanned(base + 3u * WORKGROUP_SIZE + pos, x3, a_prefix + a_off.w, vec_count);
    if (!more) {
      break;
    }
    // B moves into A's registers; C's loads go out before the barrier.
    x0 = y0;
    x1 = y1;
    x2 = y2;
    x3 = y3;
    tile = next;
    base = next_base;
    let after = tickets[slot] % round; // written before the barrier above
    next_base = after * WORKGROUP_SIZE * VECS;
    if (after < last_whole) {
      y0 = input[next_base + pos];
      y1 = input[next_base + WORKGROUP_SIZE + pos];
      y2 = input[next_base + 2u * WORKGROUP_SIZE + pos];
      y3 = input[next_base + 3u * WORKGROUP_SIZE + pos];
    } else if (after < params.tile_count) {
      y0 = load_vec(next_base + pos);
      y1 = load_vec(next_base + WORKGROUP_SIZE + pos);
      y2 = load_vec(next_base + 2u * WORKGROUP_SIZE + pos);
      y3 = load_vec(next_base + 3u * WORKGROUP_SIZE + pos);
    }
    // 3. B's offsets, and the same ticket as a uniform value for the loop's control.
    next = workgroupUniformLoad(&tickets[slot]) % round;
    more = next < params.tile_count;
    a_off = totals[k] + lane_before;
    slot = 1u - slot;
  }
}
