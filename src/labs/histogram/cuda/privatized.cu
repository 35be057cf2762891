// Twin of shaders/histogram/privatized.wgsl: Warpscope translates this kernel, and the tests require the
// same counts as the WGSL. The input is n bytes (a buffer of unsigned char); a byte b counts in
// bin (b - lo) * bins / span when lo <= b < lo + span.
// The input: n bytes. A byte b counts in bin (b - lo) * bins / span when lo <= b < lo + span.
__device__ int binOf(unsigned char b, unsigned int bins, unsigned int lo, unsigned int span) {
  unsigned int offset = b - lo;                        // wraps below lo
  return offset < span ? (int)(offset * bins / span) : -1;
}

template <unsigned int BINS>
__global__ void histoPrivatized(const unsigned char *buffer, unsigned int n, unsigned int *histo,
                                unsigned int lo, unsigned int span) {
  __shared__ unsigned int histoPrivate[BINS];
  for (unsigned int b = threadIdx.x; b < BINS; b += blockDim.x) histoPrivate[b] = 0;
  __syncthreads();
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int stride = blockDim.x * gridDim.x;
  while (i < n) {
    int bin = binOf(buffer[i], BINS, lo, span);
    if (bin >= 0) atomicAdd(&histoPrivate[bin], 1u);        // shared-memory atomic
    i += stride;
  }
  __syncthreads();
  for (unsigned int b = threadIdx.x; b < BINS; b += blockDim.x)
    atomicAdd(&histo[b], histoPrivate[b]);                  // the merge: BINS global atomics per block
}
// The host launches the instance for the number of bins: each is a separate kernel.
void launch(const unsigned char *buffer, unsigned int n, unsigned int *histo, unsigned int bins,
            unsigned int lo, unsigned int span) {
  unsigned int grid = min((n + 2047) / 2048, 1024u);
  if (bins == 7) histoPrivatized<7><<<grid, 256>>>(buffer, n, histo, lo, span);
  else histoPrivatized<256><<<grid, 256>>>(buffer, n, histo, lo, span);
}
