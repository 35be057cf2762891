// Twin of shaders/spmv/hybrid.wgsl: Warpscope translates this kernel, and the tests require the
// same y as the WGSL. ELL holds the first width nonzeros of every row (column-major, padded), COO
// triples the rest of the long rows, in row order. One launch does both over a sequence of units:
// unit t < rows is row t's ELL part (key t), unit rows + k is triple k (key rows + its row), so
// keys rise along the sequence. A warp's lanes take consecutive units; a segmented scan with
// __shfl_up_sync adds each lane's sum to the lanes before it with the same key, and only the last
// lane of each run adds the run's total into y with atomicAdd (a row's ELL sum and its tail may
// arrive in any order). y must start as zeros.
#define NO_KEY 0xffffffffu

__global__ void spmvHybrid(const unsigned *ellCol, const float *ellVal, const unsigned *cooRow,
                           const unsigned *cooCol, const float *cooVal, const float *x, float *y,
                           int rows, int width, int count) {
  unsigned lane = threadIdx.x % 32;
  for (int base = blockIdx.x * blockDim.x; base < rows + count; base += gridDim.x * blockDim.x) {
    int t = base + threadIdx.x;
    unsigned key = NO_KEY;
    float sum = 0.0f;
    if (t < rows) {
      for (int i = 0; i < width; i++) {
        int k = i * rows + t;
        sum += ellVal[k] * x[ellCol[k]];
      }
      key = t;
    } else if (t < rows + count) {
      int k = t - rows;
      sum = cooVal[k] * x[cooCol[k]];
      key = rows + cooRow[k];
    }
    // Keys rise with the lane, so a lane `offset` back with the same key means every lane between has it too.
    for (unsigned offset = 1; offset < 32; offset *= 2) {
      float before = __shfl_up_sync(0xffffffff, sum, offset);
      unsigned beforeKey = __shfl_up_sync(0xffffffff, key, offset);
      if (lane >= offset && beforeKey == key) sum += before;
    }
    unsigned nextKey = __shfl_down_sync(0xffffffff, key, 1);
    if (key != NO_KEY && (lane == 31 || nextKey != key)) atomicAdd(&y[key >= rows ? key - rows : key], sum);
  }
}
// Launch: cudaMemset(y, 0, rows * sizeof(float));
//         spmvHybrid<<<min((rows + count + 255) / 256, 65535), 256>>>(ellCol, ellVal, cooRow, cooCol, cooVal, x, y, rows, width, count);
