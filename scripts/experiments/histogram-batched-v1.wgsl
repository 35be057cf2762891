// Variant 8 as shipped before round 2's fastest candidate replaced it in shaders/histogram/batched.wgsl
// (the bench measured it at 75.7 % of a read on uniform bytes, 95.4 % on one value, on an H100). Kept
// only as the baseline that scripts/experiments/histogram-experiments.ts (batched, round2) transforms and times:
// 8 interleaved copies, four loads then four counts, bin_of per byte, one atomicAdd of 16 for a vec4 of
// 16 equal bytes. Not a lab variant: the lab, the simulator's tests and the bench use batched.wgsl.
// Histogram, variant 8, after CUB's byte histogram: 32-bit counters in a few private copies of the
// bins per workgroup, updated with one workgroup-memory atomicAdd per byte. A 32-bit counter cannot
// overflow on any input a u32 length describes, so there are no flushes and no barriers between the
// first clear and the merge. Every invocation issues BATCH vec4 loads (64 bytes) before it counts
// any of them, so many bytes are in flight while the atomics run. A vec4 whose 16 bytes are all one
// value is counted with one atomicAdd of 16 (the case of long runs and of all-one-value data).
override WORKGROUP_SIZE: u32 = 256;
override BINS: u32 = 256;
// The counted byte values lo … lo + span − 1 as constants, so the compiler drops the range test and
// the division when they are 0 … 255 over 256 bins (the uniform still carries them for the check).
override LO: u32 = 0;
override SPAN: u32 = 256;
// Private copies of the bins, interleaved: invocation t counts into copy t % COPIES, and bin b of copy
// c is word b × COPIES + c. The lanes of a warp on one value then hit COPIES neighbouring words (in
// COPIES banks) instead of one, and uniform bytes spread over the banks as they would in one copy.
// PRIVATE_WORDS = COPIES × BINS.
override COPIES: u32 = 8;
override PRIVATE_WORDS: u32 = 2048;
const NO_BIN: u32 = 0xffffffffu;
// vec4s each invocation loads before it counts them (the loads are written out below).
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

fn count(copy: u32, b: u32, k: u32) {
  let bin = bin_of(b);
  if (bin != NO_BIN) {
    atomicAdd(&copies[bin * COPIES + copy], k);
  }
}

fn count_word(base: u32, w: u32) {
  count(base, w & 0xffu, 1u);
  count(base, (w >> 8u) & 0xffu, 1u);
  count(base, (w >> 16u) & 0xffu, 1u);
  count(base, w >> 24u, 1u);
}

// Written out, not looped: Dawn's SPIR-V guards every loop with an iteration counter of its own
// (seen in its shader dump), which a loop of four bytes would pay for every four atomics.
fn count_vec4(base: u32, v: vec4<u32>) {
  let first = v.x & 0xffu;
  if (all(v == vec4<u32>(first * 0x01010101u))) {
    count(base, first, 16u);
    return;
  }
  count_word(base, v.x);
  count_word(base, v.y);
  count_word(base, v.z);
  count_word(base, v.w);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) tx: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  for (var w = tx; w < PRIVATE_WORDS; w += WORKGROUP_SIZE) {
    atomicStore(&copies[w], 0u);
  }
  workgroupBarrier();

  let base = tx % COPIES; // this invocation's copy
  let full = params.n / 16u; // whole vec4s; the last n % 16 bytes are counted one to an invocation
  let stride = WORKGROUP_SIZE * nwg.x;
  var q = gid.x;
  // Whole batches: all BATCH vec4s inside the input, loaded before any is counted.
  while (q + (BATCH - 1u) * stride < full) {
    // batch begin
    let v0 = data[q];
    let v1 = data[q + stride];
    let v2 = data[q + 2u * stride];
    let v3 = data[q + 3u * stride];
    count_vec4(base, v0);
    count_vec4(base, v1);
    count_vec4(base, v2);
    count_vec4(base, v3);
    // batch end
    q += BATCH * stride;
  }
  // Fewer than BATCH vec4s left for this invocation.
  while (q < full) {
    count_vec4(base, data[q]);
    q += stride;
  }
  // The ragged end: byte full × 16 + i by invocation i of the grid.
  if (gid.x < params.n - full * 16u) {
    let i = full * 16u + gid.x;
    count(base, (data[full][gid.x / 4u] >> ((i % 4u) * 8u)) & 0xffu, 1u);
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
