// Parallel merge, fast variant, pass 1 of 2: one invocation per tile boundary co-ranks the output
// index g × TILE over global memory and writes how many elements of A precede it. The merge pass
// then reads its tile's two bounds instead of searching them itself, so no workgroup of the big
// pass waits on a binary search before its loads start.
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
override WORKGROUP_SIZE: u32 = 64;
// Outputs per merge workgroup.
override TILE: u32 = 2048;

struct Params {
  m: u32, // length of A
  n: u32, // length of B
  boundaries: u32, // tiles + 1
}

@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> splits: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

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
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let g = gid.x;
  if (g < params.boundaries) {
    splits[g] = co_rank(min(g * TILE, params.m + params.n));
  }
}
