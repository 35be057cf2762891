// Merge experiment (issue 29, round 4; no lab variant ships it): the vec4 merge pass
// (shaders/merge/vec4.wgsl) with each workgroup walking over tiles g, g + G, g + 2G, … (G workgroups
// in the grid), and the next tile's vectors loaded into registers right after the current tile is
// staged, so that they are in flight during the current tile's search and merge instead of after
// it. Everything else is vec4.wgsl's: the aligned vec4s that cover the tile's shares of A and B in
// workgroup memory, one co-rank search per invocation, ITEMS branch-free steps, the outputs back
// over the tile and out as vec4s. The driver pads A, B and C to whole vec4s.
// H100, 2^26 outputs (docs/benchmarks.md, 2026-11-28): slower than one tile per workgroup at every
// grid tried (the pass alone 78.3 % of copy on 792 workgroups against 80.7 %).
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
override WORKGROUP_SIZE: u32 = 256;
// Outputs per invocation: odd, and a constant, so the register array below has a fixed size.
const ITEMS: u32 = 15u;
// TILE = WORKGROUP_SIZE × ITEMS (set by the driver; a multiple of 4).
override TILE: u32 = 3840;
// Vectors of workgroup memory: the tile's, and four more for the two shares' ragged ends.
override SLOTS: u32 = 964;
// Vector loads per invocation: enough for SLOTS vectors.
const LOADS: u32 = (ITEMS + 4u) / 4u;

struct Params {
  m: u32, // length of A
  n: u32, // length of B
  boundaries: u32, // tiles + 1
}

@group(0) @binding(0) var<storage, read> a: array<vec4<T>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<T>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<T>>;
@group(0) @binding(3) var<uniform> params: Params;
@group(0) @binding(4) var<storage, read> splits: array<u32>;

var<workgroup> tile: array<vec4<T>, SLOTS>;

fn word(w: u32) -> T {
  return tile[w >> 2u][w & 3u];
}

fn co_rank_tile(k: u32, sa: u32, la: u32, sb: u32, lb: u32) -> u32 {
  var lo = select(0u, k - lb, k > lb);
  var hi = min(k, la);
  while (lo < hi) {
    let mid = (lo + hi) / 2u;
    if (word(sa + mid) <= word(sb + k - 1u - mid)) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Tile g's place: its first output k0, its length, A's share [a0, a0 + la), B's [b0, b0 + lb), and the
// vectors covering them (na from qa, nb from qb).
struct Place {
  k0: u32,
  count: u32,
  a0: u32,
  la: u32,
  b0: u32,
  lb: u32,
  na: u32,
  nb: u32,
}

fn place_of(g: u32) -> Place {
  let total = params.m + params.n;
  let k0 = min(g * TILE, total);
  let count = min(k0 + TILE, total) - k0;
  let a0 = splits[g];
  let la = splits[g + 1u] - a0;
  let b0 = k0 - a0;
  let lb = count - la;
  let na = ((a0 + la + 3u) >> 2u) - (a0 >> 2u);
  let nb = ((b0 + lb + 3u) >> 2u) - (b0 >> 2u);
  return Place(k0, count, a0, la, b0, lb, na, nb);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let tiles = params.boundaries - 1u;
  let stride = groups.x;
  var g = wid.x;
  if (g >= tiles) {
    return;
  }
  var p = place_of(g);
  var u: array<vec4<T>, LOADS>;
  for (var r = 0u; r < LOADS; r++) {
    let s = lid + r * WORKGROUP_SIZE;
    if (s < p.na) {
      u[r] = a[(p.a0 >> 2u) + s];
    } else if (s < p.na + p.nb) {
      u[r] = b[(p.b0 >> 2u) + s - p.na];
    }
  }
  loop {
    for (var r = 0u; r < LOADS; r++) {
      let s = lid + r * WORKGROUP_SIZE;
      if (s < p.na + p.nb) {
        tile[s] = u[r];
      }
    }
    workgroupBarrier();
    // The next tile's loads, in flight during this tile's search and merge.
    let g_next = g + stride;
    var q = p;
    if (g_next < tiles) {
      q = place_of(g_next);
      for (var r = 0u; r < LOADS; r++) {
        let s = lid + r * WORKGROUP_SIZE;
        if (s < q.na) {
          u[r] = a[(q.a0 >> 2u) + s];
        } else if (s < q.na + q.nb) {
          u[r] = b[(q.b0 >> 2u) + s - q.na];
        }
      }
    }
    let sa = p.a0 & 3u;
    let sb = 4u * p.na + (p.b0 & 3u);
    let t0 = min(lid * ITEMS, p.count);
    var i = co_rank_tile(t0, sa, p.la, sb, p.lb);
    var j = t0 - i;
    var av = word(sa + min(i, p.la));
    var bv = word(sb + min(j, p.lb));
    var v: array<T, ITEMS>;
    for (var r = 0u; r < ITEMS; r++) {
      let take_a = j >= p.lb || (i < p.la && av <= bv);
      v[r] = select(bv, av, take_a);
      i += select(0u, 1u, take_a);
      j += select(1u, 0u, take_a);
      let next = word(select(sb + min(j, p.lb), sa + min(i, p.la), take_a));
      av = select(av, next, take_a);
      bv = select(next, bv, take_a);
    }
    workgroupBarrier();
    for (var r = 0u; r < ITEMS; r++) {
      let t = lid * ITEMS + r;
      tile[t >> 2u][t & 3u] = select(T(), v[r], t < p.count);
    }
    workgroupBarrier();
    let q0 = p.k0 >> 2u;
    let nc = (p.count + 3u) >> 2u;
    for (var s = lid; s < nc; s += WORKGROUP_SIZE) {
      c[q0 + s] = tile[s];
    }
    // Every invocation has read the tile before the next one is staged over it.
    workgroupBarrier();
    if (g_next >= tiles) {
      break;
    }
    g = g_next;
    p = q;
  }
}
