alias T = u32;
// 2-D prefix sum (summed-area table) of a row-major width × height matrix in two passes:
//   scan_rows:    out[y][x] = in[y][0] + … + in[y][x]        one workgroup per row
//   scan_columns: out[y][x] = in[0][x] + … + in[y][x]        one invocation per column
// Run scan_columns on what scan_rows wrote, and out[y][x] is the sum of the rectangle
// [0, x] × [0, y]; any rectangle's sum is then four lookups. With EXCLUSIVE both passes leave out
// their own element: the sum over [0, x) × [0, y). Line 1 names the element type: the lab swaps
// `u32` for `f32` or `i32` in place, keeping every line number.
//
// The two passes parallelise differently on purpose. Rows are contiguous, so a workgroup walks its
// row WORKGROUP_SIZE elements at a time with a Hillis–Steele scan per chunk plus the running total
// of the chunks before it. Columns are strided by `width`, so instead each invocation walks one
// column top to bottom sequentially: at every step the lanes of a warp touch 32 neighbouring
// columns of one row, which is one coalesced request.

override WORKGROUP_SIZE: u32 = 256;
override EXCLUSIVE: bool = false;

struct Params {
  width: u32,
  height: u32,
}

@group(0) @binding(0) var<storage, read> input: array<T>;
@group(0) @binding(1) var<storage, read_write> output: array<T>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> buf: array<T, 2 * WORKGROUP_SIZE>; // two halves, as in hillis-steele.wgsl

@compute @workgroup_size(WORKGROUP_SIZE)
fn scan_rows(@builtin(local_invocation_index) lid: u32,
             @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = linear_workgroup_index(wid, nwg);
  if (row >= params.height) {
    return;
  }
  let row_start = row * params.width;
  var running = T(0); // sum of the chunks of this row already done
  for (var start = 0u; start < params.width; start = start + WORKGROUP_SIZE) {
    let x = start + lid;
    var value = T(0);
    if (x < params.width) {
      value = input[row_start + x];
    }
    buf[lid] = value;
    var cur = 0u;
    for (var offset = 1u; offset < WORKGROUP_SIZE; offset = offset * 2u) {
      workgroupBarrier();
      let nxt = WORKGROUP_SIZE - cur;
      if (lid >= offset) {
        buf[nxt + lid] = buf[cur + lid - offset] + buf[cur + lid];
      } else {
        buf[nxt + lid] = buf[cur + lid];
      }
      cur = nxt;
    }
    workgroupBarrier();
    if (x < params.width) {
      if (EXCLUSIVE) {
        var before = running;
        if (lid > 0u) {
          before = running + buf[cur + lid - 1u];
        }
        output[row_start + x] = before;
      } else {
        output[row_start + x] = running + buf[cur + lid];
      }
    }
    running = running + buf[cur + WORKGROUP_SIZE - 1u];
    workgroupBarrier(); // everyone has read buf before the next chunk overwrites it
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn scan_columns(@builtin(local_invocation_index) lid: u32,
                @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
  let x = linear_workgroup_index(wid, nwg) * WORKGROUP_SIZE + lid;
  if (x >= params.width) {
    return;
  }
  var running = T(0);
  for (var y = 0u; y < params.height; y = y + 1u) {
    let i = y * params.width + x;
    let value = input[i];
    if (EXCLUSIVE) {
      output[i] = running;
      running = running + value;
    } else {
      running = running + value;
      output[i] = running;
    }
  }
}
