// Top-k by a rising threshold and radix select: the input is read once. A workgroup reads its
// rounds of 2 × WORKGROUP_SIZE vec4s and keeps, in a pool in workgroup memory, only the values
// above its threshold `floor`, which starts at the lowest i32; most values cost one comparison
// with a register. When the pool could overflow in the next round, the workgroup finds the pool's
// K-th largest value by radix select (four passes over 8 bits of the key, a 256-bin histogram and its
// suffix sums each), keeps exactly the K largest (the values above the K-th, and as many copies of
// the K-th as make K) and raises the floor to the K-th. At the end it writes its K largest,
// descending, padded with the lowest i32. The same kernel over the workgroups' lists, as one
// workgroup, gives the answer. Duplicates are kept (the usual top-k): a histogram counts values,
// not distinct values. Equal values are interchangeable, so the pool's order (set by atomics) never
// shows: the output is the same whatever order the invocations run in.
// One invocation per histogram bin: loops over the bins would nest one level deeper, and a
// watchdog-guarded copy of this kernel (edited code) gives each loop fewer iterations per level.
const WORKGROUP_SIZE: u32 = 256u;
// Values kept (1…64).
override K: u32 = 20;
// Words of the pool: at least K + 8 × WORKGROUP_SIZE (set by the driver).
override POOL: u32 = 3072;

struct Params {
  quads: u32, // vec4s in `input`
}

@group(0) @binding(0) var<storage, read> input: array<vec4<i32>>;
@group(0) @binding(1) var<storage, read_write> output: array<i32>;
@group(0) @binding(2) var<uniform> params: Params;

// The values above the floor, in the order their atomics were served.
var<workgroup> pool: array<i32, POOL>;
var<workgroup> pooled: atomic<u32>;
// pooled, copied to a plain word so the whole workgroup can read it as one value.
var<workgroup> pool_size: u32;
// The current floor: a value enters the pool only when it is above it.
var<workgroup> floor_value: i32;
// Radix select: the histogram of one digit, the sums of its 16 groups of 16 bins, its suffix
// sums, and the bucket found with the count still needed inside it.
var<workgroup> bins: array<atomic<u32>, 256>;
var<workgroup> groups16: array<u32, 16>;
var<workgroup> suffix: array<u32, 256>;
var<workgroup> chosen: array<u32, 2>;
// The values strictly above the K-th while the pool is cut down to K.
var<workgroup> above: array<i32, 64>;
var<workgroup> above_count: atomic<u32>;

const LOWEST: i32 = -2147483647i - 1i;

// The value as an unsigned key in the same order: the sign bit flipped.
fn key(v: i32) -> u32 {
  return bitcast<u32>(v) ^ 0x80000000u;
}

// Cuts the pool's `size` values (size ≥ K) down to its K largest and raises the floor to the K-th.
// Called by the whole workgroup, with `size` the same in every invocation.
fn keep_k_largest(lid: u32, size: u32) {
  var prefix = 0u; // the K-th key's digits found so far
  var known = 0u;  // the bits of `prefix` already decided
  var need = K;    // how many values of the keys matching `prefix` still belong to the K largest
  for (var d = 0u; d < 4u; d++) {
    let shift = 24u - 8u * d;
    atomicStore(&bins[lid], 0u);
    if (lid == 0u) {
      atomicStore(&above_count, 0u);
    }
    workgroupBarrier();
    for (var x = lid; x < size; x += WORKGROUP_SIZE) {
      let u = key(pool[x]);
      if ((u & known) == prefix) {
        atomicAdd(&bins[(u >> shift) & 255u], 1u);
      }
    }
    workgroupBarrier();
    // Suffix sums without a barrier per step: the 16 groups of 16 bins summed, then each
    // invocation adds up the rest of its bin's group and the groups above it (every lane of a
    // warp reads the same word or one 16 words away, so no bank is read twice).
    if (lid < 16u) {
      var total = 0u;
      for (var x = 0u; x < 16u; x++) {
        total += atomicLoad(&bins[16u * lid + x]);
      }
      groups16[lid] = total;
    }
    workgroupBarrier();
    let group = lid / 16u;
    var from_b = 0u;
    for (var x = 0u; x < 16u; x++) {
      from_b += select(0u, atomicLoad(&bins[16u * group + x]), 16u * group + x >= lid);
    }
    for (var g = 0u; g < 16u; g++) {
      from_b += select(0u, groups16[g], g > group);
    }
    suffix[lid] = from_b;
    workgroupBarrier();
    // The K-th key's digit is the one bucket where the count from the top first reaches `need`.
    let higher = select(0u, suffix[min(lid + 1u, 255u)], lid < 255u);
    if (from_b >= need && higher < need) {
      chosen[0] = lid;
      chosen[1] = need - higher;
    }
    workgroupBarrier();
    // No barrier needed before the next digit: `chosen` is written again only three barriers on.
    prefix |= chosen[0] << shift;
    known |= 255u << shift;
    need = chosen[1];
  }
  // `prefix` is now the K-th key, and `need` copies of it complete the K largest.
  let kth = bitcast<i32>(prefix ^ 0x80000000u);
  for (var x = lid; x < size; x += WORKGROUP_SIZE) {
    let v = pool[x];
    if (v > kth) {
      above[atomicAdd(&above_count, 1u)] = v;
    }
  }
  workgroupBarrier();
  // K ≤ 64 < WORKGROUP_SIZE: one word each.
  if (lid < K) {
    pool[lid] = select(kth, above[min(lid, 63u)], lid < K - need);
  }
  if (lid == 0u) {
    atomicStore(&pooled, K);
    floor_value = kth;
  }
  workgroupBarrier();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  if (lid == 0u) {
    atomicStore(&pooled, 0u);
    floor_value = LOWEST;
  }
  workgroupBarrier();
  var least = LOWEST;
  // A round adds at most 8 × WORKGROUP_SIZE values; cut the pool before it could overflow.
  let room = POOL - 8u * WORKGROUP_SIZE;
  for (var round = 0u; ; round++) {
    let base = (round * groups.x + wid.x) * 2u * WORKGROUP_SIZE;
    if (base >= params.quads) {
      break;
    }
    // Both vec4 loads are issued before either is used; past the end, the index is clamped and
    // the values skipped.
    let x0 = base + lid;
    let x1 = x0 + WORKGROUP_SIZE;
    let q0 = input[min(x0, params.quads - 1u)];
    let q1 = input[min(x1, params.quads - 1u)];
    // Which of the eight values enter the pool: one bit each. The invocation then takes a run of
    // pool words with one atomic for all of them (not one per value: the first round keeps every
    // value, and one atomic word served 2048 times in a row would stall the workgroup).
    var enter = 0u;
    for (var c = 0u; c < 8u; c++) {
      let inside = select(x0, x1, c >= 4u) < params.quads;
      let v = select(q0, q1, c >= 4u)[c % 4u];
      if (inside && v > least) {
        enter |= 1u << c;
      }
    }
    if (enter != 0u) {
      var slot = atomicAdd(&pooled, countOneBits(enter));
      for (var c = 0u; c < 8u; c++) {
        if ((enter & (1u << c)) != 0u) {
          pool[slot] = select(q0, q1, c >= 4u)[c % 4u];
          slot++;
        }
      }
    }
    workgroupBarrier();
    if (lid == 0u) {
      pool_size = atomicLoad(&pooled);
    }
    let size = workgroupUniformLoad(&pool_size);
    if (size > room) {
      keep_k_largest(lid, size);
      least = floor_value;
    }
  }
  workgroupBarrier();
  if (lid == 0u) {
    pool_size = atomicLoad(&pooled);
  }
  let size = workgroupUniformLoad(&pool_size);
  if (size > K) {
    keep_k_largest(lid, size);
  }
  // Each of the (at most K) kept values goes to its rank: the values above it, and equal values
  // held at a lower word, come first.
  let kept = min(size, K);
  if (lid < kept) {
    let v = pool[lid];
    var rank = 0u;
    for (var j = 0u; j < kept; j++) {
      let w = pool[j];
      if (w > v || (w == v && j < lid)) {
        rank++;
      }
    }
    output[wid.x * K + rank] = v;
  } else if (lid < K) {
    output[wid.x * K + lid] = LOWEST;
  }
}
