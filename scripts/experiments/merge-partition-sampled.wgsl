// Merge experiment (issue 29; no lab variant ships it), pass 2 of 3 after merge-sample.wgsl: the
// co-rank of every tile boundary, as partition.wgsl finds it, but in two stages. First a binary
// search over the sample points i = STRIDE q only, each probe a pair of words from the small sample
// array (in L2 after the sample pass wrote it); it leaves a window of fewer than STRIDE candidates,
// which a search over A and B finishes (8 dependent probes in memory at STRIDE 256 instead of
// about 25 when binary; 4 rounds of 3 probes at FINE_WAYS 4). Needs every boundary but the last, k = m + n, to be a multiple of STRIDE (the
// driver checks TILE % STRIDE == 0); the last one's answer is m and takes no probe.
// H100, 2^26 outputs (docs/benchmarks.md, 2026-11-28): with the sample pass 0.0234 ms at STRIDE 256,
// FINE_WAYS 4, against 0.0261 for partition.wgsl; the whole vec4 chain 70.8 % of copy against 69.8 %.
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
override WORKGROUP_SIZE: u32 = 64;
// Outputs per merge workgroup.
override TILE: u32 = 3840;
override STRIDE: u32 = 256;
// Ways of the search inside the window (the driver rewrites this line).
const FINE_WAYS: u32 = 2u;

struct Params {
  m: u32, // length of A
  n: u32, // length of B
  boundaries: u32, // tiles + 1
  a_samples: u32, // ceil(m / STRIDE): where B's samples start in `samples`
}

@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> splits: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;
@group(0) @binding(4) var<storage, read> samples: array<T>;

fn co_rank(k: u32) -> u32 {
  var lo = select(0u, k - params.n, k > params.n);
  var hi = min(k, params.m);
  if (k % STRIDE == 0u && lo < hi) {
    // The sample points inside [lo, hi): i = STRIDE q for q in [ql, qh). The test A[i] <= B[k − 1 − i]
    // holds up to the answer and fails after it; find the first sample point where it fails.
    var ql = (lo + STRIDE - 1u) / STRIDE;
    var qh = (hi + STRIDE - 1u) / STRIDE;
    let q0 = ql;
    let q1 = qh;
    let kq = k / STRIDE;
    while (ql < qh) {
      let q = (ql + qh) / 2u;
      // B[k − 1 − STRIDE q] is B's sample p = kq − q (1 ≤ p ≤ n / STRIDE since lo ≤ STRIDE q < hi).
      if (samples[q] <= samples[params.a_samples + kq - q - 1u]) {
        ql = q + 1u;
      } else {
        qh = q;
      }
    }
    // The test held at STRIDE (ql − 1) and failed at STRIDE ql: the answer lies between them.
    if (ql > q0) {
      lo = max(lo, STRIDE * (ql - 1u) + 1u);
    }
    if (ql < q1) {
      hi = min(hi, STRIDE * ql);
    }
  }
  // The window, searched over A and B with FINE_WAYS − 1 probes a round, their loads all in flight
  // (FINE_WAYS = 2: the binary search of partition.wgsl).
  while (lo < hi) {
    let base = lo;
    let step = (hi - lo) / FINE_WAYS;
    let rest = (hi - lo) % FINE_WAYS;
    var below: array<bool, FINE_WAYS - 1u>;
    for (var s = 1u; s < FINE_WAYS; s++) {
      let p = base + s * step + (s * rest) / FINE_WAYS;
      below[s - 1u] = a[p] <= b[k - 1u - p];
    }
    var taken = 0u;
    for (var s = 0u; s < FINE_WAYS - 1u; s++) {
      taken += select(0u, 1u, below[s]);
    }
    // The answer lies after the last probe that held and at or before the first that failed.
    if (taken > 0u) {
      lo = base + taken * step + (taken * rest) / FINE_WAYS + 1u;
    }
    if (taken < FINE_WAYS - 1u) {
      hi = base + (taken + 1u) * step + ((taken + 1u) * rest) / FINE_WAYS;
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
