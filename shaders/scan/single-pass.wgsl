alias T = u32;
// Single-pass scan: decoupled look-back with fallback, safe without forward progress between
// workgroups. Line 1 names the element type: the lab swaps `u32` for `f32` or `i32` in place,
// keeping every line number.
//
// Each workgroup scans a tile of WORKGROUP_SIZE · ITEMS elements, publishes the tile's aggregate
// at once, then looks back over its predecessors' published values to learn the sum of everything
// before it, publishes its own inclusive prefix, and writes its tile. Data is read once and
// written once: 2·4 bytes per element, like a copy (a multi-pass scan moves about twice that).
//
// Why this is safe on WebGPU, which promises no forward progress between workgroups (a workgroup
// that spins waiting on another may starve it forever, e.g. when they share one core):
//  • Nobody waits unboundedly. A look-back reads a predecessor's slot at most SPIN_LIMIT times;
//    if the slot is still empty, the workgroup reduces that predecessor's tile itself from
//    `input` (the "fallback") and moves one tile further back. Every loop is bounded, so the
//    scan finishes under any schedule; fallbacks only cost extra reads.
//  • Published values need no ordering between memory words. WGSL atomics are relaxed, so a flag
//    stored after a value in another word may become visible first. Instead each 32-bit value is
//    split into two atomic words, (mark << 16) | 16-bit half: each word carries its own "ready"
//    mark and its own half, and each is written once per dispatch, so two ready halves always
//    belong together.
//  • Tiles are handed out by ticket (atomicAdd on status[0]) in the order workgroups start,
//    not by workgroup_id; fewer fallbacks, since a tile's predecessors have usually started.
//  • Repeated dispatches on the same buffers (timing) need no reset: tickets keep counting, so
//    dispatch d = ticket / tile_count, and its mark is 1 + d % 2 (0 = never written). A slot left
//    by the previous dispatch carries the other mark and reads as not ready. (Valid while the
//    ticket counter stays below 2^32, i.e. 2^32 / tile_count dispatches per buffer.)
// Floating point: a tile's prefix is summed in whichever order the look-back met published values,
// so f32 results can differ in the last bits from run to run; u32 and i32 are exact.

override WORKGROUP_SIZE: u32 = 256;
override ITEMS: u32 = 8;          // consecutive elements per invocation
override EXCLUSIVE: bool = false; // false: inclusive; true: exclusive
override SPIN_LIMIT: u32 = 64;    // reads of one slot before falling back

struct Params {
  n: u32,          // elements in `input`
  tile_count: u32, // ceil(n / (WORKGROUP_SIZE · ITEMS))
}

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
// status[0]: ticket counter. Tile t's slot is status[1 + 4t …]: aggregate (lo, hi), inclusive
// prefix (lo, hi). Zeroed before the first dispatch, never reset after.
@group(0) @binding(2) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> params: Params;

const NOT_READY = 0u;
const AGGREGATE = 1u; // the tile's own sum
const INCLUSIVE = 2u; // the sum of the tile and everything before it

// The tile, indices padded by i >> 5 (see blelloch-padded.wgsl): invocation lid reads words
// lid·ITEMS + r, which unpadded would put lanes k and k + 32/ITEMS on one bank.
var<workgroup> tile_mem: array<T, WORKGROUP_SIZE * ITEMS + (WORKGROUP_SIZE * ITEMS) / 32>;
var<workgroup> scratch: array<T, 2 * WORKGROUP_SIZE>; // Hillis–Steele over invocation sums
var<workgroup> ticket: u32;
var<workgroup> look_state: u32;
var<workgroup> look_value: T;

fn pad(i: u32) -> u32 {
  return i + (i >> 5u);
}

struct Scanned {
  exclusive: T, // sum of the values of invocations before this one
  total: T,     // sum over the workgroup
}

// Scans one value per invocation (Hillis–Steele, double-buffered). Call in uniform control flow.
fn scan_workgroup(lid: u32, x: T) -> Scanned {
  workgroupBarrier(); // a previous call's readers are done with scratch
  scratch[lid] = x;
  var cur = 0u;
  for (var offset = 1u; offset < WORKGROUP_SIZE; offset = offset * 2u) {
    workgroupBarrier();
    let nxt = WORKGROUP_SIZE - cur;
    if (lid >= offset) {
      scratch[nxt + lid] = scratch[cur + lid - offset] + scratch[cur + lid];
    } else {
      scratch[nxt + lid] = scratch[cur + lid];
    }
    cur = nxt;
  }
  workgroupBarrier();
  var before = T(0);
  if (lid > 0u) {
    before = scratch[cur + lid - 1u];
  }
  return Scanned(before, scratch[cur + WORKGROUP_SIZE - 1u]);
}

// The fallback: tile t's sum, computed from `input`. Coalesced: round r reads words
// r·W + lid of the tile. Call in uniform control flow.
fn reduce_tile(t: u32, lid: u32) -> T {
  let base = t * WORKGROUP_SIZE * ITEMS;
  var sum = T(0);
  for (var r = 0u; r < ITEMS; r = r + 1u) {
    let i = base + r * WORKGROUP_SIZE + lid;
    if (i < params.n) {
      sum = sum + input[i];
    }
  }
  return scan_workgroup(lid, sum).total;
}

fn publish(t: u32, kind: u32, value: T, mark: u32) {
  let bits = bitcast<u32>(value);
  let slot = 1u + 4u * t + 2u * (kind - 1u); // AGGREGATE → +0, INCLUSIVE → +2
  atomicStore(&status[slot], (mark << 16u) | (bits & 0xffffu));
  atomicStore(&status[slot + 1u], (mark << 16u) | (bits >> 16u));
}

// Lane 0 only: reads tile t's slot up to SPIN_LIMIT times; leaves the state in look_state and
// the value in look_value.
fn look_at(t: u32, mark: u32) {
  let slot = 1u + 4u * t;
  for (var tries = 0u; tries < SPIN_LIMIT; tries = tries + 1u) {
    let inc_lo = atomicLoad(&status[slot + 2u]);
    let inc_hi = atomicLoad(&status[slot + 3u]);
    if ((inc_lo >> 16u) == mark && (inc_hi >> 16u) == mark) {
      look_state = INCLUSIVE;
      look_value = bitcast<T>((inc_hi << 16u) | (inc_lo & 0xffffu));
      return;
    }
    let agg_lo = atomicLoad(&status[slot]);
    let agg_hi = atomicLoad(&status[slot + 1u]);
    if ((agg_lo >> 16u) == mark && (agg_hi >> 16u) == mark) {
      look_state = AGGREGATE;
      look_value = bitcast<T>((agg_hi << 16u) | (agg_lo & 0xffffu));
      return;
    }
  }
  look_state = NOT_READY;
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
  let drawn = workgroupUniformLoad(&ticket);
  let tile = drawn % params.tile_count;
  let mark = 1u + (drawn / params.tile_count) % 2u;
  let base = tile * WORKGROUP_SIZE * ITEMS;

  // Load the tile coalesced (round r: words r·W + lid), then each invocation sums its ITEMS
  // consecutive elements and the workgroup scans those sums.
  for (var r = 0u; r < ITEMS; r = r + 1u) {
    let j = r * WORKGROUP_SIZE + lid;
    var v = T(0); // past the end, pad with the identity
    if (base + j < params.n) {
      v = input[base + j];
    }
    tile_mem[pad(j)] = v;
  }
  workgroupBarrier();
  var own = T(0);
  for (var r = 0u; r < ITEMS; r = r + 1u) {
    own = own + tile_mem[pad(lid * ITEMS + r)];
  }
  let scanned = scan_workgroup(lid, own);

  // Publish at once: tile 0's aggregate is already its inclusive prefix.
  if (lid == 0u) {
    if (tile == 0u) {
      publish(tile, INCLUSIVE, scanned.total, mark);
    } else {
      publish(tile, AGGREGATE, scanned.total, mark);
    }
  }

  // Look back: add predecessors' values right to left until one publishes its inclusive prefix.
  var prefix = T(0);
  var j = tile;            // predecessors left to look at: tiles j − 1, j − 2, …, 0
  var done = tile == 0u;
  while (!done) {
    j = j - 1u;
    if (lid == 0u) {
      look_at(j, mark);
    }
    let state = workgroupUniformLoad(&look_state);
    if (state == NOT_READY) {
      prefix = reduce_tile(j, lid) + prefix;
    } else {
      prefix = look_value + prefix;
    }
    workgroupBarrier(); // all have read look_value before lane 0 looks again
    done = state == INCLUSIVE || j == 0u;
  }
  if (lid == 0u && tile > 0u) {
    publish(tile, INCLUSIVE, prefix + scanned.total, mark);
  }

  // Rescan this invocation's ITEMS elements from its prefix, then store coalesced.
  var running = prefix + scanned.exclusive;
  for (var r = 0u; r < ITEMS; r = r + 1u) {
    let p = pad(lid * ITEMS + r);
    let v = tile_mem[p];
    if (EXCLUSIVE) {
      tile_mem[p] = running;
      running = running + v;
    } else {
      running = running + v;
      tile_mem[p] = running;
    }
  }
  workgroupBarrier();
  for (var r = 0u; r < ITEMS; r = r + 1u) {
    let j2 = r * WORKGROUP_SIZE + lid;
    if (base + j2 < params.n) {
      output[base + j2] = tile_mem[pad(j2)];
    }
  }
}
