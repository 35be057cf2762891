// Parallel merge, vec4 experiment (issue 29; no lab variant ships it), pass 2 of 2 after partition.wgsl: the wide variant's
// tile of TILE = WORKGROUP_SIZE × ITEMS outputs per workgroup, with every global load and store
// four words wide. The tile's share of A is loaded as the aligned vec4s that cover it, and so is
// its share of B, each straight into workgroup memory: A's share starts at word a0 % 4 of the
// first vector, B's at word b0 % 4 of the first vector after A's, and the words of those vectors
// outside the shares are loaded but never read. One co-rank search per invocation in workgroup
// memory, then a fixed ITEMS steps along the merge path with one workgroup-memory load per step.
// The outputs go back over the tile (ITEMS is odd, so a warp's stride-ITEMS writes fall in
// different banks) and leave it as vec4s: TILE is a multiple of 4, so every tile starts on one.
// The driver pads A, B and C to whole vec4s.
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
override WORKGROUP_SIZE: u32 = 256;
// Outputs per invocation: odd, and a constant, so the register array below has a fixed size.
const ITEMS: u32 = 15u;
// TILE = WORKGROUP_SIZE × ITEMS (set by the driver; a multiple of 4).
override TILE: u32 = 3840;
// Vectors of workgroup memory: the tile's, and four more for the two shares' ragged ends.
override SLOTS: u32 = 964;
// Vector loads per invocation: enough for SLOTS vectors (ITEMS / 4 + 1 per invocation).
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

// Word w of workgroup memory.
fn word(w: u32) -> T {
  return tile[w >> 2u][w & 3u];
}

// How many of the tile's first k outputs come from A (A's share at word sa, la long; B's at sb, lb long).
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
  let lb = count - la;
  // The vectors that cover A's share, then those that cover B's, in slots [0, na) and [na, na + nb).
  let qa = a0 >> 2u;
  let na = ((a0 + la + 3u) >> 2u) - qa;
  let qb = b0 >> 2u;
  let nb = ((b0 + lb + 3u) >> 2u) - qb;
  // All LOADS loads in flight before the first store to workgroup memory.
  var u: array<vec4<T>, LOADS>;
  for (var r = 0u; r < LOADS; r++) {
    let s = lid + r * WORKGROUP_SIZE;
    if (s < na) {
      u[r] = a[qa + s];
    } else if (s < na + nb) {
      u[r] = b[qb + s - na];
    }
  }
  for (var r = 0u; r < LOADS; r++) {
    let s = lid + r * WORKGROUP_SIZE;
    if (s < na + nb) {
      tile[s] = u[r];
    }
  }
  workgroupBarrier();
  let sa = a0 & 3u;
  let sb = 4u * na + (b0 & 3u);
  // Where this invocation's outputs start on the tile's merge path: i words of A's share and j of B's.
  let t0 = min(lid * ITEMS, count);
  var i = co_rank_tile(t0, sa, la, sb, lb);
  var j = t0 - i;
  var av = word(sa + min(i, la));
  var bv = word(sb + min(j, lb));
  var v: array<T, ITEMS>;
  // A fixed ITEMS steps. Steps past the tile's end (the last invocations of the last tile) compute
  // values no one keeps; past either share's end the word read is never taken.
  for (var r = 0u; r < ITEMS; r++) {
    let take_a = j >= lb || (i < la && av <= bv);
    v[r] = select(bv, av, take_a);
    i += select(0u, 1u, take_a);
    j += select(1u, 0u, take_a);
    let next = word(select(sb + min(j, lb), sa + min(i, la), take_a));
    av = select(av, next, take_a);
    bv = select(next, bv, take_a);
  }
  workgroupBarrier();
  // Each invocation writes its own ITEMS words, lid × ITEMS on (t0 is clamped to count); words
  // past the end of C (in the last tile's last vector) are zeros.
  for (var r = 0u; r < ITEMS; r++) {
    let t = lid * ITEMS + r;
    tile[t >> 2u][t & 3u] = select(T(), v[r], t < count);
  }
  workgroupBarrier();
  let q0 = k0 >> 2u;
  let nc = (count + 3u) >> 2u;
  for (var s = lid; s < nc; s += WORKGROUP_SIZE) {
    c[q0 + s] = tile[s];
  }
}
