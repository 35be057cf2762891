// Shared memory, neighbored pairs with less divergence: invocation lid works on word
// index = 2*s*lid, so the working invocations are the lowest ones (lid < WORKGROUP_SIZE / (2*s))
// and whole warps all work or all skip until fewer than 32 remain. Same pairs and tree as
// neighbored.wgsl.
// The price is bank conflicts: with 32 banks of 4-byte words, lane k touches word 2*s*k, bank
// (2*s*k) % 32. For 256 invocations:
//   s = 1: lanes 0 and 16 hit words 0 and 32, both bank 0 → 2-way conflict;
//   s = 2: lanes 0, 8, 16, 24 hit words 0, 32, 64, 96 → 4-way;
//   s = 4: 32 lanes on banks 0, 8, 16, 24 → 8-way; s = 8 (16 lanes) and s = 16 (8 lanes): 8-way.
// Element type: the driver rewrites the `alias T` line for i32 or f32 (line numbers unchanged).
alias T = u32;
override WORKGROUP_SIZE: u32 = 256;

struct Params {
  n: u32, // elements in `input` to reduce
}

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> partials: array<T>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> sdata: array<T, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let group = linear_workgroup_index(wid, nwg);
  let base = group * WORKGROUP_SIZE;
  if (base >= params.n) {
    return; // padding workgroup of a folded grid (uniform: barriers below stay valid)
  }
  let i = base + lid;
  var v = T(0);
  if (i < params.n) {
    v = input[i];
  }
  sdata[lid] = v;
  workgroupBarrier();

  for (var s = 1u; s < WORKGROUP_SIZE; s *= 2u) {
    // 2*s*lid: at s = 1 with 256 invocations, lids 0..127 work (warps 0–3), lids 128..255 skip.
    let index = 2u * s * lid;
    if (index < WORKGROUP_SIZE) {
      sdata[index] += sdata[index + s];
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    partials[group] = sdata[0];
  }
}
