// Merge experiment (issue 29, round 4; no lab variant ships it): the parts that turn
// shaders/merge/partition-kary.wgsl into the sampled partition (merge-experiments.ts splices them in).
// The entry point `sample` copies every STRIDE-th key of A (A[STRIDE q], q < ceil(m / STRIDE)) and
// of B (B[STRIDE p − 1], 1 ≤ p ≤ n / STRIDE: the key just before each STRIDE-th position) into
// `samples`; then `main` finds each boundary's co-rank in two stages: first a binary search over the
// sample points i = STRIDE q only, each probe two words of the small sample array (in L2 after the
// sample pass wrote it), which leaves a window of fewer than STRIDE candidates; then
// partition-kary.wgsl's search over A and B inside that window (WAYS − 1 probes a round).
// A boundary k that is a multiple of STRIDE tests A[i] against B[k − 1 − i], and for i = STRIDE q
// that is B's sample k / STRIDE − q. Every boundary but the last (k = m + n, whose answer m takes no
// probe) is such a multiple when TILE % STRIDE == 0 (the driver checks).
// H100, 2^26 outputs (docs/benchmarks.md, merge round 4, 2026-11-27): the two passes 0.0234 ms at
// STRIDE 256 and WAYS 4, against 0.0261 for partition.wgsl; the whole vec4 chain 70.8 % of copy
// against 69.8 %.
// @splice coarse: after co_rank's `var hi` line
  if (k % STRIDE == 0u && lo < hi) {
    // The sample points inside [lo, hi): i = STRIDE q for q in [ql, qh); the first where the test fails.
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
// @splice sample: a second entry point, 256 invocations a workgroup
@compute @workgroup_size(256)
fn sample(@builtin(global_invocation_id) gid: vec3<u32>) {
  let s = gid.x;
  let p = s - params.a_samples + 1u;
  if (s < params.a_samples) {
    samples[s] = a[s * STRIDE];
  } else if (p <= params.n / STRIDE) {
    samples[s] = b[p * STRIDE - 1u];
  }
}
