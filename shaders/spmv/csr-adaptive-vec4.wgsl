enable subgroups; diagnostic(off, subgroup_uniformity);
// y = A·x, CSR adaptive with vec4 loads (an experiment beside csr-adaptive.wgsl, timed by
// scripts/experiments/spmv-adaptive.ts; not a lab variant): the same bins, work units and reductions, but every
// lane reads col_index and values as aligned vec4s, so a group's lanes together read whole
// 16-byte vectors over the row (a 32-lane load instruction covers 512 contiguous bytes, where
// scalar strided loads cover 128) and each lane has up to eight gathers of x in flight. Words of
// a vector outside the row are loaded and skipped. The arrays are padded to whole vectors on the
// CPU. `diagnostic(off, subgroup_uniformity)` as in csr-adaptive.wgsl: the nonzero loops end
// before the shuffles and subgroupAdd, where all lanes meet again.
override WORKGROUP_SIZE: u32 = 256;
override GROUP: u32 = 4;
override ROWS_PER_WORKGROUP: u32 = 128;
override CHUNKS_PER_WORKGROUP: u32 = 8;

struct Params {
  rows: u32,
  long_after: u32,   // rows with more nonzeros than this are in `chunks`
  chunks: u32,
  chunk_blocks: u32, // ⌈chunks ÷ CHUNKS_PER_WORKGROUP⌉
}

@group(0) @binding(0) var<storage, read> row_ptr: array<u32>;
// Padded to whole vectors (a multiple of four words).
@group(0) @binding(1) var<storage, read> col_index: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> values: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<atomic<u32>>;
@group(0) @binding(5) var<uniform> params: Params;
// Per chunk: its row, first nonzero, end (one past its last) and 1 if it is the row's only chunk.
@group(0) @binding(6) var<storage, read> chunks: array<vec4<u32>>;

var<workgroup> claim: atomic<u32>;

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

// Nonzeros [start, end) read as aligned vec4s: vectors start / 4 + k, + stride, … two at a time
// (two loads of each array, then up to eight gathers of x in flight). A vector's words outside
// [start, end) belong to the neighbouring rows (or padding): they are loaded with it, not summed.
fn vec_sum(start: u32, end: u32, k: u32, stride: u32) -> f32 {
  var sum = 0.0;
  for (var v = start / 4u + k; 4u * v < end; v += 2u * stride) {
    let w = v + stride;
    let c0 = col_index[v];
    let a0 = values[v];
    var c1 = vec4<u32>();
    var a1 = vec4<f32>();
    if (4u * w < end) {
      c1 = col_index[w];
      a1 = values[w];
    }
    sum += part(c0, a0, 4u * v, start, end);
    sum += part(c1, a1, 4u * w, start, end);
  }
  return sum;
}

// The products of one vector's words base … base + 3 that lie in [start, end), added in order.
fn part(c: vec4<u32>, a: vec4<f32>, base: u32, start: u32, end: u32) -> f32 {
  var sum = 0.0;
  if (base >= start && base < end) {
    sum += a.x * x[c.x];
  }
  if (base + 1u >= start && base + 1u < end) {
    sum += a.y * x[c.y];
  }
  if (base + 2u >= start && base + 2u < end) {
    sum += a.z * x[c.z];
  }
  if (base + 3u >= start && base + 3u < end) {
    sum += a.w * x[c.w];
  }
  return sum;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(subgroup_invocation_id) sid: u32) {
  let live = subgroupAdd(1u);      // lanes in this subgroup
  let width = min(GROUP, live);    // lanes per short row
  let per = live / width;          // short rows a subgroup takes at a time
  let lane = sid % width;
  var claimed = 0u;
  if (subgroupElect()) {
    claimed = atomicAdd(&claim, 1u);
  }
  let slot = subgroupBroadcastFirst(claimed);
  workgroupBarrier();
  let subgroups = atomicLoad(&claim);

  let row_blocks = (params.rows + ROWS_PER_WORKGROUP - 1u) / ROWS_PER_WORKGROUP;
  for (var unit = wid.x; unit < params.chunk_blocks + row_blocks; unit += nwg.x) {
    if (unit < params.chunk_blocks) {
      let chunk_end = min((unit + 1u) * CHUNKS_PER_WORKGROUP, params.chunks);
      for (var c = unit * CHUNKS_PER_WORKGROUP + slot; c < chunk_end; c += subgroups) {
        let chunk = chunks[c];
        let total = subgroupAdd(vec_sum(chunk.y, chunk.z, sid, live));
        if (sid == 0u) {
          if (chunk.w == 1u) {
            atomicStore(&y[chunk.x], bitcast<u32>(total));
          } else {
            add_to_y(chunk.x, total);
          }
        }
      }
    } else {
      let block = (unit - params.chunk_blocks) * ROWS_PER_WORKGROUP;
      for (var first = slot * per; first < ROWS_PER_WORKGROUP; first += subgroups * per) {
        let in_block = first + sid / width;
        let row = block + in_block;
        let inside = row < params.rows && in_block < ROWS_PER_WORKGROUP;
        var start = 0u;
        var end = 0u;
        if (inside) {
          start = row_ptr[row];
          end = row_ptr[row + 1u];
        }
        let is_short = end - start <= params.long_after;
        var sum = 0.0;
        if (is_short) {
          sum = vec_sum(start, end, lane, width);
        }
        for (var offset = width / 2u; offset > 0u; offset /= 2u) {
          sum += subgroupShuffleXor(sum, offset);
        }
        if (lane == 0u && inside && is_short) {
          atomicStore(&y[row], bitcast<u32>(sum));
        }
      }
    }
  }
}
