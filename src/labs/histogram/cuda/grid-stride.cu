// Twin of shaders/histogram/grid-stride.wgsl: Warpscope translates this kernel, and the tests require the
// same counts as the WGSL. The input is n bytes (a buffer of unsigned char); a byte b counts in
// bin (b - lo) * bins / span when lo <= b < lo + span.
// The input: n bytes. A byte b counts in bin (b - lo) * bins / span when lo <= b < lo + span.
__device__ int binOf(unsigned char b, unsigned int bins, unsigned int lo, unsigned int span) {
  unsigned int offset = b - lo;                        // wraps below lo
  return offset < span ? (int)(offset * bins / span) : -1;
}

__global__ void histoGridStride(const unsigned char *buffer, unsigned int n, unsigned int *histo,
                                unsigned int bins, unsigned int lo, unsigned int span) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int stride = blockDim.x * gridDim.x;             // every thread of the grid
  while (i < n) {                                           // neighbours read neighbouring bytes
    int bin = binOf(buffer[i], bins, lo, span);
    if (bin >= 0) atomicAdd(&histo[bin], 1u);
    i += stride;
  }
}
// Launch: histoGridStride<<<min((n + 2047) / 2048, 1024), 256>>>(buffer, n, histo, bins, lo, span);
