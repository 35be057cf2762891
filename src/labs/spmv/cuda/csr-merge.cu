// Twin of shaders/spmv/csr-merge.wgsl: Warpscope translates this kernel, and the tests require the
// same y as the WGSL. Merge-path SpMV (Merrill & Garland): the row ends rowPtr[1 .. rows] and the
// nonzero indices 0 .. nnz - 1 merge into one sorted path of rows + nnz items (a row end comes
// before nonzero j when rowPtr[r + 1] <= j), and each block takes TILE = BLOCK * ITEMS items of it,
// each thread ITEMS, whatever the row lengths.
// 1. Warp 0 finds where the tile's first and last diagonals cross the path: lanes 0 .. 15 search
//    the first, lanes 16 .. 31 the last, each half probing 16 evenly spaced rows a round, so a
//    round narrows the range 16-fold (6 rounds of loads for 4 million rows, not 22 in a row).
// 2. The block loads the tile's row ends and its products values[j] * x[col[j]] into shared memory
//    (the products as float bits in the same unsigned words).
// 3. Each thread finds its start on the path by a binary search in shared memory and walks its
//    items: a nonzero adds to the running sum, a row end closes the row.
// 4. Fix-up: the first row a thread closes may have begun in threads before it; a row that began
//    in an earlier tile, and the row still open at the tile's end, are added into y with atomicAdd
//    (at most two a tile). y must start as zeros.
constexpr unsigned ITEMS = 7;
constexpr unsigned NONE = 0xffffffffu;

// Rows whose ends lie before diagonal diag of the whole path, found by warp 0 for the tile's first
// (lanes 0 .. 15) and last (lanes 16 .. 31) diagonal. A side's 16 lanes probe rows lo, lo + step,
// ...; the probes that pass are the first c (the test holds below the answer and fails from it
// on), so the answer lies after probe c - 1 and at or before probe c. Lane 0 of each side writes
// the side's row and nonzero.
__device__ void searchTile(unsigned t, unsigned tileItems, unsigned rows, unsigned nnz, const unsigned *rowPtr,
                           unsigned *bounds) {
  unsigned lane = threadIdx.x % 32, side = lane / 16, q = lane % 16;
  unsigned diag = min((t + side) * tileItems, rows + nnz);
  unsigned lo = diag > nnz ? diag - nnz : 0, hi = min(diag, rows);
  while (true) {
    bool open = lo < hi;
    if (!__any_sync(0xffffffff, open)) break;
    unsigned step = (hi - lo + 15) / 16;
    unsigned p = lo + q * step;
    bool passed = open && p < hi && rowPtr[p + 1] <= diag - p - 1;
    unsigned ballot = __ballot_sync(0xffffffff, passed);
    unsigned c = __popc(side == 0 ? ballot & 0xffff : ballot >> 16);   // this side's passes
    if (open) {
      if (c == 0) {
        hi = lo;
      } else {
        unsigned next = lo + (c - 1) * step + 1;
        hi = min(hi, lo + c * step);
        lo = next;
      }
    }
  }
  if (q == 0) {
    bounds[side] = lo;
    bounds[2 + side] = diag - lo;
  }
}

template <unsigned BLOCK>
__global__ void spmvCsrMerge(const unsigned *rowPtr, const unsigned *colIndex, const float *values,
                             const float *x, float *y, unsigned rows, unsigned nnz, unsigned tiles) {
  constexpr unsigned TILE = BLOCK * ITEMS;
  __shared__ unsigned bounds[4];         // i0, i1 (rows whose ends the tile holds), j0, j1 (its nonzeros)
  __shared__ unsigned tile[TILE];        // the tile's row ends, then its products as float bits
  __shared__ unsigned firstEnd[BLOCK];   // the first row each thread closes (NONE if none)
  __shared__ float head[BLOCK];          // its sum before that row end
  __shared__ float tail[BLOCK];          // its sum after its last row end
  unsigned tid = threadIdx.x;
  for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
    // 1. Where the tile starts and ends on the path.
    if (tid < 32) searchTile(t, TILE, rows, nnz, rowPtr, bounds);
    __syncthreads();
    unsigned i0 = bounds[0], j0 = bounds[2];
    unsigned nRows = bounds[1] - i0, nNz = bounds[3] - j0;

    // 2. Row ends and products into shared memory; all loads first, then all gathers.
    for (unsigned k = tid; k < nRows; k += BLOCK) tile[k] = rowPtr[i0 + k + 1];
    unsigned cols[ITEMS];
    float vals[ITEMS];
    for (unsigned k = 0; k < ITEMS; k++) {
      unsigned q = tid + k * BLOCK;
      if (q < nNz) {
        cols[k] = colIndex[j0 + q];
        vals[k] = values[j0 + q];
      }
    }
    for (unsigned k = 0; k < ITEMS; k++) {
      unsigned q = tid + k * BLOCK;
      if (q < nNz) tile[nRows + q] = __float_as_uint(vals[k] * x[cols[k]]);
    }
    __syncthreads();

    // 3. This thread's items: its start on the path, then the walk.
    unsigned count = nRows + nNz;
    unsigned start = min(tid * ITEMS, count), end = min(start + ITEMS, count);
    unsigned lo = start > nNz ? start - nNz : 0, hi = min(start, nRows);
    while (lo < hi) {                    // row ends before diagonal start of the tile's path
      unsigned mid = (lo + hi) / 2;
      if (tile[mid] <= j0 + start - mid - 1) lo = mid + 1;
      else hi = mid;
    }
    unsigned r = lo, j = start - lo;     // the next row end and nonzero (tile-relative)
    float sum = 0.0f, headSum = 0.0f;
    unsigned first = NONE;
    for (unsigned item = start; item < end; item++) {
      if (r < nRows && (j >= nNz || tile[r] <= j0 + j)) {
        if (first == NONE) {
          first = r;
          headSum = sum;
        } else {
          y[i0 + r] = sum;               // a row that began and ended in this thread
        }
        sum = 0.0f;
        r++;
      } else {
        sum += __uint_as_float(tile[nRows + j]);
        j++;
      }
    }
    firstEnd[tid] = first;
    head[tid] = headSum;
    tail[tid] = sum;
    __syncthreads();

    // 4. Fix-up. The first row this thread closes: the threads since the last one that closed a
    // row all lie inside it; that one's tail is where the row began in this tile.
    if (first != NONE) {
      unsigned b = tid;
      while (b > 0 && firstEnd[b - 1] == NONE) b--;
      float rowSum = b > 0 ? tail[b - 1] : 0.0f;
      for (unsigned s = b; s < tid; s++) rowSum += tail[s];
      rowSum += headSum;
      if (b == 0 && rowPtr[i0] < j0) atomicAdd(&y[i0], rowSum);   // began in an earlier tile
      else y[i0 + first] = rowSum;
    }
    // The row still open at the tile's end (row i1, if it has nonzeros here): the last thread with
    // items adds its part; the next tiles add theirs.
    if (count > 0 && tid == (count - 1) / ITEMS) {
      unsigned i1 = i0 + nRows;
      if (i1 < rows && rowPtr[i1] < j0 + nNz) {
        unsigned b = tid;
        if (first == NONE)
          while (b > 0 && firstEnd[b - 1] == NONE) b--;
        float rowSum = first == NONE && b > 0 ? tail[b - 1] : 0.0f;
        for (unsigned s = b; s <= tid; s++) rowSum += tail[s];
        atomicAdd(&y[i1], rowSum);
      }
    }
    __syncthreads();
  }
}

// The host: one block per tile of 256 * 7 items of the path, at most 65 535 blocks (each block
// then walks several tiles). y must start as zeros.
void spmvMerge(const unsigned *rowPtr, const unsigned *colIndex, const float *values, const float *x,
               float *y, unsigned rows, unsigned nnz) {
  unsigned tiles = (rows + nnz + 256 * ITEMS - 1) / (256 * ITEMS);
  spmvCsrMerge<256><<<min(tiles, 65535u), 256>>>(rowPtr, colIndex, values, x, y, rows, nnz, tiles);
}
