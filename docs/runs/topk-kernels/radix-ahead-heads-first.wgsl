// Top-k by a rising floor, as `radix`, with three changes measured on the H100 (docs/benchmarks.md):
// - Loads a round ahead: each invocation issues its two vec4 loads of the next round before it
//   compares and pools the current one, so the memory system is busy while the workgroup waits
//   at the round's barriers and cuts its pool.
// - Short cuts: a cut during the stream descends the key's 8-bit digits only until at most
//   CUT_KEEP values would stay (usually one digit: the pool keeps the whole bucket that holds its
//   K-th value, at least K values, and the floor rises to the bucket's lower edge). Only the last
//   cut finds the exact K-th value (all four digits).
// - A shared floor: pass 1 raises one word, `shared_floor`, to the highest K-th value of any
//   workgroup's list (atomicMax on the key). Pass 2 reads it once and lets in only the values at or
//   above it: some list holds K of them, so nothing below can be among the K largest, and the pool
//   of pass 2 stays small (one cut at the end instead of one after every round).
// - Heads first: pass 2 begins with the head (largest value) of every list. Any K values of the
//   input bound the answer from below, and the K-th largest head lies close to the answer's K-th
//   value, so from that floor the lists' rounds let in only a few values: no cut during the read
//   (those cuts, over values that share their top digits, were most of pass 2's time).
// Duplicates are kept (the usual top-k). Equal values are interchangeable, so the pool's order (set
// by atomics) never shows: the output is the same whatever order the invocations run in.
const WORKGROUP_SIZE: u32 = 256u;
// Values kept (1…64).
override K: u32 = 20;
// Words of the pool: at least CUT_KEEP + 8 × WORKGROUP_SIZE (set by the driver).
override POOL: u32 = 3072;
// A cut during the stream stops at the first digit that leaves at most this many values (≥ 64).
override CUT_KEEP: u32 = 256;

struct Params {
  quads: u32, // vec4s in `input`
  pass2: u32, // 0: pass 1 (publish the K-th value); 1: pass 2 (start at the shared floor)
  lists: u32, // pass 2: how many lists of K values `input` holds
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

const LOWEST: i32 = -2147483647i - 1i;

// The value as an unsigned key in the same order: the sign bit flipped.
fn key(v: i32) -> u32 {
  return bitcast<u32>(v) ^ 0x80000000u;
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
    // The bucket is found from the top by one invocation: the 16 groups of 16 bins summed by 16
    // invocations, then a walk down the groups and down the bins of the group that reaches `need`
    // (32 reads in one invocation instead of 32 in every one: the other workgroups on the SM keep
    // their loads going meanwhile).
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

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  if (lid == 0u) {
    atomicStore(&pooled, 0u);
    // Pass 2 starts just under the shared floor: values equal to it enter.
    let published = select(0u, atomicLoad(&shared_floor), params.pass2 != 0u);
    floor_value = select(LOWEST, bitcast<i32>(published ^ 0x80000000u) - 1i, published > 0u);
  }
  var least = workgroupUniformLoad(&floor_value);
  // A round adds at most 8 × WORKGROUP_SIZE values; cut the pool before it could overflow.
  let room = POOL - 8u * WORKGROUP_SIZE;
  let last = params.quads - 1u;
  let stride = groups.x * 2u * WORKGROUP_SIZE;
  var base = wid.x * 2u * WORKGROUP_SIZE;
  var q0 = input[min(base + lid, last)];
  var q1 = input[min(base + lid + WORKGROUP_SIZE, last)];
  // Pass 2, while the first round's loads are in flight: the K-th largest of the lists' heads
  // becomes the floor (values equal to it enter, so the heads count again in the rounds below).
  if (params.pass2 != 0u && params.lists >= K) {
    for (var h0 = 0u; h0 < params.lists; h0 += WORKGROUP_SIZE) {
      let h = h0 + lid;
      if (h < params.lists) {
        let v = input[h * K / 4u][h * K % 4u];
        if (v > least) {
          pool[atomicAdd(&pooled, 1u)] = v;
        }
      }
      let size = workgroupUniformLoad(&pooled);
      if (size > room) {
        cut(lid, size, false);
        least = floor_value;
      }
    }
    let size = workgroupUniformLoad(&pooled);
    if (size >= K) {
      cut(lid, size, true);
    }
    if (lid == 0u) {
      atomicStore(&pooled, 0u);
      floor_value = select(least, max(floor_value, LOWEST + 1i) - 1i, size >= K);
    }
    least = workgroupUniformLoad(&floor_value);
  }
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
