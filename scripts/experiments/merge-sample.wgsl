// Merge experiment (issue 29; no lab variant ships it), pass 1 of 3 before merge-partition-sampled.wgsl:
// every STRIDE-th key of A and of B copied into one small array, so that the partition pass's first
// probes read it from L2 instead of reading A and B from memory. A's samples are A[STRIDE q]
// (q < ceil(m / STRIDE)); B's are B[STRIDE p − 1] (1 ≤ p ≤ n / STRIDE), the key just before each
// STRIDE-th position, because a boundary k that is a multiple of STRIDE tests A[i] against
// B[k − 1 − i], and for i = STRIDE q that is B[STRIDE (k / STRIDE − q) − 1].
// Element type: the driver rewrites the `alias T` line for f32 or u32 (line numbers unchanged).
alias T = i32;
override WORKGROUP_SIZE: u32 = 256;
override STRIDE: u32 = 256;

struct Params {
  m: u32, // length of A
  n: u32, // length of B
  boundaries: u32, // tiles + 1
  a_samples: u32, // ceil(m / STRIDE): A's samples come first
}

@group(0) @binding(0) var<storage, read> a: array<T>;
@group(0) @binding(1) var<storage, read> b: array<T>;
@group(0) @binding(2) var<storage, read_write> samples: array<T>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let s = gid.x;
  if (s < params.a_samples) {
    samples[s] = a[s * STRIDE];
  } else if (s < params.a_samples + params.n / STRIDE) {
    samples[s] = b[(s - params.a_samples + 1u) * STRIDE - 1u];
  }
}
