// y = A·x, COO: one invocation per nonzero (row, column, value). The lanes of a warp read
// consecutive triples (coalesced) and need no row lengths at all, but several lanes may hold
// nonzeros of the same row, so each adds its product into y[row] atomically. WGSL has no atomic
// add for f32, so y is an array of atomic<u32> holding f32 bits: read the word, add in f32,
// and store the sum only if the word is still what was read (compare-exchange); if another lane
// got there first, try again with the value it left. y must start as zeros (0u is +0.0).
override WORKGROUP_SIZE: u32 = 256;

struct Params {
  count: u32, // nonzeros
}

@group(0) @binding(0) var<storage, read> row_index: array<u32>;
@group(0) @binding(1) var<storage, read> col_index: array<u32>;
@group(0) @binding(2) var<storage, read> values: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<atomic<u32>>;
@group(0) @binding(5) var<uniform> params: Params;

// y[i] += v as one atomic step: a compare-exchange loop on the f32's bits.
fn add_to_y(i: u32, v: f32) {
  var seen = atomicLoad(&y[i]);
  loop {
    let tried = atomicCompareExchangeWeak(&y[i], seen, bitcast<u32>(bitcast<f32>(seen) + v));
    if (tried.exchanged) {
      break;
    }
    seen = tried.old_value;
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * WORKGROUP_SIZE;
  for (var k = gid.x; k < params.count; k += stride) {
    add_to_y(row_index[k], values[k] * x[col_index[k]]);
  }
}
