// Histogram, one invocation per element (course seed 003, before the grid-stride loop): the input
// is a byte string packed four bytes to a u32 word, little-endian. Invocation i reads byte i, maps
// it to a bin and adds 1 to that bin in global memory with atomicAdd. Lanes of a warp that land in
// the same bin queue on one address: the atomic unit serves them one after another.
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

// Bytes outside lo … lo + span − 1 count nowhere (the seed skips what is not a letter).
fn bin_of(b: u32) -> u32 {
  let offset = b - params.lo; // wraps to a huge value below lo
  if (offset < params.span) {
    return offset * params.bins / params.span;
  }
  return NO_BIN;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  // More than 65 535 workgroups are folded into rows of nwg.x.
  let i = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (i < params.n) {
    let bin = bin_of(byte_at(i));
    if (bin != NO_BIN) {
      atomicAdd(&histo[bin], 1u);
    }
  }
}
