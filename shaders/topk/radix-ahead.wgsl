// Top-k by a rising floor, as `radix`, with four changes measured on the H100 (docs/benchmarks.md):
// - Loads a round ahead: each invocation issues its two vec4 loads of the next round before it
//   compares and pools the current one, so the memory system is busy while the workgroup waits
//   at the round's barriers and cuts its pool.
// - Short cuts: a cut during the stream descends the key's 8-bit digits only until at most
//   CUT_KEEP values would stay (usually one digit: the pool keeps the whole bucket that holds its
//   K-th value, at least K values, and the floor rises to the bucket's lower edge). Only the last
//   cut finds the exact K-th value (all four digits).
// - A shared floor: pass 1 raises one word, `shared_floor`, to the highest K-th value of any
//   workgroup's list (atomicMax on the key). Pass 2 considers only the values at or above it: some
//   list holds K of them, so nothing below can be among the K largest.
// - Pass 2 picks (`pick`, below) by a radix select on each value's distance above that floor, not
//   through the pool: the candidates lie close above the floor, so the select starts at the digit
//   where they differ and usually keeps at most CUT_KEEP of them after one histogram.
// Duplicates are kept (the usual top-k). Equal values are interchangeable, so the pool's order (set
// by atomics, as is the order of pass 2's gathered values) never shows: the output is the same
// whatever order the invocations run in.
const WORKGROUP_SIZE: u32 = 256u;
// Values kept (1…64).
override K: u32 = 20;
// Words of the pool: at least CUT_KEEP + 8 × WORKGROUP_SIZE (set by the driver).
override POOL: u32 = 3072;
// A cut during the stream stops at the first digit that leaves at most this many values (≥ 64).
override CUT_KEEP: u32 = 256;

struct Params {
  quads: u32, // vec4s in `input`
  pass2: u32, // 0: pass 1 (publish the K-th value); 1: pass 2 (pick from the shared floor)
}

@group(0) @binding(0) var<storage, read> input: array<vec4<i32>>;
@group(0) @binding(1) var<storage, read_write> output: array<i32>;
@group(0) @binding(2) var<uniform> params: Params;
// The highest K-th value of a full list so far, as a key (0: none yet).
@group(0) @binding(3) var<storage, read_write> shared_floor: atomic<u32>;

// The values above the floor, in the order their atomics were served.
var<workgroup> pool: array<i32, POOL>;
var<workgroup> pooled: atomic<u32>;
// pooled, copied to a plain word so the whole workgroup can read it as one value.
var<workgroup> pool_size: u32;
// The current floor: a value enters the pool only when it is above it.
var<workgroup> floor_value: i32;
// Radix select: the histogram of one digit, the sums of its 16 groups of 16 bins, the bucket
// found with the count still needed inside it, and what a stop there would keep.
var<workgroup> bins: array<atomic<u32>, 256>;
var<workgroup> groups16: array<u32, 16>;
var<workgroup> chosen: array<u32, 2>;
var<workgroup> keep_if_stop: u32;
// The values kept by a cut, gathered before they go back to the start of the pool.
var<workgroup> kept: array<i32, CUT_KEEP>;
var<workgroup> kept_count: atomic<u32>;
// Pass 2's pick: the largest distance above the shared floor, and how many values reach the floor.
var<workgroup> widest: atomic<u32>;
var<workgroup> reaching: atomic<u32>;
var<workgroup> floor_key: u32;

const LOWEST: i32 = -2147483647i - 1i;

// The value as an unsigned key in the same order: the sign bit flipped.
fn key(v: i32) -> u32 {
  return bitcast<u32>(v) ^ 0x80000000u;
}

// After a histogram of `bins`: the bucket, from the top, that holds the `need`-th value, into
// `chosen` (the bucket, and the count still needed inside it) and `keep_if_stop` (what a stop
// there would keep: the values above the bucket, the bucket, and the K − need found before).
// Found by one invocation: the 16 groups of 16 bins summed by 16 invocations, then a walk down
// the groups and down the bins of the group that reaches `need` (32 reads in one invocation
// instead of 32 in every one: the other workgroups on the SM keep their loads going meanwhile).
// Called by the whole workgroup; `chosen` and `keep_if_stop` are read after a barrier.
fn bucket(lid: u32, need: u32) {
  if (lid < 16u) {
    var total = 0u;
    for (var x = 0u; x < 16u; x++) {
      total += atomicLoad(&bins[16u * lid + x]);
    }
    groups16[lid] = total;
  }
  workgroupBarrier();
  if (lid == 0u) {
    var above = 0u; // values of the matching keys in the buckets above the one being looked at
    var g = 15u;
    for (; g > 0u; g--) {
      if (above + groups16[g] >= need) {
        break;
      }
      above += groups16[g];
    }
    var b = 16u * g + 15u;
    for (; b > 16u * g; b--) {
      let here = atomicLoad(&bins[b]);
      if (above + here >= need) {
        break;
      }
      above += here;
    }
    chosen[0] = b;
    chosen[1] = need - above;
    // Stopping here keeps the values above the bucket's keys and the whole bucket.
    keep_if_stop = K - need + above + atomicLoad(&bins[b]);
  }
}

// Cuts the pool's `size` values (size ≥ K) down and raises the floor. `exact`: keep exactly the K
// largest, floor at the K-th. Otherwise stop at the first digit where at most CUT_KEEP values have
// a key at or above the K-th value's bucket, keep those, floor just under the bucket.
// Called by the whole workgroup, with `size` and `exact` the same in every invocation.
fn cut(lid: u32, size: u32, exact: bool) {
  var prefix = 0u; // the K-th key's digits found so far
  var known = 0u;  // the bits of `prefix` already decided
  var need = K;    // how many values of the keys matching `prefix` still belong to the K largest
  var edge = 0u;   // a partial stop keeps the keys ≥ edge
  var partial = false;
  for (var d = 0u; d < 4u; d++) {
    let shift = 24u - 8u * d;
    atomicStore(&bins[lid], 0u);
    if (lid == 0u) {
      atomicStore(&kept_count, 0u);
    }
    workgroupBarrier();
    for (var x = lid; x < size; x += WORKGROUP_SIZE) {
      let u = key(pool[x]);
      if ((u & known) == prefix) {
        atomicAdd(&bins[(u >> shift) & 255u], 1u);
      }
    }
    workgroupBarrier();
    bucket(lid, need);
    let keeps = workgroupUniformLoad(&keep_if_stop);
    // `chosen` is written again only three barriers on.
    prefix |= chosen[0] << shift;
    known |= 255u << shift;
    need = chosen[1];
    if (!exact && keeps <= CUT_KEEP) {
      edge = prefix;
      partial = true;
      break;
    }
  }
  var floor_now: i32;
  if (partial) {
    // Keep every key ≥ edge (edge > 0: a stop keeps at most CUT_KEEP < size values).
    for (var x = lid; x < size; x += WORKGROUP_SIZE) {
      let v = pool[x];
      if (key(v) >= edge) {
        kept[atomicAdd(&kept_count, 1u)] = v;
      }
    }
    floor_now = bitcast<i32>(edge ^ 0x80000000u) - 1i;
  } else {
    // `prefix` is now the K-th key, and `need` copies of it complete the K largest.
    let kth = bitcast<i32>(prefix ^ 0x80000000u);
    for (var x = lid; x < size; x += WORKGROUP_SIZE) {
      let v = pool[x];
      if (v > kth) {
        kept[atomicAdd(&kept_count, 1u)] = v;
      }
    }
    floor_now = kth;
  }
  workgroupBarrier();
  let count = atomicLoad(&kept_count);
  var total = count;
  if (!partial) {
    total = K;
  }
  for (var x = lid; x < total; x += WORKGROUP_SIZE) {
    // After an exact select, the words past the values above the K-th are copies of it.
    pool[x] = select(floor_now, kept[min(x, CUT_KEEP - 1u)], x < count);
  }
  if (lid == 0u) {
    atomicStore(&pooled, total);
    floor_value = floor_now;
  }
  workgroupBarrier();
}

// Pass 2 (`pick`): the K largest of the lists at or above the shared floor, by a radix select on
// each value's distance above the floor (its key minus the floor's key) instead of on the key. The
// candidates lie close above the floor (on the H100 bench, 5 622 values within 2^18.5), so their
// keys share their first digits and a select on the key spends its first passes on one bin; on the
// distance it starts at the digit where they differ and usually stops after one. The lists are
// read from global memory (they are small and stay in the cache) once per step: the widest
// distance and the count; a histogram per digit until at most CUT_KEEP values stay; then those
// values gathered into `kept`, ranked, and the K largest written in order.
// Each step reads four vec4s per invocation at a time, so their loads are in flight together. Past
// the end the words read as the lowest i32: when every value is a candidate (no floor) they only
// add copies of the lowest i32, which fill the K largest exactly where too few values exist.
fn quad_at(x: u32) -> vec4<i32> {
  return select(vec4<i32>(LOWEST), input[min(x, params.quads - 1u)], x < params.quads);
}

// A value is a candidate when its key is at or above the floor's key `base`; its distance is the
// difference (every u32 is a distance: with no floor, the key itself).

// Step 1 on one vec4: the widest distance so far and the candidates so far.
fn survey(q: vec4<i32>, base: u32, seen: vec2<u32>) -> vec2<u32> {
  var out = seen;
  for (var c = 0u; c < 4u; c++) {
    let d = key(q[c]) - base;
    if (key(q[c]) >= base) {
      out = vec2<u32>(max(out.x, d), out.y + 1u);
    }
  }
  return out;
}

// Step 2 on one vec4: the digit at `shift` of each distance whose known digits match `prefix`.
fn tally(q: vec4<i32>, base: u32, known: u32, prefix: u32, shift: u32) {
  for (var c = 0u; c < 4u; c++) {
    let d = key(q[c]) - base;
    if (key(q[c]) >= base && (d & known) == prefix) {
      atomicAdd(&bins[(d >> shift) & 255u], 1u);
    }
  }
}

// Step 3 on one vec4: the values that stay go to `kept`.
fn gather(q: vec4<i32>, base: u32, prefix: u32, exact: bool) {
  for (var c = 0u; c < 4u; c++) {
    let d = key(q[c]) - base;
    if (key(q[c]) >= base && (d > prefix || (!exact && d == prefix))) {
      kept[atomicAdd(&kept_count, 1u)] = q[c];
    }
  }
}

fn pick(lid: u32) {
  if (lid == 0u) {
    atomicStore(&widest, 0u);
    atomicStore(&reaching, 0u);
    atomicStore(&kept_count, 0u);
    floor_key = atomicLoad(&shared_floor);
  }
  // The floor's key (0 when pass 1 published none: every value is a candidate).
  let base = workgroupUniformLoad(&floor_key);
  let step = 4u * WORKGROUP_SIZE;
  // Step 1: the widest distance and the number of candidates.
  var seen = vec2<u32>(0u, 0u);
  for (var x = lid; x < params.quads; x += step) {
    let q0 = quad_at(x);
    let q1 = quad_at(x + WORKGROUP_SIZE);
    let q2 = quad_at(x + 2u * WORKGROUP_SIZE);
    let q3 = quad_at(x + 3u * WORKGROUP_SIZE);
    seen = survey(q3, base, survey(q2, base, survey(q1, base, survey(q0, base, seen))));
  }
  atomicMax(&widest, seen.x);
  atomicAdd(&reaching, seen.y);
  let span = workgroupUniformLoad(&widest);
  var total = workgroupUniformLoad(&reaching);
  // Step 2: radix select on the distance, from the highest 8-bit digit the widest distance uses,
  // until at most CUT_KEEP values would stay, or the digits run out (then `prefix` is the K-th
  // value's distance, and `need` copies of it complete the K largest).
  var shift = max(32u - countLeadingZeros(span), 8u) - 8u;
  var prefix = 0u;
  var known = 0u;
  var need = K;
  var exact = false;
  loop {
    if (total <= CUT_KEEP) {
      break;
    }
    atomicStore(&bins[lid], 0u);
    workgroupBarrier();
    for (var x = lid; x < params.quads; x += step) {
      let q0 = quad_at(x);
      let q1 = quad_at(x + WORKGROUP_SIZE);
      let q2 = quad_at(x + 2u * WORKGROUP_SIZE);
      let q3 = quad_at(x + 3u * WORKGROUP_SIZE);
      tally(q0, base, known, prefix, shift);
      tally(q1, base, known, prefix, shift);
      tally(q2, base, known, prefix, shift);
      tally(q3, base, known, prefix, shift);
    }
    workgroupBarrier();
    bucket(lid, need);
    total = workgroupUniformLoad(&keep_if_stop);
    // `chosen` is written again only two barriers on.
    prefix |= chosen[0] << shift;
    known |= 255u << shift;
    need = chosen[1];
    if (shift == 0u) {
      exact = true;
      break;
    }
    shift = max(shift, 8u) - 8u;
  }
  // Step 3: gather what stays: after an exact select the values above the K-th (fewer than K);
  // otherwise every distance at or above `prefix` (its lower digits are 0), at most CUT_KEEP.
  for (var x = lid; x < params.quads; x += step) {
    let q0 = quad_at(x);
    let q1 = quad_at(x + WORKGROUP_SIZE);
    let q2 = quad_at(x + 2u * WORKGROUP_SIZE);
    let q3 = quad_at(x + 3u * WORKGROUP_SIZE);
    gather(q0, base, prefix, exact);
    gather(q1, base, prefix, exact);
    gather(q2, base, prefix, exact);
    gather(q3, base, prefix, exact);
  }
  workgroupBarrier();
  let held = atomicLoad(&kept_count);
  // Step 4: each value gathered goes to its rank (the values above it, and equal values held at a
  // lower word, come first) if that rank is under K. The ranks left get the K-th value after an
  // exact select, or the lowest i32 when fewer than K values reach the floor at all.
  if (lid < held) {
    let v = kept[lid];
    var rank = 0u;
    for (var j = 0u; j < held; j++) {
      let w = kept[j];
      if (w > v || (w == v && j < lid)) {
        rank++;
      }
    }
    if (rank < K) {
      output[rank] = v;
    }
  } else if (lid < K) {
    output[lid] = select(LOWEST, bitcast<i32>((prefix + base) ^ 0x80000000u), exact);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  if (params.pass2 != 0u) {
    pick(lid);
    return;
  }
  if (lid == 0u) {
    atomicStore(&pooled, 0u);
    floor_value = LOWEST;
  }
  var least = workgroupUniformLoad(&floor_value);
  // A round adds at most 8 × WORKGROUP_SIZE values; cut the pool before it could overflow.
  let room = POOL - 8u * WORKGROUP_SIZE;
  let last = params.quads - 1u;
  let stride = groups.x * 2u * WORKGROUP_SIZE;
  var base = wid.x * 2u * WORKGROUP_SIZE;
  var q0 = input[min(base + lid, last)];
  var q1 = input[min(base + lid + WORKGROUP_SIZE, last)];
  loop {
    if (base >= params.quads) {
      break;
    }
    // The next round's loads go out before this round is compared and pooled.
    let next = base + stride;
    let n0 = input[min(next + lid, last)];
    let n1 = input[min(next + lid + WORKGROUP_SIZE, last)];
    let x0 = base + lid;
    let x1 = x0 + WORKGROUP_SIZE;
    // Which of the eight values enter the pool: one bit each; one atomic takes a run of pool
    // words for all of them.
    var enter = 0u;
    for (var c = 0u; c < 8u; c++) {
      let inside = select(x0, x1, c >= 4u) < params.quads;
      let v = select(q0, q1, c >= 4u)[c % 4u];
      if (inside && v > least) {
        enter |= 1u << c;
      }
    }
    if (enter != 0u) {
      var slot = atomicAdd(&pooled, countOneBits(enter));
      for (var c = 0u; c < 8u; c++) {
        if ((enter & (1u << c)) != 0u) {
          pool[slot] = select(q0, q1, c >= 4u)[c % 4u];
          slot++;
        }
      }
    }
    // One uniform load of the counter after the round (the barrier included) instead of a barrier,
    // a copy and a uniform load of the copy.
    let size = workgroupUniformLoad(&pooled);
    if (lid == 0u) {
      pool_size = size;
    }
    if (size > room) {
      cut(lid, size, false);
      least = floor_value;
    }
    q0 = n0;
    q1 = n1;
    base = next;
  }
  let size = workgroupUniformLoad(&pooled);
  if (lid == 0u) {
    pool_size = size;
  }
  // The last cut is exact even at K values: its K-th value is what pass 1 publishes.
  if (size >= K) {
    cut(lid, size, true);
  }
  let full = min(size, K);
  // A full list's K-th value is a floor for pass 2: this list alone holds K values at or above it.
  if (lid == 0u && params.pass2 == 0u && size >= K) {
    atomicMax(&shared_floor, key(floor_value));
  }
  // Each of the (at most K) kept values goes to its rank: the values above it, and equal values
  // held at a lower word, come first.
  if (lid < full) {
    let v = pool[lid];
    var rank = 0u;
    for (var j = 0u; j < full; j++) {
      let w = pool[j];
      if (w > v || (w == v && j < lid)) {
        rank++;
      }
    }
    output[wid.x * K + rank] = v;
  } else if (lid < K) {
    output[wid.x * K + lid] = LOWEST;
  }
}
