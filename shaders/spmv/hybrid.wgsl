// y = A·x, ELL + COO hybrid: the first WIDTH nonzeros of every row in ELL (column-major, padded),
// the rest of the long rows as COO triples. WIDTH is chosen on the CPU by the lesson's rule: the
// largest K with at least a third of the rows holding K or more nonzeros, so every ELL column is
// at least a third full and a few very long rows no longer pad all the others.
// One dispatch does both parts: invocations 0 … rows − 1 sum their row's ELL slots, the next
// `count` invocations take one COO triple each. Both add into y with the compare-exchange f32 add
// of coo.wgsl, since a row's ELL sum and its COO tail may arrive in any order. y starts as zeros.
override WORKGROUP_SIZE: u32 = 256;

struct Params {
  rows: u32,
  width: u32, // ELL slots per row
  count: u32, // COO triples
}

@group(0) @binding(0) var<storage, read> ell_col: array<u32>;
@group(0) @binding(1) var<storage, read> ell_val: array<f32>;
@group(0) @binding(2) var<storage, read> coo_row: array<u32>;
@group(0) @binding(3) var<storage, read> coo_col: array<u32>;
@group(0) @binding(4) var<storage, read> coo_val: array<f32>;
@group(0) @binding(5) var<storage, read> x: array<f32>;
@group(0) @binding(6) var<storage, read_write> y: array<atomic<u32>>;
@group(0) @binding(7) var<uniform> params: Params;

fn add_to_y(i: u32, v: f32) {
  var seen = atomicLoad(&y[i]);
  loop {
    let tried = atomicCompareExchangeWeak(&y[i], seen, bitcast<u32>(bitcast<f32>(seen) + v));
    if (tried.exchanged) {
      break;
    }
    seen = tried.old_value;
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = nwg.x * WORKGROUP_SIZE;
  let total = params.rows + params.count;
  for (var t = gid.x; t < total; t += stride) {
    if (t < params.rows) {
      var sum = 0.0;
      for (var i = 0u; i < params.width; i++) {
        let k = i * params.rows + t;
        sum += ell_val[k] * x[ell_col[k]];
      }
      add_to_y(t, sum);
    } else {
      let k = t - params.rows;
      add_to_y(coo_row[k], coo_val[k] * x[coo_col[k]]);
    }
  }
}
