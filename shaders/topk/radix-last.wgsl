// Top-k in one launch: `radix-ahead`'s pass 1, and the last workgroup to finish picks the answer
// from every workgroup's list, so no second launch is needed (the "last block" pattern of CUDA's
// threadFenceReduction sample). On the H100 the second launch of `radix-ahead` cost about 13 µs
// whatever it read (docs/benchmarks.md): a launch of its own, one workgroup, four dependent rounds.
// - Pass 1 is radix-ahead's: loads a round ahead, short cuts during the read, an exact last cut,
//   and the highest K-th value of a full list raised into `state[0]` (atomicMax on the key).
// - Each workgroup then writes its K values (ranked, padded with the lowest i32) to `lists` and
//   takes a ticket (`state[1]`). The one that draws the last ticket knows every other workgroup has
//   written its list, and selects the K largest of them, as radix-ahead's pass 2 does.
// - WGSL has no fence across workgroups: a workgroup's ordinary stores need not be visible to
//   another one, even after its ticket. So every list value travels as two atomic words, (tag << 16)
//   | 16-bit half, where the tag names this dispatch (1 + dispatches done, mod 2^15, from `state[2]`).
//   The last workgroup reads both words and reads again while a tag is old: each word is written
//   by a workgroup that has already finished writing, so the wait ends. The words need no reset:
//   the next dispatch writes every one with the next tag.
// - The floor in `state[0]` is only a hint: an atomicMax made visible late, or left over from
//   another dispatch, could be too low (harmless) or too high. Too high would let fewer than K
//   values through, which the last workgroup notices and then reads the lists again from the
//   lowest i32. It resets the floor and the tickets and counts the dispatch (`state[2]`) at the end.
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
}

@group(0) @binding(0) var<storage, read> input: array<vec4<i32>>;
// The K largest values, descending, padded with the lowest i32.
@group(0) @binding(1) var<storage, read_write> output: array<i32>;
@group(0) @binding(2) var<uniform> params: Params;
// [0] the highest K-th value of a full list, as a key (0: none), a hint; [1] tickets drawn in this
// dispatch; [2] dispatches done. Zero before the first dispatch.
@group(0) @binding(3) var<storage, read_write> state: array<atomic<u32>, 4>;
// Every workgroup's K values: the high halves of all lists, then the low halves, each word
// (tag << 16) | half.
@group(0) @binding(4) var<storage, read_write> lists: array<atomic<u32>>;

// This dispatch's tag, in the high half of a word.
var<workgroup> tag_word: u32;
// 1 in the workgroup that drew the last ticket.
var<workgroup> is_last: u32;

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

// Offers one round's eight values (two vec4s; bit c of `inside` set where value c exists) to the
// pool, then cuts the pool if the next round could overflow it. Returns the floor.
fn offer(lid: u32, q0: vec4<i32>, q1: vec4<i32>, inside: u32, least: i32) -> i32 {
  // Which of the eight values enter the pool: one bit each; one atomic takes a run of pool words
  // for all of them.
  var enter = 0u;
  for (var c = 0u; c < 8u; c++) {
    let v = select(q0, q1, c >= 4u)[c % 4u];
    if ((inside & (1u << c)) != 0u && v > least) {
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
  // One uniform load of the counter after the round (the barrier included).
  let size = workgroupUniformLoad(&pooled);
  if (lid == 0u) {
    pool_size = size;
  }
  // A round adds at most 8 × WORKGROUP_SIZE values; cut the pool before it could overflow.
  if (size > POOL - 8u * WORKGROUP_SIZE) {
    cut(lid, size, false);
    return floor_value;
  }
  return least;
}

// The pool cut to exactly its K largest (when it holds K), each at its rank in out[first …],
// padded with the lowest i32. Returns how many values the pool held.
fn finish(lid: u32) -> u32 {
  let size = workgroupUniformLoad(&pooled);
  if (lid == 0u) {
    pool_size = size;
  }
  if (size >= K) {
    cut(lid, size, true);
  }
  return size;
}

// The value of rank `lid` of the kept ones (the values above it, and equal values held at a lower
// word, come first), or the lowest i32 past them: (rank, value).
fn ranked(lid: u32, full: u32) -> vec2<i32> {
  if (lid >= full) {
    return vec2<i32>(i32(lid), LOWEST);
  }
  let v = pool[lid];
  var rank = 0u;
  for (var j = 0u; j < full; j++) {
    let w = pool[j];
    if (w > v || (w == v && j < lid)) {
      rank++;
    }
  }
  return vec2<i32>(i32(rank), v);
}

// Word `at` of the lists once it carries this dispatch's tag: `seen` is what was read already.
fn settled(at: u32, seen: u32, tag: u32) -> u32 {
  var w = seen;
  // Its writer finished writing before the last ticket was drawn, so the tag arrives; the bound
  // keeps a mistake from hanging the GPU.
  for (var tries = 0u; (w & 0xffff0000u) != tag && tries < 0x100000u; tries++) {
    w = atomicLoad(&lists[at]);
  }
  return w;
}

// Value `i` (< count) of the lists, from its two words.
fn joined(hi: u32, lo: u32) -> i32 {
  return bitcast<i32>((hi << 16u) | (lo & 0xffffu));
}

// Eight values of the lists for invocation lid in the round at `base`: words of values base + c ×
// WORKGROUP_SIZE + lid (clamped to the last value), high halves then low halves.
struct Words {
  h0: vec4<u32>,
  h1: vec4<u32>,
  l0: vec4<u32>,
  l1: vec4<u32>,
}

fn load_words(base: u32, lid: u32, count: u32) -> Words {
  let last = count - 1u;
  let a = base + lid;
  let s = WORKGROUP_SIZE;
  var w: Words;
  w.h0 = vec4<u32>(atomicLoad(&lists[min(a, last)]), atomicLoad(&lists[min(a + s, last)]),
                   atomicLoad(&lists[min(a + 2u * s, last)]), atomicLoad(&lists[min(a + 3u * s, last)]));
  w.h1 = vec4<u32>(atomicLoad(&lists[min(a + 4u * s, last)]), atomicLoad(&lists[min(a + 5u * s, last)]),
                   atomicLoad(&lists[min(a + 6u * s, last)]), atomicLoad(&lists[min(a + 7u * s, last)]));
  w.l0 = vec4<u32>(atomicLoad(&lists[count + min(a, last)]), atomicLoad(&lists[count + min(a + s, last)]),
                   atomicLoad(&lists[count + min(a + 2u * s, last)]), atomicLoad(&lists[count + min(a + 3u * s, last)]));
  w.l1 = vec4<u32>(atomicLoad(&lists[count + min(a + 4u * s, last)]), atomicLoad(&lists[count + min(a + 5u * s, last)]),
                   atomicLoad(&lists[count + min(a + 6u * s, last)]), atomicLoad(&lists[count + min(a + 7u * s, last)]));
  return w;
}

// The last workgroup: every list value above `least` offered to the (empty) pool, a round of
// 8 × WORKGROUP_SIZE values at a time, the next round's words loaded before the current one is
// offered.
fn gather(lid: u32, count: u32, tag: u32, start: i32) -> i32 {
  var least = start;
  let last = count - 1u;
  let s = WORKGROUP_SIZE;
  var base = 0u;
  var w = load_words(base, lid, count);
  loop {
    if (base >= count) {
      break;
    }
    let next = load_words(base + 8u * s, lid, count);
    var q0: vec4<i32>;
    var q1: vec4<i32>;
    var inside = 0u;
    for (var c = 0u; c < 4u; c++) {
      let at = min(base + c * s + lid, last);
      q0[c] = joined(settled(at, w.h0[c], tag), settled(count + at, w.l0[c], tag));
      let at1 = min(base + (c + 4u) * s + lid, last);
      q1[c] = joined(settled(at1, w.h1[c], tag), settled(count + at1, w.l1[c], tag));
      inside |= select(0u, 1u << c, base + c * s + lid < count) | select(0u, 16u << c, base + (c + 4u) * s + lid < count);
    }
    least = offer(lid, q0, q1, inside, least);
    w = next;
    base += 8u * s;
  }
  return least;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  if (lid == 0u) {
    atomicStore(&pooled, 0u);
    floor_value = LOWEST;
  }
  // Pass 1: this workgroup's share, rounds of 2 × WORKGROUP_SIZE vec4s, as radix-ahead.
  var least = workgroupUniformLoad(&floor_value);
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
    let inside = select(0u, 0x0fu, base + lid < params.quads) | select(0u, 0xf0u, base + lid + WORKGROUP_SIZE < params.quads);
    least = offer(lid, q0, q1, inside, least);
    q0 = n0;
    q1 = n1;
    base = next;
  }
  // The last cut is exact even at K values: its K-th value is the floor this workgroup offers.
  let size = finish(lid);
  if (lid == 0u) {
    if (size >= K) {
      atomicMax(&state[0], key(floor_value));
    }
    tag_word = ((atomicLoad(&state[2]) & 0x7fffu) + 1u) << 16u;
  }
  let tag = workgroupUniformLoad(&tag_word);
  // This workgroup's list, each value as two tagged words.
  let count = groups.x * K;
  if (lid < K) {
    let r = ranked(lid, min(size, K));
    let at = wid.x * K + u32(r.x);
    let bits = bitcast<u32>(r.y);
    atomicStore(&lists[at], tag | (bits >> 16u));
    atomicStore(&lists[count + at], tag | (bits & 0xffffu));
  }
  // Every invocation has issued its stores before the ticket is drawn.
  workgroupBarrier();
  if (lid == 0u) {
    is_last = select(0u, 1u, atomicAdd(&state[1], 1u) == groups.x - 1u);
  }
  if (workgroupUniformLoad(&is_last) == 0u) {
    return;
  }

  // The last workgroup: the K largest of all lists, from just under the floor (values equal to it
  // enter; one list holds K values at or above it, so nothing below is in the answer).
  if (lid == 0u) {
    let hint = atomicLoad(&state[0]);
    atomicStore(&pooled, 0u);
    floor_value = select(LOWEST, bitcast<i32>(hint ^ 0x80000000u) - 1i, hint > 0u);
  }
  let start = workgroupUniformLoad(&floor_value);
  gather(lid, count, tag, start);
  var total = finish(lid);
  if (total < K && start != LOWEST) {
    // The hint let fewer than K values through: it was not this dispatch's. Read every value.
    if (lid == 0u) {
      atomicStore(&pooled, 0u);
      floor_value = LOWEST;
    }
    workgroupBarrier();
    gather(lid, count, tag, LOWEST);
    total = finish(lid);
  }
  if (lid < K) {
    let r = ranked(lid, min(total, K));
    output[r.x] = r.y;
  }
  if (lid == 0u) {
    atomicStore(&state[0], 0u);
    atomicStore(&state[1], 0u);
    atomicAdd(&state[2], 1u);
  }
}
