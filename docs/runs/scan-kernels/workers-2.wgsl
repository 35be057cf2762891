enable subgroups; diagnostic(off, subgroup_uniformity);
alias T = u32;
// Experiment (issue #29): independent workers inside one persistent workgroup. The workgroup of
// WORKGROUP_SIZE invocations is split into WORKERS workers; each worker scans tile after tile on its
// own, drawing a ticket only when it is free, with no workgroup barrier: its subgroups meet through
// tagged words in workgroup memory (each 32-bit value as two 16-bit halves, each beside the round's
// tag, as the tiles' status words carry a dispatch mark), so while one worker waits in its look-back
// the others on the SM keep loading. Subgroups are numbered lid / subgroup_size (true on NVIDIA).
// Spin-waits between subgroups of one workgroup need the subgroups to run concurrently: not a lab
// kernel (the simulator and SwiftShader run a subgroup until its next barrier).

override WORKGROUP_SIZE: u32 = 1024;
override SPIN_LIMIT: u32 = 64;
override COUNT_EVENTS: bool = false;
const WAIT_LIMIT = 65536u; // reads of a workgroup word before giving up (counted: never expected)
// Event e in the word after the tiles' status (the harness reads 0, 1 and 2 as "reads", "fallbacks"
// and "tiles"): 0 a wait on another subgroup gave up, 1 a tile's predecessor fell back, 2 a tile.
fn count_event(e: u32) {
  if (COUNT_EVENTS) {
    atomicAdd(&status[1u + 2u * params.tile_count + e], 1u);
  }
}
const WORKERS = 2u; // independent workers per workgroup
const ROWS = 8u;    // vec4s per invocation
const VECS = 4u;    // ROWS / WORKERS: the tile is WORKGROUP_SIZE · VECS vec4s (read by the harness)

struct Params { n: u32, tile_count: u32, workgroup_count: u32 }

@group(0) @binding(0) var<storage, read> input: array<vec4<T>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<T>>;
@group(0) @binding(2) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> params: Params;

const NOT_READY = 0u;
const AGGREGATE = 1u;
const INCLUSIVE = 2u;

// Subgroup s: box[4s], box[4s + 1] its total; box[4s + 2], box[4s + 3] its offset. Worker w's
// ticket: box[WORKGROUP_SIZE + 2w], + 1. Subgroups have at least 4 invocations.
var<workgroup> box: array<atomic<u32>, WORKGROUP_SIZE + 2u * WORKERS>;

fn give(i: u32, tag: u32, v: u32) {
  atomicStore(&box[i], (tag << 16u) | (v & 0xffffu));
  atomicStore(&box[i + 1u], (tag << 16u) | (v >> 16u));
}
// (1, value) once both halves carry `tag`, else (0, 0).
fn take(i: u32, tag: u32) -> vec2<u32> {
  let lo = atomicLoad(&box[i]);
  let hi = atomicLoad(&box[i + 1u]);
  if ((lo >> 16u) == tag && (hi >> 16u) == tag) {
    return vec2<u32>(1u, (hi << 16u) | (lo & 0xffffu));
  }
  return vec2<u32>(0u, 0u);
}
// Every lane of the subgroup reads the same word; the loop ends for all lanes at once.
// (1, value), or (0, 0) after WAIT_LIMIT reads.
fn wait_get(i: u32, tag: u32) -> vec2<u32> {
  for (var tries = 0u; tries < WAIT_LIMIT; tries = tries + 1u) {
    let g = take(i, tag);
    if (subgroupAll(g.x == 1u)) {
      return g;
    }
  }
  count_event(0u);
  return vec2<u32>(0u, 0u);
}

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

fn reduce_tile(t: u32, rank: u32, live: u32) -> T {
  let size = (WORKGROUP_SIZE / WORKERS) * ROWS;
  let first = t * size;
  var acc = vec4<T>(T(0));
  for (var q = rank; q < size; q = q + live) {
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
  if (vi < vec_count) {
    output[vi] = vec4<T>(offset) + vec4<T>(s1, s2, s3, s3 + v.w);
  }
}

fn tag_of(round: u32) -> u32 {
  return 1u + round % 0xffffu; // never 0 (workgroup memory starts zeroed)
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(subgroup_invocation_id) rank: u32,
        @builtin(subgroup_size) live: u32) {
  if (linear_workgroup_index(wid, nwg) >= params.workgroup_count) {
    return;
  }
  let worker_size = WORKGROUP_SIZE / WORKERS;
  let worker = lid / worker_size;
  let sub = lid / live;                  // subgroup in the workgroup
  let subs = worker_size / live;         // subgroups in a worker
  let first_sub = worker * subs;
  let k = sub - first_sub;               // subgroup in the worker
  let tkt = WORKGROUP_SIZE + 2u * worker;
  let round_len = params.tile_count + params.workgroup_count * WORKERS;
  let vec_count = (params.n + 3u) / 4u;
  // The worker leader's lanes each gather a run of `per` subgroups' totals.
  let per = (subs + live - 1u) / live;
  let g_first = min(rank * per, subs);
  let g_last = min(g_first + per, subs);

  var round = 0u;
  if (k == 0u) {
    var d = 0u;
    if (rank == 0u) {
      d = atomicAdd(&status[0], 1u);
      give(tkt, tag_of(round), d);
    }
  }
  loop {
    let tag = tag_of(round);
    let got_ticket = wait_get(tkt, tag);
    if (got_ticket.x == 0u) {
      break; // gave up (counted): never expected
    }
    let drawn = got_ticket.y;
    let tile = drawn % round_len;
    if (tile >= params.tile_count) {
      break;
    }
    let mark = 1u + (drawn / round_len) % 2u;
    if (k == 0u && rank == 0u) {
      count_event(2u);
    }
    let base = tile * worker_size * ROWS + k * live * ROWS + rank; // row r at base + r · live
    var x0: vec4<T>;
    var x1: vec4<T>;
    var x2: vec4<T>;
    var x3: vec4<T>;
    var x4: vec4<T>;
    var x5: vec4<T>;
    var x6: vec4<T>;
    var x7: vec4<T>;
    if (tile + 1u < params.tile_count) {
      x0 = input[base];
      x1 = input[base + live];
      x2 = input[base + 2u * live];
      x3 = input[base + 3u * live];
      x4 = input[base + 4u * live];
      x5 = input[base + 5u * live];
      x6 = input[base + 6u * live];
      x7 = input[base + 7u * live];
    } else {
      x0 = load_vec(base);
      x1 = load_vec(base + live);
      x2 = load_vec(base + 2u * live);
      x3 = load_vec(base + 3u * live);
      x4 = load_vec(base + 4u * live);
      x5 = load_vec(base + 5u * live);
      x6 = load_vec(base + 6u * live);
      x7 = load_vec(base + 7u * live);
    }
    let sums0 = vec4<T>(x0.x + x0.y + x0.z + x0.w, x1.x + x1.y + x1.z + x1.w,
                        x2.x + x2.y + x2.z + x2.w, x3.x + x3.y + x3.z + x3.w);
    let sums1 = vec4<T>(x4.x + x4.y + x4.z + x4.w, x5.x + x5.y + x5.z + x5.w,
                        x6.x + x6.y + x6.z + x6.w, x7.x + x7.y + x7.z + x7.w);
    let ex0 = subgroupExclusiveAdd(sums0);
    let ex1 = subgroupExclusiveAdd(sums1);
    let t0 = subgroupShuffle(ex0 + sums0, live - 1u);
    let t1 = subgroupShuffle(ex1 + sums1, live - 1u);
    // This subgroup's rows are consecutive: row r starts after rows 0 … r − 1.
    let row_before0 = vec4<T>(T(0), t0.x, t0.x + t0.y, t0.x + t0.y + t0.z);
    let rows0 = row_before0.w + t0.w;
    let row_before1 = vec4<T>(rows0) + vec4<T>(T(0), t1.x, t1.x + t1.y, t1.x + t1.y + t1.z);
    let sub_total = row_before1.w + t1.w;
    if (rank == 0u) {
      give(4u * sub, tag, bitcast<u32>(sub_total));
    }
    if (k == 0u) {
      var run = T(0);
      var got = false;
      for (var tries = 0u; tries < WAIT_LIMIT; tries = tries + 1u) {
        if (!got) {
          var all = true;
          var sum = T(0);
          for (var g = g_first; g < g_last; g = g + 1u) {
            let v = take(4u * (first_sub + g), tag);
            all = all && v.x == 1u;
            sum = sum + bitcast<T>(v.y);
          }
          got = all;
          run = sum;
        }
        if (subgroupAll(got)) {
          break;
        }
      }
      if (rank == 0u && !subgroupAll(got)) {
        count_event(0u);
      }
      let ex = subgroupExclusiveAdd(run);
      let total = subgroupShuffle(ex + run, live - 1u);
      if (rank == 0u) {
        publish(tile, select(AGGREGATE, INCLUSIVE, tile == 0u), total, mark);
      }
      let prefix = look_back(tile, mark, rank, live);
      if (rank == 0u && tile > 0u) {
        publish(tile, INCLUSIVE, prefix + total, mark);
      }
      var b = prefix + ex;
      for (var g = g_first; g < g_last; g = g + 1u) {
        let s = bitcast<T>(take(4u * (first_sub + g), tag).y);
        give(4u * (first_sub + g) + 2u, tag, bitcast<u32>(b));
        b = b + s;
      }
      if (rank == 0u) {
        give(tkt, tag_of(round + 1u), atomicAdd(&status[0], 1u));
      }
    }
    let offset = bitcast<T>(wait_get(4u * sub + 2u, tag).y);
    let o0 = vec4<T>(offset) + row_before0 + ex0;
    let o1 = vec4<T>(offset) + row_before1 + ex1;
    store_scanned(base, x0, o0.x, vec_count);
    store_scanned(base + live, x1, o0.y, vec_count);
    store_scanned(base + 2u * live, x2, o0.z, vec_count);
    store_scanned(base + 3u * live, x3, o0.w, vec_count);
    store_scanned(base + 4u * live, x4, o1.x, vec_count);
    store_scanned(base + 5u * live, x5, o1.y, vec_count);
    store_scanned(base + 6u * live, x6, o1.z, vec_count);
    store_scanned(base + 7u * live, x7, o1.w, vec_count);
    round = round + 1u;
  }
}
