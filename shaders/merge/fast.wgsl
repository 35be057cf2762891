// Parallel merge, fast variant, pass 2 of 2: a workgroup owns TILE = WORKGROUP_SIZE × ITEMS
// outputs whose A and B bounds the partition pass wrote to `splits`. It loads its share of A and B
// into workgroup memory with consecutive invocations reading consecutive words, co-ranks and
// merges every invocation's ITEMS outputs inside workgroup memory into a second tile (one co-rank
// search per invocation: its end is the next invocation's start), and stores
// that tile with consecutive invocations writing consecutive words. Global memory sees each input
// word read once and each output word written once, all coalesced: the kernel is bandwidth-bound.
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
override WORKGROUP_SIZE: u32 = 128;
// Outputs per invocation; TILE = WORKGROUP_SIZE × ITEMS (set by the driver).
override ITEMS: u32 = 8;
override TILE: u32 = 1024;

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

// The tile's share of A in words [0, la), its share of B in words [la, la + lb).
var<workgroup> tile: array<T, TILE>;
// The merged tile, in output order.
var<workgroup> merged: array<T, TILE>;
// starts[t]: how many of the tile's A words precede invocation t's first output; one search each,
// the end of t's share is where t + 1 starts. STARTS = WORKGROUP_SIZE + 1 (set by the driver).
override STARTS: u32 = 129;
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
  let k1 = min(k0 + TILE, total);
  let a0 = splits[g];
  let a1 = splits[g + 1u];
  let b0 = k0 - a0;
  let la = a1 - a0;
  let lb = (k1 - a1) - b0;
  let count = la + lb;
  // ITEMS loads per invocation, a fixed count, so the compiler can issue them all before the
  // first one returns; word x of the tile is read by invocation x % WORKGROUP_SIZE (coalesced).
  for (var r = 0u; r < ITEMS; r++) {
    let x = lid + r * WORKGROUP_SIZE;
    if (x < la) {
      tile[x] = a[a0 + x];
    } else if (x < count) {
      tile[x] = b[b0 + x - la];
    }
  }
  workgroupBarrier();
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
  for (var t = t0; t < t1; t++) {
    if (j >= j1) {
      merged[t] = tile[i];
      i++;
    } else if (i >= i1) {
      merged[t] = tile[la + j];
      j++;
    } else {
      let av = tile[i];
      let bv = tile[la + j];
      if (av <= bv) {
        merged[t] = av;
        i++;
      } else {
        merged[t] = bv;
        j++;
      }
    }
  }
  workgroupBarrier();
  for (var r = 0u; r < ITEMS; r++) {
    let x = lid + r * WORKGROUP_SIZE;
    if (x < count) {
      c[k0 + x] = merged[x];
    }
  }
}
