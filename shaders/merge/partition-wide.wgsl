// Parallel merge, an alternative pass 1 for the wide variant, timed by scripts/experiments/merge-experiments.ts
// and shipped by no variant: one workgroup of 32 invocations per tile boundary finds how many
// elements of A precede output g × TILE by a 33-way search instead of a binary one. Each round the
// 32 invocations test 32 evenly spaced points of the range left, all loads in flight at once; the
// tests read true up to the answer and false after it, so their count names the one slice of the
// 33 that holds it. A range of 2^25 takes 5 rounds instead of 25 dependent probes, yet on the H100
// the whole wide merge at 2^26 took 0.3689 ms with it against 0.2806 ms with partition.wgsl.
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
// Invocations per workgroup: the probes of one round (the driver sets it; 32 by default).
override WORKGROUP_SIZE: u32 = 32;
// Outputs per merge workgroup.
override TILE: u32 = 1920;

struct Params {
  m: u32, // length of A
  n: u32, // length of B
  boundaries: u32, // tiles + 1
}

@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> splits: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

// flags[t]: 1 when A[probe t] goes before B[k − 1 − probe t] (A's word is among the first k).
var<workgroup> flags: array<u32, WORKGROUP_SIZE>;
// The range left after a round, [lo, hi), as invocation 0 narrowed it.
var<workgroup> range: array<u32, 2>;

// Probe t of the range [lo, lo + span): the (t + 1)-th of WORKGROUP_SIZE + 1 equal steps, without
// overflowing 32 bits for any span.
fn probe(lo: u32, span: u32, t: u32) -> u32 {
  let parts = WORKGROUP_SIZE + 1u;
  return lo + (span / parts) * (t + 1u) + ((span % parts) * (t + 1u)) / parts;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  // Many boundaries fold into two dimensions; g is uniform, so a surplus workgroup may leave.
  let g = wid.x + wid.y * groups.x;
  if (g >= params.boundaries) {
    return;
  }
  let k = min(g * TILE, params.m + params.n);
  var lo = select(0u, k - params.n, k > params.n);
  var hi = min(k, params.m);
  while (lo < hi) {
    let span = hi - lo;
    let q = probe(lo, span, lid);
    flags[lid] = select(0u, 1u, a[q] <= b[k - 1u - q]);
    workgroupBarrier();
    if (lid == 0u) {
      // The tests are true up to the answer and false after it: count the trues.
      var c = 0u;
      for (var t = 0u; t < WORKGROUP_SIZE; t++) {
        c += flags[t];
      }
      var next_lo = lo;
      var next_hi = hi;
      if (c > 0u) {
        next_lo = probe(lo, span, c - 1u) + 1u;
      }
      if (c < WORKGROUP_SIZE) {
        next_hi = probe(lo, span, c);
      }
      range[0] = next_lo;
      range[1] = next_hi;
    }
    let r = workgroupUniformLoad(&range);
    lo = r[0];
    hi = r[1];
  }
  if (lid == 0u) {
    splits[g] = lo;
  }
}
