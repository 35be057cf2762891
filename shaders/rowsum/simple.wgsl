// Row sum, "simple" (course seed 003): one workgroup sums one row of an M × N matrix in workgroup
// memory. A row has N = 2 × WORKGROUP_SIZE elements, so each invocation loads two of them. The
// stride grows 1, 2, 4 … WORKGROUP_SIZE; invocation tx works when tx % stride == 0 and adds word
// 2·tx + stride into word 2·tx. The working invocations thin out inside every warp, so each warp
// splits at every level until the stride passes the warp size, and the words 2·tx they touch
// crowd onto fewer banks level by level.
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

  for (var stride = 1u; stride <= WORKGROUP_SIZE; stride *= 2u) {
    workgroupBarrier();
    if (tx % stride == 0u) {
      partialSum[2u * tx] += partialSum[2u * tx + stride];
    }
  }
  if (tx == 0u) {
    output[row] = partialSum[0];
  }
}
