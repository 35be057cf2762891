// Matrix multiply tiled in workgroup memory (course seed 003). A workgroup owns a TILE × TILE
// block of C. For each step p along K it copies a TILE × TILE tile of A (rows of its block,
// columns p·TILE…) and one of B (rows p·TILE…, columns of its block) into workgroup memory,
// waits at a barrier so every word is there, multiplies the two tiles, and waits again so nobody
// overwrites a tile another invocation is still reading. Each element of A is then read from
// global memory once per workgroup column instead of once per column of C: N / TILE times.
// Loads past the edge of A or B put zero in the tile (bounds on both loads), so M, N and K need
// not be multiples of TILE. WebGPU promises 256 invocations per workgroup, so for TILE = 32 the
// workgroup is 32 × 8 and each invocation handles TILE / WG_Y rows (the driver sets WG_Y).
// Element type: the driver rewrites the `alias T` line for i32 (line numbers unchanged).
alias T = f32;
override TILE: u32 = 16;
override WG_Y: u32 = 16;
// TILE × TILE words, set by the driver.
override TILE_AREA: u32 = 256;

struct Params {
  m: u32, // rows of A and C
  n: u32, // columns of B and C
  k: u32, // columns of A, rows of B
}

@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> c: array<T>;
@group(0) @binding(3) var<uniform> params: Params;

var<workgroup> tileA: array<T, TILE_AREA>;
var<workgroup> tileB: array<T, TILE_AREA>;

@compute @workgroup_size(TILE, WG_Y)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let tx = lid.x;
  let col = wid.x * TILE + tx;
  let rows = TILE / WG_Y; // rows of C per invocation: 1 for TILE 16, 4 for TILE 32
  var acc = array<T, 4>(T(0), T(0), T(0), T(0));
  let phases = (params.k + TILE - 1u) / TILE;
  for (var p = 0u; p < phases; p++) {
    for (var r = 0u; r < rows; r++) {
      let ty = lid.y + r * WG_Y;
      let row = wid.y * TILE + ty;
      let ka = p * TILE + tx;
      var va = T(0);
      if (row < params.m && ka < params.k) {
        va = a[row * params.k + ka];
      }
      tileA[ty * TILE + tx] = va;
      let kb = p * TILE + ty;
      var vb = T(0);
      if (kb < params.k && col < params.n) {
        vb = b[kb * params.n + col];
      }
      tileB[ty * TILE + tx] = vb;
    }
    workgroupBarrier(); // both tiles are complete before anyone reads them
    for (var i = 0u; i < TILE; i++) {
      for (var r = 0u; r < rows; r++) {
        let ty = lid.y + r * WG_Y;
        acc[r] += tileA[ty * TILE + i] * tileB[i * TILE + tx];
      }
    }
    workgroupBarrier(); // everyone is done reading before the next phase overwrites the tiles
  }
  for (var r = 0u; r < rows; r++) {
    let row = wid.y * TILE + lid.y + r * WG_Y;
    if (row < params.m && col < params.n) {
      c[row * params.n + col] = acc[r];
    }
  }
}
