// Twin of shaders/histogram/per-element.wgsl: Warpscope translates this kernel, and the tests require the
// same counts as the WGSL. The input is n bytes (a buffer of unsigned char); a byte b counts in
// bin (b - lo) * bins / span when lo <= b < lo + span.
// The input: n bytes. A byte b counts in bin (b - lo) * bins / span when lo <= b < lo + span.
__device__ int binOf(unsigned char b, unsigned int bins, unsigned int lo, unsigned int span) {
  unsigned int offset = b - lo;                        // wraps below lo
  return offset < span ? (int)(offset * bins / span) : -1;
}

__global__ void histoPerElement(const unsigned char *buffer, unsigned int n, unsigned int *histo,
                                unsigned int bins, unsigned int lo, unsigned int span) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;   // one thread per byte
  if (i < n) {
    int bin = binOf(buffer[i], bins, lo, span);
    if (bin >= 0) atomicAdd(&histo[bin], 1u);                 // global atomic
  }
}
// Launch: histoPerElement<<<(n + 255) / 256, 256>>>(buffer, n, histo, bins, lo, span);
