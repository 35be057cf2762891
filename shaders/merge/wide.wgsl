// Parallel merge, wide variant, pass 2 of 2 (pass 1 is partition.wgsl): a workgroup owns one tile
// of TILE = WORKGROUP_SIZE × ITEMS outputs, whose A and B bounds the partition pass wrote. Every
// invocation first loads its ITEMS words of the tile into registers (a fixed count of independent
// loads, all in flight at once), then stages them in workgroup memory. One co-rank search per
// invocation finds where its ITEMS outputs start; from there the merge path is followed for a
// fixed ITEMS steps against the tile's own ends, with one workgroup-memory load per step (the
// word that replaces the one just taken) and no branches. The outputs go back over the tile and
// leave it with consecutive invocations writing consecutive words. ITEMS is odd, so an
// invocation's ITEMS consecutive words fall in different banks across a warp, and the tile is
// the only workgroup memory: no starts array, since the tile's ends bound every step.
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
override WORKGROUP_SIZE: u32 = 256;
// Outputs per invocation: odd, and a constant, so the register array below has a fixed size.
const ITEMS: u32 = 15u;
// TILE = WORKGROUP_SIZE × ITEMS (set by the driver).
override TILE: u32 = 3840;

struct Params {
  m: u32, // length of A
  n: u32, // length of B
  boundaries: u32, // tiles + 1
}

@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> c: array<T>;
@group(0) @binding(3) var<uniform> params: Params;
@group(0) @binding(4) var<storage, read> splits: array<u32>;

// The tile's share of A in words [0, la), its share of B in words [la, count); after the merge,
// the tile's outputs in order.
var<workgroup> tile: array<T, TILE>;

fn co_rank_tile(k: u32, la: u32, lb: u32) -> u32 {
  var lo = select(0u, k - lb, k > lb);
  var hi = min(k, la);
  while (lo < hi) {
    let mid = (lo + hi) / 2u;
    if (tile[mid] <= tile[la + k - 1u - mid]) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  return lo;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  // Large inputs fold the tiles into two dimensions; a surplus workgroup has no tile (g is
  // uniform across the workgroup, so leaving before the barriers is allowed).
  let g = wid.x + wid.y * groups.x;
  if (g + 1u >= params.boundaries) {
    return;
  }
  let total = params.m + params.n;
  let k0 = min(g * TILE, total);
  let count = min(k0 + TILE, total) - k0;
  let a0 = splits[g];
  let la = splits[g + 1u] - a0;
  let b0 = k0 - a0;
  // Word lid + r × WORKGROUP_SIZE of the tile in slot r: consecutive invocations read consecutive
  // words. A full tile (every one but the last) needs no end test, only the A-or-B choice.
  var v: array<T, ITEMS>;
  if (count == TILE) {
    for (var r = 0u; r < ITEMS; r++) {
      let x = lid + r * WORKGROUP_SIZE;
      if (x < la) {
        v[r] = a[a0 + x];
      } else {
        v[r] = b[b0 + x - la];
      }
    }
  } else {
    for (var r = 0u; r < ITEMS; r++) {
      let x = lid + r * WORKGROUP_SIZE;
      if (x < la) {
        v[r] = a[a0 + x];
      } else if (x < count) {
        v[r] = b[b0 + x - la];
      }
    }
  }
  for (var r = 0u; r < ITEMS; r++) {
    let x = lid + r * WORKGROUP_SIZE;
    if (x < count) {
      tile[x] = v[r];
    }
  }
  workgroupBarrier();
  // Where this invocation's outputs start on the tile's merge path: i words of A's share taken,
  // and B's share read from word j of the tile.
  let t0 = min(lid * ITEMS, count);
  var i = co_rank_tile(t0, la, count - la);
  var j = la + t0 - i;
  var av = tile[min(i, TILE - 1u)];
  var bv = tile[min(j, TILE - 1u)];
  // A fixed ITEMS steps, so `v` is indexed by constants once the loop is unrolled. Steps past the
  // tile's end (the last invocations of the last tile) compute values no one stores.
  for (var r = 0u; r < ITEMS; r++) {
    let take_a = j >= count || (i < la && av <= bv);
    v[r] = select(bv, av, take_a);
    i += select(0u, 1u, take_a);
    j += select(1u, 0u, take_a);
    let next = tile[min(select(j, i, take_a), TILE - 1u)];
    av = select(av, next, take_a);
    bv = select(next, bv, take_a);
  }
  workgroupBarrier();
  for (var r = 0u; r < ITEMS; r++) {
    if (t0 + r < count) {
      tile[t0 + r] = v[r];
    }
  }
  workgroupBarrier();
  for (var r = 0u; r < ITEMS; r++) {
    let x = lid + r * WORKGROUP_SIZE;
    if (x < count) {
      c[k0 + x] = tile[x];
    }
  }
}
