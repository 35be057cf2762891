// EXPERIMENT, not a lab variant (timed by scripts/experiments/merge-experiments.ts, `prefetch`): the wide
// merge (shaders/merge/wide.wgsl, whose merge this repeats) with each workgroup walking over tiles
// g, g + groups, … and the next tile's ITEMS words loaded into registers while the current tile
// is searched and merged, as stream.wgsl does, so a workgroup keeps loads in flight through its
// whole round instead of only at its start. Splits from partition.wgsl, as for wide.
alias T = i32;
override WORKGROUP_SIZE: u32 = 128;
// Outputs per invocation: odd, and a constant, so the register array below has a fixed size.
const ITEMS: u32 = 15u;
// TILE = WORKGROUP_SIZE × ITEMS (set by the driver).
override TILE: u32 = 1920;

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

fn tile_of(g: u32) -> vec4<u32> {
  let total = params.m + params.n;
  let k0 = min(g * TILE, total);
  let a0 = splits[g];
  return vec4<u32>(k0, a0, splits[g + 1u] - a0, min(k0 + TILE, total) - k0);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let tiles = params.boundaries - 1u;
  var next: array<T, ITEMS>;
  var v: array<T, ITEMS>;
  var t = vec4<u32>();
  if (wid.x < tiles) {
    t = tile_of(wid.x);
    for (var r = 0u; r < ITEMS; r++) {
      let x = lid + r * WORKGROUP_SIZE;
      if (x < t.z) {
        next[r] = a[t.y + x];
      } else if (x < t.w) {
        next[r] = b[t.x - t.y + x - t.z];
      }
    }
  }
  for (var g = wid.x; g < tiles; g += groups.x) {
    let k0 = t.x;
    let la = t.z;
    let count = t.w;
    for (var r = 0u; r < ITEMS; r++) {
      let x = lid + r * WORKGROUP_SIZE;
      if (x < count) {
        tile[x] = next[r];
      }
    }
    workgroupBarrier();
    let following = g + groups.x;
    if (following < tiles) {
      t = tile_of(following);
      for (var r = 0u; r < ITEMS; r++) {
        let x = lid + r * WORKGROUP_SIZE;
        if (x < t.z) {
          next[r] = a[t.y + x];
        } else if (x < t.w) {
          next[r] = b[t.x - t.y + x - t.z];
        }
      }
    }
    let t0 = min(lid * ITEMS, count);
    var i = co_rank_tile(t0, la, count - la);
    var j = la + t0 - i;
    var av = tile[min(i, TILE - 1u)];
    var bv = tile[min(j, TILE - 1u)];
    for (var r = 0u; r < ITEMS; r++) {
      let take_a = j >= count || (i < la && av <= bv);
      v[r] = select(bv, av, take_a);
      i += select(0u, 1u, take_a);
      j += select(1u, 0u, take_a);
      let nx = tile[min(select(j, i, take_a), TILE - 1u)];
      av = select(av, nx, take_a);
      bv = select(nx, bv, take_a);
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
    workgroupBarrier();
  }
}
