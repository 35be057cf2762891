// Parallel merge, tiled (course seed 003): a workgroup owns TILE consecutive outputs. Two of its
// invocations co-rank the tile's first and one-past-last output over global memory; the workgroup
// then loads exactly the A and B elements the tile needs into workgroup memory, coalesced, and
// every invocation co-ranks its own ITEMS outputs again inside the tile and merges them from
// workgroup memory. Each element of A and B is read from global memory once.
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
override WORKGROUP_SIZE: u32 = 32;
// Outputs per invocation; TILE = WORKGROUP_SIZE × ITEMS (set by the driver).
override ITEMS: u32 = 4;
override TILE: u32 = 128;

struct Params {
  m: u32, // length of A
  n: u32, // length of B
}

@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> c: array<T>;
@group(0) @binding(3) var<uniform> params: Params;

// The tile's share of A in words [0, la), its share of B in words [la, la + lb).
var<workgroup> tile: array<T, TILE>;
// bounds[0], bounds[1]: how many elements of A precede the tile's first and one-past-last output.
var<workgroup> bounds: array<u32, 2>;

// co_rank over global memory, as in the basic merge.
fn co_rank(k: u32) -> u32 {
  var lo = select(0u, k - params.n, k > params.n);
  var hi = min(k, params.m);
  while (lo < hi) {
    let mid = (lo + hi) / 2u;
    if (a[mid] <= b[k - 1u - mid]) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The same search inside the tile: A's part has la words, B's part lb words after it.
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
  // Large inputs fold the tiles into two dimensions; a surplus workgroup finds k0 = k1 = total.
  let g = wid.x + wid.y * groups.x;
  let total = params.m + params.n;
  let k0 = min(g * TILE, total);
  let k1 = min(k0 + TILE, total);
  if (lid < 2u) {
    bounds[lid] = co_rank(select(k0, k1, lid == 1u));
  }
  workgroupBarrier();
  let a0 = bounds[0];
  let b0 = k0 - a0;
  let la = bounds[1] - a0;
  let lb = (k1 - bounds[1]) - b0;
  for (var x = lid; x < la + lb; x += WORKGROUP_SIZE) {
    if (x < la) {
      tile[x] = a[a0 + x];
    } else {
      tile[x] = b[b0 + x - la];
    }
  }
  workgroupBarrier();
  let t0 = min(lid * ITEMS, la + lb);
  let t1 = min(t0 + ITEMS, la + lb);
  let i0 = co_rank_tile(t0, la, lb);
  let i1 = co_rank_tile(t1, la, lb);
  var i = i0;
  var j = t0 - i0;
  let j1 = t1 - i1;
  for (var t = t0; t < t1; t++) {
    if (j >= j1) {
      c[k0 + t] = tile[i];
      i++;
    } else if (i >= i1) {
      c[k0 + t] = tile[la + j];
      j++;
    } else {
      let av = tile[i];
      let bv = tile[la + j];
      if (av <= bv) {
        c[k0 + t] = av;
        i++;
      } else {
        c[k0 + t] = bv;
        j++;
      }
    }
  }
}
