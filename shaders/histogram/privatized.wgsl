// Histogram privatised in workgroup memory (course seed 003, second kernel): each workgroup
// counts into its own copy of the bins in workgroup memory, whose atomics are far cheaper than
// global ones, and merges that copy into the global histogram once at the end. Clearing and
// merging take one invocation per bin, so with fewer bins than invocations most of the workgroup
// idles there (the seed's "first 7 threads": control divergence).
override WORKGROUP_SIZE: u32 = 256;
override BINS: u32 = 7;
const NO_BIN: u32 = 0xffffffffu;

struct Params {
  n: u32,    // bytes in the input
  bins: u32, // histogram bins (= BINS)
  lo: u32,   // first byte value counted
  span: u32, // byte values counted: lo … lo + span − 1, spread evenly over the bins
}

@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> histo: array<atomic<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> histo_private: array<atomic<u32>, BINS>;

fn byte_at(i: u32) -> u32 {
  return (data[i / 4u] >> ((i % 4u) * 8u)) & 0xffu;
}

fn bin_of(b: u32) -> u32 {
  let offset = b - params.lo;
  if (offset < params.span) {
    return offset * params.bins / params.span;
  }
  return NO_BIN;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) tx: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  for (var b = tx; b < BINS; b += WORKGROUP_SIZE) {
    atomicStore(&histo_private[b], 0u);
  }
  workgroupBarrier();

  let stride = WORKGROUP_SIZE * nwg.x;
  var i = gid.x;
  while (i < params.n) {
    let bin = bin_of(byte_at(i));
    if (bin != NO_BIN) {
      atomicAdd(&histo_private[bin], 1u);
    }
    i += stride;
  }
  workgroupBarrier();

  // The merge: one global atomic per bin and workgroup.
  for (var b = tx; b < BINS; b += WORKGROUP_SIZE) {
    atomicAdd(&histo[b], atomicLoad(&histo_private[b]));
  }
}
