// Top-k, the course seed's scheme (seed 002): every invocation keeps a sorted list of the K largest
// values it has seen (insert_value), then the workgroup merges the lists pairwise in a tree, each
// surviving invocation inserting its partner's K values into its own, and writes its K values. A
// second launch of the same kernel over the workgroups' lists, as one workgroup, gives the answer.
// Warpscope keeps each list in a column of workgroup memory from the start (slot s of invocation t
// at s × WORKGROUP_SIZE + t) instead of in registers, so the trace sees every insert.
// DISTINCT = 1 drops a value already in the list, as the seed's insert_value does: the result is
// the K largest distinct values. DISTINCT = 0 keeps duplicates: the usual top-k.
override WORKGROUP_SIZE: u32 = 128;
// Values kept per list (1…64), and the lists' words: WORKGROUP_SIZE × K (set by the driver).
override K: u32 = 20;
override LISTS: u32 = 2560;
override DISTINCT: u32 = 1;

struct Params {
  n: u32, // values in `input`
}

@group(0) @binding(0) var<storage, read> input: array<i32>;
@group(0) @binding(1) var<storage, read_write> output: array<i32>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> lists: array<i32, LISTS>;

// The seed's INT_MIN: what an unfilled slot holds.
const LOWEST: i32 = -2147483647i - 1i;

// Inserts v into invocation me's list (descending), dropping it when it is not among the list's K
// largest, or, with DISTINCT, when the list already holds it.
fn insert_value(me: u32, v: i32) {
  if (DISTINCT != 0u) {
    for (var s = 0u; s < K; s++) {
      if (lists[s * WORKGROUP_SIZE + me] == v) {
        return;
      }
    }
  }
  if (v <= lists[(K - 1u) * WORKGROUP_SIZE + me]) {
    return;
  }
  // Shift the smaller values down one slot until v's place is found.
  var s = K - 1u;
  loop {
    if (s == 0u) {
      break;
    }
    let above = lists[(s - 1u) * WORKGROUP_SIZE + me];
    if (v <= above) {
      break;
    }
    lists[s * WORKGROUP_SIZE + me] = above;
    s--;
  }
  lists[s * WORKGROUP_SIZE + me] = v;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  for (var s = 0u; s < K; s++) {
    lists[s * WORKGROUP_SIZE + lid] = LOWEST;
  }
  // Each invocation reads every (groups × WORKGROUP_SIZE)-th value, starting at its global index.
  for (var x = wid.x * WORKGROUP_SIZE + lid; x < params.n; x += groups.x * WORKGROUP_SIZE) {
    insert_value(lid, input[x]);
  }
  workgroupBarrier();
  // The tree: at each level the lower half inserts the upper half's lists into its own.
  for (var stride = WORKGROUP_SIZE / 2u; stride > 0u; stride /= 2u) {
    if (lid < stride) {
      for (var s = 0u; s < K; s++) {
        insert_value(lid, lists[s * WORKGROUP_SIZE + lid + stride]);
      }
    }
    workgroupBarrier();
  }
  if (lid < K) {
    output[wid.x * K + lid] = lists[lid * WORKGROUP_SIZE];
  }
}
