// Twin of shaders/histogram/aggregated.wgsl: Warpscope translates this kernel, and the tests require the
// same counts as the WGSL. The input is n bytes (a buffer of unsigned char); a byte b counts in
// bin (b - lo) * bins / span when lo <= b < lo + span.
// The input: n bytes. A byte b counts in bin (b - lo) * bins / span when lo <= b < lo + span.
__device__ int binOf(unsigned char b, unsigned int bins, unsigned int lo, unsigned int span) {
  unsigned int offset = b - lo;                        // wraps below lo
  return offset < span ? (int)(offset * bins / span) : -1;
}

template <unsigned int BINS>
__global__ void histoAggregated(const unsigned char *buffer, unsigned int n, unsigned int *histo,
                                unsigned int lo, unsigned int span) {
  __shared__ unsigned int histoPrivate[BINS];
  for (unsigned int b = threadIdx.x; b < BINS; b += blockDim.x) histoPrivate[b] = 0;
  __syncthreads();
  int runBin = -1;
  unsigned int runLength = 0;
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int bin = binOf(buffer[i], BINS, lo, span);
    if (bin < 0) continue;
    if (bin == runBin) { ++runLength; continue; }          // same bin again: no atomic yet
    if (runLength > 0) atomicAdd(&histoPrivate[runBin], runLength);
    runBin = bin;
    runLength = 1;
  }
  if (runLength > 0) atomicAdd(&histoPrivate[runBin], runLength);
  __syncthreads();
  for (unsigned int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&histo[b], histoPrivate[b]);
}
// The host launches the instance for the number of bins: each is a separate kernel.
void launch(const unsigned char *buffer, unsigned int n, unsigned int *histo, unsigned int bins,
            unsigned int lo, unsigned int span) {
  unsigned int grid = min((n + 2047) / 2048, 1024u);
  if (bins == 7) histoAggregated<7><<<grid, 256>>>(buffer, n, histo, lo, span);
  else histoAggregated<256><<<grid, 256>>>(buffer, n, histo, lo, span);
}
