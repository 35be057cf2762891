alias T = u32;
// Third pass of the multi-block scan: adds to every element of tile t the sum of all tiles before
// it (the exclusive scan of the tile totals that the first pass wrote). Line 1 names the element
// type: the lab swaps `u32` for `f32` or `i32` in place, keeping every line number.
//
// One workgroup per tile; its invocations step through the tile WORKGROUP_SIZE at a time, so a
// warp reads and writes 32 consecutive words (coalesced). Tile 0 has nothing to add and returns:
// its offset is the identity. Pass 1 (scan each tile) + pass 2 (scan the tile sums, recursively
// when they do not fit one tile) + this pass handle arrays of any length.

override WORKGROUP_SIZE: u32 = 256;

struct Params {
  n: u32,          // elements in `data`
  tile_size: u32,  // elements per tile of the first pass
  tile_count: u32, // ceil(n / tile_size)
}

@group(0) @binding(0) var<storage, read_write> data: array<T>;
@group(0) @binding(1) var<storage, read> tile_offsets: array<T>;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let tile = linear_workgroup_index(wid, nwg);
  if (tile == 0u || tile >= params.tile_count) {
    return;
  }
  let offset = tile_offsets[tile];
  let base = tile * params.tile_size;
  for (var j = lid; j < params.tile_size; j = j + WORKGROUP_SIZE) {
    let i = base + j;
    if (i < params.n) {
      data[i] = offset + data[i];
    }
  }
}
