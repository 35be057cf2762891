// Histogram, variant 8, after CUB's byte histogram: 32-bit counters in private copies of the bins
// per workgroup, updated with one workgroup-memory atomicAdd per byte. A 32-bit counter cannot
// overflow on any input a u32 length describes, so there are no flushes and no barriers between the
// first clear and the merge. On an H100 (2^28 bytes into 256 bins) this kernel counts at 87.3 % of
// a plain read of its input on uniform bytes and 88.1 % on bytes of one value; the first version
// (8 copies, loads not pipelined, a division per byte, a shortcut for 16 equal bytes) measured
// 75.7 % and 95.4 %. The loop with the counting cut out runs at 87 %: what is left is the loads.
override WORKGROUP_SIZE: u32 = 256;
override BINS: u32 = 256;
// The counted byte values lo … lo + span − 1 as constants, so the compiler drops the range test and
// the division when they are 0 … 255 over 256 bins (the uniform still carries them for the check).
override LO: u32 = 0;
override SPAN: u32 = 256;
// Private copies of the bins, interleaved: invocation t counts into copy t % COPIES, and bin b of copy
// c is word b × COPIES + c. The 32 lanes of a warp on one value then hit 16 neighbouring words, two
// lanes a word, instead of all 32 queueing on one; on uniform bytes two lanes share a bank at most.
// 16 copies × 256 bins × 4 bytes is 16 KiB, all the workgroup memory WebGPU guarantees. On the H100,
// 16 copies alone measured 79.3 % of a read on uniform bytes; 32 copies (one bank per lane whatever
// the data) need 32 KiB, beyond WebGPU's default limit, and measured only 46.2 %.
// PRIVATE_WORDS = COPIES × BINS.
override COPIES: u32 = 16;
override PRIVATE_WORDS: u32 = 4096;
const NO_BIN: u32 = 0xffffffffu;
// vec4s each invocation loads per batch (the loads are written out below).
const BATCH: u32 = 4u;

struct Params {
  n: u32,    // bytes in the input
  bins: u32, // histogram bins (= BINS)
  lo: u32,   // first byte value counted (= LO)
  span: u32, // byte values counted (= SPAN)
}

@group(0) @binding(0) var<storage, read> data: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> histo: array<atomic<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

// Copy c holds bin b at b × COPIES + c.
var<workgroup> copies: array<atomic<u32>, PRIVATE_WORDS>;

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

fn count(copy: u32, b: u32) {
  let bin = bin_of(b);
  if (bin != NO_BIN) {
    atomicAdd(&copies[bin * COPIES + copy], 1u);
  }
}

// The four bytes of a word. Every byte is one atomicAdd of 1: a test for a vec4 of 16 equal bytes
// (one atomicAdd of 16) made one value fast, but cost every other vec4 a compare, and without it the
// kernel measured 80.2 % instead of 79.3 % on uniform bytes.
fn count_word(copy: u32, w: u32) {
  // 256 bins over all byte values with 16 copies (the pipeline constants say so; the compiler drops
  // the branch not taken): byte b's word b × 16 + copy is the byte moved to bits 4 … 11 by one
  // shift, masked, and or-ed with the copy. No range test, no multiply (81.1 % against 79.3 %).
  if (BINS == 256u && LO == 0u && SPAN == 256u && COPIES == 16u) {
    atomicAdd(&copies[((w << 4u) & 0xff0u) | copy], 1u);
    atomicAdd(&copies[((w >> 4u) & 0xff0u) | copy], 1u);
    atomicAdd(&copies[((w >> 12u) & 0xff0u) | copy], 1u);
    atomicAdd(&copies[((w >> 20u) & 0xff0u) | copy], 1u);
    return;
  }
  // Any other bins (the seed's 7 letter bins, 100 bins, …): the range test and bin_of.
  count(copy, w & 0xffu);
  count(copy, (w >> 8u) & 0xffu);
  count(copy, (w >> 16u) & 0xffu);
  count(copy, w >> 24u);
}

// Written out, not looped: Dawn's SPIR-V guards every loop with an iteration counter of its own
// (seen in its shader dump), which a loop over four words would pay for every 16 atomics.
fn count_vec4(copy: u32, v: vec4<u32>) {
  count_word(copy, v.x);
  count_word(copy, v.y);
  count_word(copy, v.z);
  count_word(copy, v.w);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) tx: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  for (var w = tx; w < PRIVATE_WORDS; w += WORKGROUP_SIZE) {
    atomicStore(&copies[w], 0u);
  }
  workgroupBarrier();

  let copy = tx % COPIES; // this invocation's copy
  let full = params.n / 16u; // whole vec4s; the last n % 16 bytes are counted one to an invocation
  let stride = WORKGROUP_SIZE * nwg.x;
  var q = gid.x;
  // Whole batches of BATCH vec4s, software-pipelined: the loads of batch k + 1 are issued before
  // batch k is counted, so they are in flight during its 64 atomics and the invocation never waits
  // on memory with nothing to count (81.1 % → 82.0 % with the shift and mask; 87.3 % with both and
  // no equal-bytes test).
  if (q + (BATCH - 1u) * stride < full) {
    var v0 = data[q];
    var v1 = data[q + stride];
    var v2 = data[q + 2u * stride];
    var v3 = data[q + 3u * stride];
    q += BATCH * stride;
    while (q + (BATCH - 1u) * stride < full) {
      let n0 = data[q];
      let n1 = data[q + stride];
      let n2 = data[q + 2u * stride];
      let n3 = data[q + 3u * stride];
      count_vec4(copy, v0);
      count_vec4(copy, v1);
      count_vec4(copy, v2);
      count_vec4(copy, v3);
      v0 = n0;
      v1 = n1;
      v2 = n2;
      v3 = n3;
      q += BATCH * stride;
    }
    // The last whole batch, loaded by the loop's last round (or before it), still to count.
    count_vec4(copy, v0);
    count_vec4(copy, v1);
    count_vec4(copy, v2);
    count_vec4(copy, v3);
  }
  // Fewer than BATCH vec4s left for this invocation.
  while (q < full) {
    count_vec4(copy, data[q]);
    q += stride;
  }
  // The ragged end: byte full × 16 + i by invocation i of the grid.
  if (gid.x < params.n - full * 16u) {
    let i = full * 16u + gid.x;
    count(copy, (data[full][gid.x / 4u] >> ((i % 4u) * 8u)) & 0xffu);
  }
  workgroupBarrier();

  // The merge: invocation b sums bin b over the copies and makes one global atomic if it is not 0.
  for (var b = tx; b < BINS; b += WORKGROUP_SIZE) {
    var total = 0u;
    for (var c = 0u; c < COPIES; c++) {
      total += atomicLoad(&copies[b * COPIES + c]);
    }
    if (total > 0u) {
      atomicAdd(&histo[b], total);
    }
  }
}
