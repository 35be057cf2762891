// Histogram with packed byte counters per invocation, updated with workgroup atomics: the same
// layout as packed.wgsl (8-bit counters, four bins to a word, word w of invocation t at
// w × WORKGROUP_SIZE + t, so a warp's lanes always hit 32 different banks), but each byte is one
// atomicAdd whose result nobody waits for, instead of a load, an add and a store that the next byte
// of the same invocation must wait for (it may hit the same word). Flushed every 15 vec4s as in
// packed.wgsl; the merge makes one global atomic per non-empty bin.
override WORKGROUP_SIZE: u32 = 64; // a power of two (the indexing below relies on it)
override BINS: u32 = 256;
// The counted byte values lo … lo + span − 1 as constants, so the compiler drops the range test and
// the division when they are 0 … 255 over 256 bins (the uniform still carries them for the check).
override LO: u32 = 0;
override SPAN: u32 = 256;
// Words of counters per invocation (⌈BINS / 4⌉) and in all (WORDS × WORKGROUP_SIZE ≤ 4096).
override WORDS: u32 = 64;
override PRIVATE_WORDS: u32 = 4096;
const NO_BIN: u32 = 0xffffffffu;
// vec4s per invocation between flushes, read three at a time: 15 × 16 + 15 ≤ 255.
const ROUND: u32 = 15u;
const BATCH: u32 = 3u;

struct Params {
  n: u32,    // bytes in the input
  bins: u32, // histogram bins (= BINS)
  lo: u32,   // first byte value counted (= LO)
  span: u32, // byte values counted (= SPAN)
}

@group(0) @binding(0) var<storage, read> data: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> histo: array<atomic<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> counters: array<atomic<u32>, PRIVATE_WORDS>;

fn bin_of(b: u32) -> u32 {
  let offset = b - LO;
  if (offset >= SPAN) {
    return NO_BIN;
  }
  if (SPAN == BINS) {
    return offset;
  }
  return offset * BINS / SPAN;
}

// One byte into this invocation's counters: byte bin % 4 of word bin / 4. The word's index is
// (bin / 4) × WORKGROUP_SIZE + tx, written with | since WORKGROUP_SIZE is a power of two above tx:
// a shift, a mask and an or, which GPUs do in two instructions instead of three.
fn count(tx: u32, b: u32) {
  let bin = bin_of(b);
  if (bin != NO_BIN) {
    atomicAdd(&counters[((bin / 4u) * WORKGROUP_SIZE) | tx], 1u << ((bin % 4u) * 8u));
  }
}

fn count_word(tx: u32, word: u32) {
  count(tx, word & 0xffu);
  count(tx, (word >> 8u) & 0xffu);
  count(tx, (word >> 16u) & 0xffu);
  count(tx, word >> 24u);
}

fn count_vec4(tx: u32, v: vec4<u32>) {
  count_word(tx, v.x);
  count_word(tx, v.y);
  count_word(tx, v.z);
  count_word(tx, v.w);
}

// vec4 q of the input, or zeros past the whole vec4s (the caller skips those).
fn load(q: u32, full: u32) -> vec4<u32> {
  if (q < full) {
    return data[q];
  }
  return vec4<u32>(0u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) tx: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  for (var w = 0u; w < WORDS; w++) {
    atomicStore(&counters[w * WORKGROUP_SIZE + tx], 0u);
  }
  let full = params.n / 16u; // whole vec4s; the last n % 16 bytes are counted one by one
  let stride = WORKGROUP_SIZE * nwg.x;
  let per_round = stride * ROUND;
  let rounds = max(1u, (full + per_round - 1u) / per_round);
  // The sums of word tx over the workgroup: bins 4tx and 4tx + 2 in the halves of `even`,
  // 4tx + 1 and 4tx + 3 in those of `odd` (at most 255 × 64 per flush: fits 16 bits).
  var total = vec4<u32>(0u);
  for (var r = 0u; r < rounds; r++) {
    var q = r * per_round + gid.x;
    for (var j = 0u; j < ROUND; j += BATCH) {
      let a = load(q, full);
      let b = load(q + stride, full);
      let c = load(q + 2u * stride, full);
      if (q < full) {
        count_vec4(tx, a);
      }
      if (q + stride < full) {
        count_vec4(tx, b);
      }
      if (q + 2u * stride < full) {
        count_vec4(tx, c);
      }
      q += BATCH * stride;
    }
    // The ragged end, by invocation 0 of the grid in the last round.
    if (r + 1u == rounds && gid.x == 0u) {
      for (var i = full * 16u; i < params.n; i++) {
        count(tx, (data[i / 16u][(i / 4u) % 4u] >> ((i % 4u) * 8u)) & 0xffu);
      }
    }
    workgroupBarrier();
    if (tx < WORDS) {
      var even = 0u;
      var odd = 0u;
      for (var s = 0u; s < WORKGROUP_SIZE; s++) {
        // Invocation s ^ tx: a different one in every lane, so the lanes read different banks.
        let at = tx * WORKGROUP_SIZE + (s ^ tx);
        let c = atomicExchange(&counters[at], 0u);
        even += c & 0x00ff00ffu;
        odd += (c >> 8u) & 0x00ff00ffu;
      }
      total += vec4<u32>(even & 0xffffu, odd & 0xffffu, even >> 16u, odd >> 16u);
    }
    workgroupBarrier();
  }
  if (tx < WORDS) {
    for (var k = 0u; k < 4u; k++) {
      let bin = tx * 4u + k;
      if (bin < BINS && total[k] > 0u) {
        atomicAdd(&histo[bin], total[k]);
      }
    }
  }
}
