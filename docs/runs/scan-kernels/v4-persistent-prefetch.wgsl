enable subgroups; diagnostic(off, subgroup_uniformity);
alias T = u32;
// Single-pass scan built for bandwidth: decoupled look-back with fallback (see single-pass.wgsl
// for why the fallback makes it safe without forward progress between workgroups), with 16
// elements per invocation in 4 vec4s, subgroup scans, a look-back that reads a whole subgroup's
// worth of predecessors at once, and a fallback that the whole workgroup runs. Line 2 names the
// element type (line 1 holds the directives): the lab swaps `u32` for `f32` or `i32` in place,
// keeping every line number. The `diagnostic` lets subgroup operations run inside the look-back's
// branch: only one subgroup takes it, whole, and every loop there exits on values the whole
// subgroup agrees on.
//
// Workgroup w scans tile w: WORKGROUP_SIZE · 4 vec4s (4 096 elements at 256 invocations).
//  1. Positions: each subgroup claims `live` consecutive positions and a subgroup number k with
//     one workgroup atomic, so nothing depends on how invocations form subgroups. A subgroup owns
//     the chunk of 4 · live vec4s from vec4 4 · (first position) of the tile, in 4 rows of `live`;
//     lane i holds vec4 i of each row, so every load and store instruction of a warp covers
//     consecutive vec4s (512 bytes at 32 lanes).
//  2. The aggregate comes first, because every later tile waits for it: each lane sums its rows
//     (as one vec4, component r = row r), one subgroupAdd gives the chunk's row totals, chunk
//     totals go to workgroup memory, one barrier, and subgroup 0 publishes the tile's sum.
//  3. Subgroup 0 looks back: lane i reads tile j − 1 − i, so one round trip to memory sees up to
//     `live` predecessors. It counts up to the nearest tile with an inclusive prefix once every
//     tile before that is ready, and publishes its own inclusive prefix. If a tile stays not ready
//     for SPIN_LIMIT reads, the whole workgroup reduces that tile from `input` (the fallback: one
//     load per vec4 of it, like the tile's own loads), and the look-back goes on from the tile
//     before. Every loop is bounded, so the scan finishes under any schedule, in any order of
//     workgroups. Meanwhile the other subgroups scan their chunks (one subgroupExclusiveAdd of the
//     row sums scans all 4 rows at once).
//  4. Barrier; every invocation rescans its vec4s serially from its offset and stores them.
// Status words (a ticket counter, then 2 per tile) are packed (flag << 16) | 16-bit half; flag =
// mark · 2 + kind (kind 0 aggregate, 1 inclusive prefix; mark 1 + dispatch % 2, 0 = never
// written). Both halves must carry the same flag: each (word, flag) is written once per dispatch,
// so two equal flags always belong to one published value. A half-written upgrade from aggregate
// to inclusive reads as not ready for that try. Repeated dispatches need no reset: every
// workgroup draws a ticket (tickets keep counting from dispatch to dispatch, so ticket / tiles is
// the dispatch number) and the mark alternates. The ticket is drawn while the loads are in flight
// and read after the first barrier, so it costs no wait. With COUNT_EVENTS the kernel also
// counts, in the 3 words after the tiles' (the benchmark allocates them): window reads, fallbacks
// and workgroups that looked back.
//
// The input and output bindings are vec4 arrays: the driver pads both to a multiple of 4 elements;
// elements at or past n read as 0, and what lands in the output's padding is not part of the scan.

override WORKGROUP_SIZE: u32 = 256;
override EXCLUSIVE: bool = false;   // false: inclusive; true: exclusive
override SPIN_LIMIT: u32 = 64;      // reads of a window before falling back; 0 always falls back
override COUNT_EVENTS: bool = false; // benchmarks only: count look-back events (see above)

struct Params {
  n: u32,               // elements in the scan (the buffers hold ceil(n / 4) vec4s)
  tile_count: u32,      // ceil(n / (WORKGROUP_SIZE · 16))
  workgroup_count: u32, // workgroups dispatched (each scans tiles until none is left)
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
const LOOKED_BACK = 0xffffffffu; // look_state once the look-back has its prefix

// (positions claimed << 16) | subgroups claimed. Workgroup memory starts zeroed.
var<workgroup> claim: atomic<u32>;
// Chunk totals by subgroup number (at most one subgroup per invocation); the fallback reuses it.
var<workgroup> chunk_totals: array<T, WORKGROUP_SIZE>;
var<workgroup> next_ticket: u32;
var<workgroup> look_state: u32; // LOOKED_BACK, or the tile the whole workgroup must reduce
var<workgroup> tile_prefix: T;  // the sum of every tile before this one

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

fn count_event(e: u32) {
  if (COUNT_EVENTS) {
    atomicAdd(&status[1u + 2u * params.tile_count + e], 1u);
  }
}

// The sum of `chunk_totals[0 … groups − 1]`, by one whole subgroup.
fn sum_of_chunks(groups: u32, rank: u32, live: u32) -> T {
  var s = T(0);
  for (var g = rank; g < groups; g = g + live) {
    s = s + chunk_totals[g];
  }
  return subgroupAdd(s);
}

// The inclusive prefix of tile t (tile 0 published its own with its aggregate).
fn publish_inclusive(t: u32, value: T, mark: u32) {
  if (t > 0u) {
    publish(t, INCLUSIVE, value, mark);
  }
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
  if (linear_workgroup_index(wid, nwg) >= params.workgroup_count) {
    return; // the last row of a folded grid may be partly empty; these take no ticket
  }
  // Claim positions (before the first barrier, so the count is final after it).
  let live = subgroupAdd(1u);          // lanes in this subgroup
  let rank = subgroupExclusiveAdd(1u); // 0 … live − 1
  var claimed = 0u;
  if (subgroupElect()) {
    claimed = atomicAdd(&claim, (live << 16u) | 1u);
  }
  claimed = subgroupBroadcastFirst(claimed);
  let k = claimed & 0xffffu;
  let first_pos = claimed >> 16u;
  let vec_count = (params.n + 3u) / 4u;
  // Tickets per dispatch: one per tile, then one per workgroup that finds none left.
  let round = params.tile_count + params.workgroup_count;

  if (lid == 0u) {
    next_ticket = atomicAdd(&status[0], 1u);
  }
  var ticket = workgroupUniformLoad(&next_ticket);
  var tile = ticket % round;
  if (tile >= params.tile_count) {
    return; // every tile is taken
  }
  // Lane rank's vec4 r (row r of its subgroup's chunk) of tile t is at t · tile_vecs + chunk + r · live.
  let tile_vecs = WORKGROUP_SIZE * 4u;
  let chunk = first_pos * 4u + rank;
  var here = tile * tile_vecs + chunk;
  var x0 = load_vec(here);
  var x1 = load_vec(here + live);
  var x2 = load_vec(here + 2u * live);
  var x3 = load_vec(here + 3u * live);

  loop {
    let mark = 1u + (ticket / round) % 2u;
    // The next ticket is drawn now and read after the barrier below, so it costs no wait.
    if (lid == 0u) {
      next_ticket = atomicAdd(&status[0], 1u);
    }
    // The aggregate first: the lane's sum of each row (component r = row r), the rows' totals
    // over the subgroup, the chunk's total to workgroup memory.
    let sums = vec4<T>((x0.x + x0.y) + (x0.z + x0.w), (x1.x + x1.y) + (x1.z + x1.w),
                       (x2.x + x2.y) + (x2.z + x2.w), (x3.x + x3.y) + (x3.z + x3.w));
    let rows = subgroupAdd(sums);
    if (subgroupElect()) {
      chunk_totals[k] = (rows.x + rows.y) + (rows.z + rows.w);
    }
    let drawn = workgroupUniformLoad(&next_ticket); // also the barrier after the chunk totals
    let next_tile = drawn % round;
    let more = next_tile < params.tile_count;
    // Prefetch: the next tile's loads are in flight while this tile looks back.
    let there = next_tile * tile_vecs + chunk;
    var y0 = vec4<T>(T(0));
    var y1 = vec4<T>(T(0));
    var y2 = vec4<T>(T(0));
    var y3 = vec4<T>(T(0));
    if (more) {
      y0 = load_vec(there);
      y1 = load_vec(there + live);
      y2 = load_vec(there + 2u * live);
      y3 = load_vec(there + 3u * live);
    }

    let groups = atomicLoad(&claim) & 0xffffu;
    var before = T(0); // chunks before this subgroup's
    var all = T(0);
    for (var g = rank; g < groups; g = g + live) {
      let s = chunk_totals[g];
      all = all + s;
      if (g < k) {
        before = before + s;
      }
    }
    before = subgroupAdd(before);
    let tile_total = subgroupAdd(all);
    if (k == 0u && rank == 0u) {
      if (tile == 0u) {
        publish(tile, INCLUSIVE, tile_total, mark);
      } else {
        publish(tile, AGGREGATE, tile_total, mark);
        count_event(2u);
      }
    }

    // The scan inside the chunk: row r's lanes before this one (one subgroup scan for all 4 rows).
    // The other subgroups do it while subgroup 0 looks back; subgroup 0 does it after.
    var lane_before = vec4<T>(T(0));
    if (k != 0u) {
      lane_before = subgroupExclusiveAdd(sums);
    }

    // The look-back (subgroup 0), interrupted by whole-workgroup fallbacks.
    var prefix = T(0);
    var j = tile; // tiles 0 … j − 1 are still to count
    loop {
      if (k == 0u) {
        var stuck = false;
        while (j > 0u && !stuck) {
          let valid = rank < j;
          let t = j - 1u - min(rank, j - 1u); // lane rank looks at tile j − 1 − rank
          var state = NOT_READY;
          var bits = 0u;
          var first_incl = live; // the nearest lane holding an inclusive prefix
          var first_wait = 0u;   // the nearest lane not ready (before any read: lane 0)
          for (var tries = 0u; tries < SPIN_LIMIT; tries = tries + 1u) {
            if (rank == 0u) {
              count_event(0u);
            }
            if (valid && state != INCLUSIVE) {
              let s = read_slot(t, mark);
              if (s.x != NOT_READY) { // a lane that saw an aggregate keeps it if the upgrade is half-seen
                state = s.x;
                bits = s.y;
              }
            }
            first_incl = subgroupMin(select(live, rank, valid && state == INCLUSIVE));
            first_wait = subgroupMin(select(live, rank, valid && state == NOT_READY));
            if (first_wait > first_incl || first_wait == live) {
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
            j = 0u; // the prefix is complete
          } else {
            j = j - min(limit, j);
            stuck = first_wait < live && j > 0u; // tile j − 1 stayed silent
          }
        }
        if (stuck) {
          if (rank == 0u) {
            look_state = j - 1u;
            count_event(1u);
          }
        } else {
          if (rank == 0u) {
            publish_inclusive(tile, prefix + tile_total, mark);
            tile_prefix = prefix;
            look_state = LOOKED_BACK;
          }
        }
      }
      // The barrier after look_state (and tile_prefix) is written, and before chunk_totals is
      // written again.
      let silent = workgroupUniformLoad(&look_state);
      if (silent == LOOKED_BACK) {
        break;
      }
      // The fallback: every invocation sums its vec4s of the silent tile.
      let at = silent * tile_vecs + chunk;
      let acc = (load_vec(at) + load_vec(at + live)) + (load_vec(at + 2u * live) + load_vec(at + 3u * live));
      let sum = subgroupAdd((acc.x + acc.y) + (acc.z + acc.w));
      if (subgroupElect()) {
        chunk_totals[k] = sum;
      }
      workgroupBarrier();
      if (k == 0u) {
        prefix = prefix + sum_of_chunks(groups, rank, live);
        j = silent;
      }
    }
    if (k == 0u) {
      lane_before = subgroupExclusiveAdd(sums);
    }

    let row_before = vec4<T>(T(0), rows.x, rows.x + rows.y, (rows.x + rows.y) + rows.z);
    let offsets = vec4<T>(tile_prefix + before) + row_before + lane_before;
    store_scanned(here, x0, offsets.x, vec_count);
    store_scanned(here + live, x1, offsets.y, vec_count);
    store_scanned(here + 2u * live, x2, offsets.z, vec_count);
    store_scanned(here + 3u * live, x3, offsets.w, vec_count);
    if (!more) {
      break;
    }
    ticket = drawn;
    tile = next_tile;
    here = there;
    x0 = y0;
    x1 = y1;
    x2 = y2;
    x3 = y3;
  }
}
