// Parallel merge, an alternative pass 1 (issue 29; no variant ships it): one invocation per tile boundary finds how many
// elements of A precede output g × TILE, as partition.wgsl does, but by a WAYS-way search instead
// of a binary one. Each round the invocation tests WAYS - 1 evenly spaced points of the range left,
// all their loads in flight at once; the tests read true up to the answer and false after it, so
// their count names the one slice of WAYS that holds it. A range of 2^25 takes 7 rounds of 15
// independent probes at 16 ways, where a binary search waits on 25 probes one after another: the
// merge pass cannot start before the slowest boundary is found, so the rounds are what count.
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
override WORKGROUP_SIZE: u32 = 64;
// Outputs per merge workgroup.
override TILE: u32 = 3840;
// Slices per round (the probes of a round are one fewer).
const WAYS: u32 = 16u;

struct Params {
  m: u32, // length of A
  n: u32, // length of B
  boundaries: u32, // tiles + 1
}

@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> splits: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

// The smallest i in [lo, hi] with a[i] > b[k - 1 - i] (or hi): how many of the first k outputs come from A.
fn co_rank(k: u32) -> u32 {
  var lo = select(0u, k - params.n, k > params.n);
  var hi = min(k, params.m);
  while (lo < hi) {
    let base = lo;
    let step = (hi - lo) / WAYS;
    let rest = (hi - lo) % WAYS;
    // Probe s at base + ⌊(s + 1) · (hi - lo) / WAYS⌋ < hi: the loads first, all independent, then the tests.
    var below: array<bool, WAYS - 1u>;
    for (var s = 1u; s < WAYS; s++) {
      let p = base + s * step + (s * rest) / WAYS;
      below[s - 1u] = a[p] <= b[k - 1u - p];
    }
    var taken = 0u;
    for (var s = 0u; s < WAYS - 1u; s++) {
      taken += select(0u, 1u, below[s]);
    }
    // The answer lies after the last probe that reads true and at or before the first that reads false.
    if (taken > 0u) {
      lo = base + taken * step + (taken * rest) / WAYS + 1u;
    }
    if (taken < WAYS - 1u) {
      hi = base + (taken + 1u) * step + ((taken + 1u) * rest) / WAYS;
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
