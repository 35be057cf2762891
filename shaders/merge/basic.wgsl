// Parallel merge, basic (course seed 003): every invocation owns ITEMS consecutive outputs of C
// and finds where its share starts and ends in A and B with co_rank, a binary search on the
// output's cross-diagonal, reading A and B straight from global memory. Then it merges its share
// sequentially. Equal keys take A first, so the merge is stable.
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
override WORKGROUP_SIZE: u32 = 64;
// Outputs per invocation.
override ITEMS: u32 = 4;

struct Params {
  m: u32, // length of A
  n: u32, // length of B
}

@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> c: array<T>;
@group(0) @binding(3) var<uniform> params: Params;

// How many of the first k outputs come from A. Cross-diagonal k holds the points (i, k - i) with
// max(0, k - n) <= i <= min(k, m); the search keeps i in [lo, hi] and probes A[mid] against
// B[k - 1 - mid]: when A[mid] <= B[k - 1 - mid], A[mid] is among the first k, so i > mid.
// Every probed index is in bounds, so no guard is needed.
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

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  // Large inputs fold the workgroups into two dimensions; surplus invocations find k0 = total.
  let id = (wid.x + wid.y * groups.x) * WORKGROUP_SIZE + lid;
  let total = params.m + params.n;
  let k0 = min(id * ITEMS, total);
  let k1 = min(k0 + ITEMS, total);
  let i0 = co_rank(k0);
  let i1 = co_rank(k1);
  var i = i0;
  var j = k0 - i0;
  let j1 = k1 - i1;
  for (var t = k0; t < k1; t++) {
    if (j >= j1) {
      c[t] = a[i];
      i++;
    } else if (i >= i1) {
      c[t] = b[j];
      j++;
    } else {
      let av = a[i];
      let bv = b[j];
      if (av <= bv) {
        c[t] = av;
        i++;
      } else {
        c[t] = bv;
        j++;
      }
    }
  }
}
