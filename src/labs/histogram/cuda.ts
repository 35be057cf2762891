/** CUDA renderings of the histogram kernels, for the code pane (written for Warpscope). */
import type { HistogramVariant } from './kernel.ts';

const COMMON = `// The input: n bytes. A byte b counts in bin (b - lo) * bins / span when lo <= b < lo + span.
__device__ int binOf(unsigned char b, unsigned int bins, unsigned int lo, unsigned int span) {
  unsigned int offset = b - lo;                        // wraps below lo
  return offset < span ? (int)(offset * bins / span) : -1;
}`;

export const HISTOGRAM_CUDA: Readonly<Record<HistogramVariant, string>> = {
  'per-element': `// CUDA rendering of shaders/histogram/per-element.wgsl.
${COMMON}

__global__ void histoPerElement(const unsigned char *buffer, unsigned int n, unsigned int *histo,
                                unsigned int bins, unsigned int lo, unsigned int span) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;   // one thread per byte
  if (i < n) {
    int bin = binOf(buffer[i], bins, lo, span);
    if (bin >= 0) atomicAdd(&histo[bin], 1u);                 // global atomic
  }
}
// Launch: histoPerElement<<<(n + 255) / 256, 256>>>(...);`,

  'grid-stride': `// CUDA rendering of shaders/histogram/grid-stride.wgsl (the seed's first kernel).
${COMMON}

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
// Launch: histoGridStride<<<min((n + 2047) / 2048, 1024), 256>>>(...);`,

  privatized: `// CUDA rendering of shaders/histogram/privatized.wgsl (the seed's second kernel).
${COMMON}

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
}`,

  aggregated: `// CUDA rendering of shaders/histogram/aggregated.wgsl.
${COMMON}

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
}`,

  'per-warp': `// CUDA rendering of shaders/histogram/per-warp.wgsl.
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
}`,
};
