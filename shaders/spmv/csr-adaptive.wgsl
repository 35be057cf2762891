enable subgroups; diagnostic(off, subgroup_uniformity);
// y = A·x, CSR adaptive: rows binned by length, each bin with the lanes that suit it (after
// Greathouse & Daga's CSR-adaptive and rocSPARSE's analysis step). The matrix stays plain CSR; a
// CPU analysis before the product (preprocessing, done once per matrix, not timed with the
// kernel) lists the rows longer than LONG_AFTER nonzeros as chunks of at most CHUNK nonzeros.
//
// Short rows: GROUP lanes per row (GROUP chosen from the mean row length so each lane takes about
// four nonzeros), so a 32-lane subgroup works on 32 / GROUP neighbouring rows at once. Lane k of a
// group takes nonzeros start + k, start + k + GROUP, … four at a time: four loads of col_index
// and values, then four gathers of x, all independent, before any sum needs them. The group's
// lanes read consecutive words, and the subgroup's rows lie end to end in CSR, so a subgroup's
// loads cover one contiguous run of the arrays. A butterfly of subgroupShuffleXor over the group
// adds its lanes' sums; the group's first lane stores y. A long row is skipped here.
//
// Long rows: each chunk goes to one whole subgroup, its lanes reading consecutive nonzeros (four
// strides of the subgroup at a time), summed with subgroupAdd. A row that fits one chunk is
// stored; the chunks of a longer row add into y with the compare-exchange f32 add of coo.wgsl
// (y starts as zeros), one atomic per chunk, in whatever order the chunks finish.
//
// Work units: the first chunk_blocks units hold CHUNKS_PER_WORKGROUP chunks each (long rows first,
// as they take longest), then one unit per ROWS_PER_WORKGROUP rows; workgroups stride over units,
// so any matrix fits one dispatch. Subgroups are not derived from the local index (WGSL does not
// promise which invocations share one): each claims a slot with an atomicAdd on a workgroup
// counter, as in csr-vector.wgsl. `diagnostic(off, subgroup_uniformity)`: every loop around a
// subgroup operation has the same bounds for the whole subgroup; the nonzero loops, which do not,
// end before the shuffles and subgroupAdd, where all lanes meet again.
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
@group(0) @binding(1) var<storage, read> col_index: array<u32>;
@group(0) @binding(2) var<storage, read> values: array<f32>;
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

// Nonzeros j, j + stride, … below end, four at a time: loads first, then gathers, then the sum.
fn strided_sum(first: u32, end: u32, stride: u32) -> f32 {
  var sum = 0.0;
  for (var j = first; j < end; j += 4u * stride) {
    let j1 = j + stride;
    let j2 = j1 + stride;
    let j3 = j2 + stride;
    let c0 = col_index[j];
    let v0 = values[j];
    var c1 = 0u;
    var v1 = 0.0;
    var c2 = 0u;
    var v2 = 0.0;
    var c3 = 0u;
    var v3 = 0.0;
    if (j1 < end) {
      c1 = col_index[j1];
      v1 = values[j1];
    }
    if (j2 < end) {
      c2 = col_index[j2];
      v2 = values[j2];
    }
    if (j3 < end) {
      c3 = col_index[j3];
      v3 = values[j3];
    }
    sum += v0 * x[c0];
    if (j1 < end) {
      sum += v1 * x[c1];
    }
    if (j2 < end) {
      sum += v2 * x[c2];
    }
    if (j3 < end) {
      sum += v3 * x[c3];
    }
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
        let total = subgroupAdd(strided_sum(chunk.y + sid, chunk.z, live));
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
          sum = strided_sum(start + lane, end, width);
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
