// Histogram, the fast one: every 32-invocation slice of the workgroup (one warp on NVIDIA) counts
// into its own private copy of the bins in workgroup memory, so warps never queue on each other's
// addresses; each invocation reads 16 bytes at a time as one vec4<u32> load and keeps a run in
// registers (the bin and its count) across the whole grid-stride loop, adding it with one atomic
// only when the bin changes. The merge is a reduction: invocation b sums bin b over the copies and
// makes one global atomic, skipped when the bin stayed empty.
override WORKGROUP_SIZE: u32 = 256;
override BINS: u32 = 256;
// One copy per 32 invocations: COPIES = WORKGROUP_SIZE / 32, PRIVATE_WORDS = BINS × COPIES.
override COPIES: u32 = 8;
override PRIVATE_WORDS: u32 = 2048;
const NO_BIN: u32 = 0xffffffffu;

struct Params {
  n: u32,    // bytes in the input
  bins: u32, // histogram bins (= BINS)
  lo: u32,   // first byte value counted
  span: u32, // byte values counted: lo … lo + span − 1, spread evenly over the bins
}

@group(0) @binding(0) var<storage, read> data: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> histo: array<atomic<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

// Copy c holds its bins at c × BINS … c × BINS + BINS − 1: distinct bins of one warp fall in
// distinct banks.
var<workgroup> copies: array<atomic<u32>, PRIVATE_WORDS>;

fn bin_of(b: u32) -> u32 {
  let offset = b - params.lo;
  if (offset >= params.span) {
    return NO_BIN;
  }
  // One bin per counted byte value (256 bins of bytes): no integer division, which costs tens of
  // instructions per byte on GPUs. The branch is uniform: every lane takes the same side.
  if (params.span == params.bins) {
    return offset;
  }
  return offset * params.bins / params.span;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) tx: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  for (var w = tx; w < PRIVATE_WORDS; w += WORKGROUP_SIZE) {
    atomicStore(&copies[w], 0u);
  }
  workgroupBarrier();

  let base = (tx / 32u) * BINS;
  let quads = (params.n + 15u) / 16u; // vec4s holding the input, the last one maybe partly
  let stride = WORKGROUP_SIZE * nwg.x;
  var run_bin = NO_BIN;
  var run_length = 0u;
  var q = gid.x;
  while (q < quads) {
    let words = data[q];
    // Bytes of this vec4 that lie inside the input (16 except in the last one).
    let valid = min(16u, params.n - q * 16u);
    // A constant trip count, so the compiler can unroll it and index the vec4 statically.
    for (var k = 0u; k < 16u; k++) {
      let bin = bin_of((words[k / 4u] >> ((k % 4u) * 8u)) & 0xffu);
      if (k < valid && bin != NO_BIN) {
        if (bin == run_bin) {
          run_length += 1u;
        } else {
          if (run_length > 0u) {
            atomicAdd(&copies[base + run_bin], run_length);
          }
          run_bin = bin;
          run_length = 1u;
        }
      }
    }
    q += stride;
  }
  if (run_length > 0u) {
    atomicAdd(&copies[base + run_bin], run_length);
  }
  workgroupBarrier();

  for (var b = tx; b < BINS; b += WORKGROUP_SIZE) {
    var total = 0u;
    for (var c = 0u; c < COPIES; c++) {
      total += atomicLoad(&copies[c * BINS + b]);
    }
    if (total > 0u) {
      atomicAdd(&histo[b], total);
    }
  }
}
