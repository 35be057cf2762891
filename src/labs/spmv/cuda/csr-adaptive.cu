// Twin of shaders/spmv/csr-adaptive.wgsl: Warpscope translates this kernel, and the tests require
// the same y as the WGSL. Short rows get GROUP lanes each (GROUP from the mean row length, about
// 4 nonzeros a lane); long rows (more than long_after nonzeros), which a CPU analysis cut into
// chunks {row, first nonzero, end, 1 if the row's only chunk}, get one warp per chunk. Blocks
// [0, chunk_blocks) take chunks, blockDim.x / 32 each; the rest ROWS_PER_WORKGROUP short rows
// each. A row of several chunks adds each chunk's sum into y with atomicAdd, so y starts zeroed.
// Each lane loads four nonzeros before it gathers x for any of them (four gathers in flight).
__device__ float stridedSum(const unsigned *colIndex, const float *values, const float *x,
                            unsigned first, unsigned end, unsigned stride) {
  float sum = 0.0f;
  for (unsigned j = first; j < end; j += 4 * stride) {
    unsigned j1 = j + stride, j2 = j1 + stride, j3 = j2 + stride;
    unsigned c0 = colIndex[j], c1 = 0, c2 = 0, c3 = 0;
    float v0 = values[j], v1 = 0.0f, v2 = 0.0f, v3 = 0.0f;
    if (j1 < end) { c1 = colIndex[j1]; v1 = values[j1]; }
    if (j2 < end) { c2 = colIndex[j2]; v2 = values[j2]; }
    if (j3 < end) { c3 = colIndex[j3]; v3 = values[j3]; }
    sum += v0 * x[c0];
    if (j1 < end) sum += v1 * x[c1];
    if (j2 < end) sum += v2 * x[c2];
    if (j3 < end) sum += v3 * x[c3];
  }
  return sum;
}

template <int GROUP, int ROWS_PER_WORKGROUP>
__global__ void spmvCsrAdaptive(const unsigned *rowPtr, const unsigned *colIndex, const float *values,
                                const float *x, float *y, const uint4 *chunkList, unsigned rows,
                                unsigned long_after, unsigned chunks, unsigned chunk_blocks) {
  unsigned lane32 = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  unsigned lane = threadIdx.x % GROUP;       // place in its row's group
  unsigned per = 32 / GROUP;                 // short rows a warp takes at a time
  unsigned rowBlocks = (rows + ROWS_PER_WORKGROUP - 1) / ROWS_PER_WORKGROUP;
  for (unsigned unit = blockIdx.x; unit < chunk_blocks + rowBlocks; unit += gridDim.x) {
    if (unit < chunk_blocks) {               // long rows: a warp per chunk
      unsigned chunkEnd = min((unit + 1) * warps, chunks);
      for (unsigned c = unit * warps + warp; c < chunkEnd; c += warps) {
        uint4 k = chunkList[c];
        float total = stridedSum(colIndex, values, x, k.y + lane32, k.z, 32);
        for (int o = 16; o > 0; o /= 2) total += __shfl_xor_sync(0xffffffff, total, o);
        if (lane32 == 0) {
          if (k.w == 1) y[k.x] = total;      // the row's only chunk
          else atomicAdd(&y[k.x], total);
        }
      }
    } else {                                 // short rows: GROUP lanes per row
      unsigned block = (unit - chunk_blocks) * ROWS_PER_WORKGROUP;
      for (unsigned first = warp * per; first < ROWS_PER_WORKGROUP; first += warps * per) {
        unsigned inBlock = first + lane32 / GROUP;
        unsigned row = block + inBlock;
        bool inside = row < rows && inBlock < ROWS_PER_WORKGROUP;
        unsigned start = 0, end = 0;
        if (inside) {
          start = rowPtr[row];
          end = rowPtr[row + 1];
        }
        bool isShort = end - start <= long_after;   // long rows are the chunks'
        float sum = 0.0f;
        if (isShort) sum = stridedSum(colIndex, values, x, start + lane, end, GROUP);
        for (int o = GROUP / 2; o > 0; o /= 2) sum += __shfl_xor_sync(0xffffffff, sum, o);
        if (lane == 0 && inside && isShort) y[row] = sum;
      }
    }
  }
}

// The host: blocks of 256 threads, two passes of 256 / GROUP short rows per block.
void spmvAdaptive(const unsigned *rowPtr, const unsigned *colIndex, const float *values, const float *x,
                  float *y, const uint4 *chunkList, unsigned rows, unsigned longAfter, unsigned chunks,
                  unsigned chunkBlocks, int group, int blocks) {
  switch (group) {
    case 1: spmvCsrAdaptive<1, 512><<<blocks, 256>>>(rowPtr, colIndex, values, x, y, chunkList, rows, longAfter, chunks, chunkBlocks); break;
    case 2: spmvCsrAdaptive<2, 256><<<blocks, 256>>>(rowPtr, colIndex, values, x, y, chunkList, rows, longAfter, chunks, chunkBlocks); break;
    case 4: spmvCsrAdaptive<4, 128><<<blocks, 256>>>(rowPtr, colIndex, values, x, y, chunkList, rows, longAfter, chunks, chunkBlocks); break;
    case 8: spmvCsrAdaptive<8, 64><<<blocks, 256>>>(rowPtr, colIndex, values, x, y, chunkList, rows, longAfter, chunks, chunkBlocks); break;
    case 16: spmvCsrAdaptive<16, 32><<<blocks, 256>>>(rowPtr, colIndex, values, x, y, chunkList, rows, longAfter, chunks, chunkBlocks); break;
    default: spmvCsrAdaptive<32, 16><<<blocks, 256>>>(rowPtr, colIndex, values, x, y, chunkList, rows, longAfter, chunks, chunkBlocks); break;
  }
}
