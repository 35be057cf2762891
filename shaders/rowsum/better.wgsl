// Row sum, "better" (course seed 003): the same row in workgroup memory, two elements loaded per
// invocation, but the stride halves from WORKGROUP_SIZE down to 1 and invocation tx works when
// tx < stride, adding word tx + stride into word tx. The working invocations stay contiguous, so
// whole warps work or rest together until the stride falls below the warp size; only then does
// a warp split. Lane k touches words k and k + stride: one word per bank, no conflicts.
override WORKGROUP_SIZE: u32 = 256;
// The row in workgroup memory: N = 2 × WORKGROUP_SIZE words (set by the driver).
override TILE: u32 = 512;

struct Params {
  cols: u32, // N, elements per row
  rows: u32, // M, one workgroup each
}

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> partialSum: array<u32, TILE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) tx: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let row = wid.x;
  let start = row * params.cols;
  partialSum[tx] = input[start + tx];
  partialSum[WORKGROUP_SIZE + tx] = input[start + WORKGROUP_SIZE + tx];

  for (var stride = WORKGROUP_SIZE; stride > 0u; stride /= 2u) {
    workgroupBarrier();
    if (tx < stride) {
      partialSum[tx] += partialSum[tx + stride];
    }
  }
  if (tx == 0u) {
    output[row] = partialSum[0];
  }
}
