// Histogram with a grid-stride loop and global atomics (course seed 003, first kernel): a fixed
// grid walks the bytes; in each round, neighbouring invocations read neighbouring bytes (so a warp
// reads 32 consecutive bytes, eight words), then every invocation adds 1 to its bin in global
// memory. All lanes that hit one bin in the same instruction are serialised on that address.
override WORKGROUP_SIZE: u32 = 256;
const NO_BIN: u32 = 0xffffffffu;

struct Params {
  n: u32,    // bytes in the input
  bins: u32, // histogram bins
  lo: u32,   // first byte value counted
  span: u32, // byte values counted: lo … lo + span − 1, spread evenly over the bins
}

@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> histo: array<atomic<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

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
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = WORKGROUP_SIZE * nwg.x; // every invocation of the grid
  var i = gid.x;
  while (i < params.n) {
    let bin = bin_of(byte_at(i));
    if (bin != NO_BIN) {
      atomicAdd(&histo[bin], 1u);
    }
    i += stride;
  }
}
