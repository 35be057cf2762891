// Histogram privatised in workgroup memory, with runs aggregated: each invocation remembers the
// bin of its last byte and how many bytes in a row fell there, and only when the bin changes does
// it add the whole run with one atomic. On data with long runs (all one value, or skewed data)
// most atomics disappear; on uniform data almost every byte still starts a new run.
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
  var run_bin = NO_BIN;
  var run_length = 0u;
  var i = gid.x;
  while (i < params.n) {
    let bin = bin_of(byte_at(i));
    if (bin != NO_BIN) {
      if (bin == run_bin) {
        run_length += 1u;
      } else {
        if (run_length > 0u) {
          atomicAdd(&histo_private[run_bin], run_length);
        }
        run_bin = bin;
        run_length = 1u;
      }
    }
    i += stride;
  }
  if (run_length > 0u) {
    atomicAdd(&histo_private[run_bin], run_length);
  }
  workgroupBarrier();

  for (var b = tx; b < BINS; b += WORKGROUP_SIZE) {
    atomicAdd(&histo[b], atomicLoad(&histo_private[b]));
  }
}
