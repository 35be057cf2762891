// Histogram, variant 9: every invocation owns its bins as 16-bit counters, two to a word, in a
// workgroup of one warp. Word w of invocation t lives at w × WORKGROUP_SIZE + t: with 32 invocations
// and 32 banks, invocation t always hits bank t, so a warp's atomics never conflict whatever the
// data (uniform bytes cost 32-bit shared copies 3–4 wavefronts a warp instruction). A 16-bit
// counter holds 65 535, i.e. 4095 vec4s of one value, so the flush comes once per 64 KiB an
// invocation reads (at 2^28 bytes on a large GPU, only at the end): the invocations sum a word over
// the workgroup and add it to the global histogram. Loads go eight vec4s at a time (one warp a
// workgroup leaves few warps per multiprocessor to keep reads in flight).
override WORKGROUP_SIZE: u32 = 32; // a power of two (the indexing below relies on it)
override BINS: u32 = 256;
override LO: u32 = 0;
override SPAN: u32 = 256;
// Words of counters per invocation (⌈BINS / 2⌉) and in all (WORDS × WORKGROUP_SIZE ≤ 4096).
override WORDS: u32 = 128;
override PRIVATE_WORDS: u32 = 4096;
// vec4s per invocation between flushes: 16 bytes each, so at most 4095 before 65 535.
override ROUND: u32 = 4095;
const NO_BIN: u32 = 0xffffffffu;
const BATCH: u32 = 8u;

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

// k bytes of value b into this invocation's counter: half bin % 2 of word bin / 2.
fn count(tx: u32, b: u32, k: u32) {
  let bin = bin_of(b);
  if (bin != NO_BIN) {
    atomicAdd(&counters[((bin / 2u) * WORKGROUP_SIZE) | tx], k << ((bin % 2u) * 16u));
  }
}

fn count_word(tx: u32, w: u32) {
  count(tx, w & 0xffu, 1u);
  count(tx, (w >> 8u) & 0xffu, 1u);
  count(tx, (w >> 16u) & 0xffu, 1u);
  count(tx, w >> 24u, 1u);
}

// Written out, not looped (Dawn guards every loop with an iteration counter of its own).
fn count_vec4(tx: u32, v: vec4<u32>) {
  let first = v.x & 0xffu;
  if (all(v == vec4<u32>(first * 0x01010101u))) {
    count(tx, first, 16u);
    return;
  }
  count_word(tx, v.x);
  count_word(tx, v.y);
  count_word(tx, v.z);
  count_word(tx, v.w);
}

// Word w of every invocation summed (invocation s ^ … so that the lanes read different banks) and
// cleared; its two halves go to the global histogram.
fn flush(tx: u32) {
  for (var w = tx; w < WORDS; w += WORKGROUP_SIZE) {
    var low = 0u;
    var high = 0u;
    for (var s = 0u; s < WORKGROUP_SIZE; s++) {
      let c = atomicExchange(&counters[w * WORKGROUP_SIZE + ((s + tx) & (WORKGROUP_SIZE - 1u))], 0u);
      low += c & 0xffffu;
      high += c >> 16u;
    }
    if (low > 0u) {
      atomicAdd(&histo[2u * w], low);
    }
    if (high > 0u) {
      atomicAdd(&histo[2u * w + 1u], high);
    }
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) tx: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  for (var w = 0u; w < WORDS; w++) {
    atomicStore(&counters[w * WORKGROUP_SIZE + tx], 0u);
  }
  let full = params.n / 16u; // whole vec4s; the last n % 16 bytes are counted one to an invocation
  let stride = WORKGROUP_SIZE * nwg.x;
  var q = gid.x;
  // The workgroup counts in rounds of ROUND vec4s an invocation (the last one maybe shorter);
  // every invocation goes through the same rounds, so the barriers are uniform.
  let per_round = stride * ROUND;
  let rounds = max(1u, (full + per_round - 1u) / per_round);
  for (var r = 0u; r < rounds; r++) {
    let end = min(full, (r + 1u) * per_round);
    // Whole batches: all BATCH vec4s inside this round, loaded before any is counted.
    while (q + (BATCH - 1u) * stride < end) {
      // batch begin
      let v0 = data[q];
      let v1 = data[q + stride];
      let v2 = data[q + 2u * stride];
      let v3 = data[q + 3u * stride];
      let v4 = data[q + 4u * stride];
      let v5 = data[q + 5u * stride];
      let v6 = data[q + 6u * stride];
      let v7 = data[q + 7u * stride];
      count_vec4(tx, v0);
      count_vec4(tx, v1);
      count_vec4(tx, v2);
      count_vec4(tx, v3);
      count_vec4(tx, v4);
      count_vec4(tx, v5);
      count_vec4(tx, v6);
      count_vec4(tx, v7);
      // batch end
      q += BATCH * stride;
    }
    while (q < end) {
      count_vec4(tx, data[q]);
      q += stride;
    }
    // The ragged end, in the last round: byte full × 16 + i by invocation i of the grid.
    if (r + 1u == rounds && gid.x < params.n - full * 16u) {
      let i = full * 16u + gid.x;
      count(tx, (data[full][gid.x / 4u] >> ((i % 4u) * 8u)) & 0xffu, 1u);
    }
    workgroupBarrier();
    flush(tx);
    workgroupBarrier();
  }
}
