// Twin of shaders/histogram/per-warp.wgsl: Warpscope translates this kernel, and the tests require
// the same counts as the WGSL. The input is n bytes read as uint4s (16 at a time; the buffer is
// padded to whole uint4s); a byte b counts in bin (b - lo) * bins / span when lo <= b < lo + span.
__device__ int binOf(unsigned char b, unsigned int bins, unsigned int lo, unsigned int span) {
  unsigned int offset = b - lo;
  if (offset >= span) return -1;
  if (span == bins) return (int)offset;                // 256 bins of bytes: no division
  return (int)(offset * bins / span);
}

template <unsigned int BINS, unsigned int BLOCK>
__global__ void histoPerWarp(const uint4 *__restrict__ data, unsigned int n, unsigned int *histo,
                             unsigned int lo, unsigned int span) {
  constexpr unsigned int COPIES = BLOCK / 32;
  __shared__ unsigned int copies[COPIES * BINS];          // one private histogram per warp
  for (unsigned int w = threadIdx.x; w < COPIES * BINS; w += BLOCK) copies[w] = 0;
  __syncthreads();
  unsigned int *mine = copies + (threadIdx.x / 32) * BINS;
  int runBin = -1;
  unsigned int runLength = 0;
  unsigned int quads = (n + 15) / 16;
  for (unsigned int q = blockIdx.x * BLOCK + threadIdx.x; q < quads; q += BLOCK * gridDim.x) {
    uint4 v = data[q];                                    // 16 bytes in one load
    unsigned int words[4] = {v.x, v.y, v.z, v.w};
    unsigned int valid = min(16u, n - q * 16);
#pragma unroll
    for (unsigned int k = 0; k < 16; ++k) {
      int bin = binOf((words[k / 4] >> (k % 4 * 8)) & 0xff, BINS, lo, span);
      if (k >= valid || bin < 0) continue;
      if (bin == runBin) { ++runLength; continue; }
      if (runLength > 0) atomicAdd(&mine[runBin], runLength);
      runBin = bin;
      runLength = 1;
    }
  }
  if (runLength > 0) atomicAdd(&mine[runBin], runLength);
  __syncthreads();
  for (unsigned int b = threadIdx.x; b < BINS; b += BLOCK) {   // the merge is a reduction over copies
    unsigned int total = 0;
    for (unsigned int c = 0; c < COPIES; ++c) total += copies[c * BINS + b];
    if (total > 0) atomicAdd(&histo[b], total);
  }
}
// The host launches the instance for the number of bins: each is a separate kernel.
void launch(const uint4 *data, unsigned int n, unsigned int *histo, unsigned int bins,
            unsigned int lo, unsigned int span) {
  unsigned int grid = min((n + 16383) / 16384, 1024u);
  if (bins == 7) histoPerWarp<7, 256><<<grid, 256>>>(data, n, histo, lo, span);
  else histoPerWarp<256, 256><<<grid, 256>>>(data, n, histo, lo, span);
}
