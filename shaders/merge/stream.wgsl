// Parallel merge, streamed variant, pass 2 of 2 (pass 1 is partition.wgsl): each workgroup walks
// over tiles of TILE = WORKGROUP_SIZE × ITEMS outputs, g = its id, id + its count, … For every
// tile it reads the bounds the partition pass wrote, stages the tile's A and B words in workgroup
// memory, co-ranks once per invocation inside the tile (its share ends where the next one's
// starts), merges its ITEMS outputs into registers, writes them back over the tile and stores the
// tile with consecutive invocations writing consecutive words. Two things keep the memory busy:
// the next tile's words are loaded into registers before the current tile is merged, so its
// loads are in flight while this one is searched and merged; and ITEMS is odd, so the ITEMS
// consecutive words of every invocation fall in different banks across a warp.
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
override WORKGROUP_SIZE: u32 = 128;
// Outputs per invocation: odd, and a constant, so the register arrays below have a fixed size.
const ITEMS: u32 = 11u;
// TILE = WORKGROUP_SIZE × ITEMS and STARTS = WORKGROUP_SIZE + 1 (set by the driver).
override TILE: u32 = 1408;
override STARTS: u32 = 129;

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

// The tile's share of A in words [0, la), its share of B in words [la, la + lb); after the
// merge, the tile's outputs in order.
var<workgroup> tile: array<T, TILE>;
// starts[t]: how many of the tile's A words precede invocation t's first output.
var<workgroup> starts: array<u32, STARTS>;

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

// Tile g's first output k0, its first word of A a0, its share of A la, and its length.
fn tile_of(g: u32) -> vec4<u32> {
  let total = params.m + params.n;
  let k0 = min(g * TILE, total);
  let a0 = splits[g];
  return vec4<u32>(k0, a0, splits[g + 1u] - a0, min(k0 + TILE, total) - k0);
}

// Word x of the tile `t` (from tile_of): A's share, then B's; nothing past the tile's end.
fn tile_word(t: vec4<u32>, x: u32) -> T {
  if (x < t.z) {
    return a[t.y + x];
  }
  if (x < t.w) {
    return b[t.x - t.y + x - t.z];
  }
  return T();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let tiles = params.boundaries - 1u;
  // The words of the tile to merge next, word lid + r × WORKGROUP_SIZE in slot r (coalesced).
  var next: array<T, ITEMS>;
  var merged: array<T, ITEMS>;
  var t = vec4<u32>();
  if (wid.x < tiles) {
    t = tile_of(wid.x);
    for (var r = 0u; r < ITEMS; r++) {
      next[r] = tile_word(t, lid + r * WORKGROUP_SIZE);
    }
  }
  for (var g = wid.x; g < tiles; g += groups.x) {
    let k0 = t.x;
    let la = t.z;
    let count = t.w;
    let lb = count - la;
    for (var r = 0u; r < ITEMS; r++) {
      let x = lid + r * WORKGROUP_SIZE;
      if (x < count) {
        tile[x] = next[r];
      }
    }
    workgroupBarrier();
    // The next tile's loads go out now and land while this tile is searched and merged.
    let following = g + groups.x;
    if (following < tiles) {
      t = tile_of(following);
      for (var r = 0u; r < ITEMS; r++) {
        next[r] = tile_word(t, lid + r * WORKGROUP_SIZE);
      }
    }
    let t0 = min(lid * ITEMS, count);
    let t1 = min(t0 + ITEMS, count);
    let i0 = co_rank_tile(t0, la, lb);
    starts[lid] = i0;
    if (lid == WORKGROUP_SIZE - 1u) {
      // Past the last output every word of A's share has been taken.
      starts[WORKGROUP_SIZE] = la;
    }
    workgroupBarrier();
    let i1 = starts[lid + 1u];
    var i = i0;
    var j = t0 - i0;
    let j1 = t1 - i1;
    // A fixed ITEMS steps, so `merged` is indexed by constants once the loop is unrolled; steps
    // past t1 (the last invocations of the last tile) compute values no one stores.
    for (var r = 0u; r < ITEMS; r++) {
      let av = tile[min(i, TILE - 1u)];
      let bv = tile[min(la + j, TILE - 1u)];
      let take_a = j >= j1 || (i < i1 && av <= bv);
      merged[r] = select(bv, av, take_a);
      i += select(0u, 1u, take_a);
      j += select(1u, 0u, take_a);
    }
    workgroupBarrier();
    for (var r = 0u; r < ITEMS; r++) {
      if (t0 + r < t1) {
        tile[t0 + r] = merged[r];
      }
    }
    workgroupBarrier();
    for (var r = 0u; r < ITEMS; r++) {
      let x = lid + r * WORKGROUP_SIZE;
      if (x < count) {
        c[k0 + x] = tile[x];
      }
    }
    // The next round overwrites the tile only after every invocation has stored its words.
    workgroupBarrier();
  }
}
