/**
 * The histogram kernels' CUDA, for the code pane (written for Warpscope): the twinned variants'
 * `.cu` files (translated and checked against the WGSL, `cudaTwins.ts`), and renderings of the others.
 */
import type { HistogramVariant } from './kernel.ts';
import PER_ELEMENT_CU from './cuda/per-element.cu?raw';
import GRID_STRIDE_CU from './cuda/grid-stride.cu?raw';
import PRIVATIZED_CU from './cuda/privatized.cu?raw';
import AGGREGATED_CU from './cuda/aggregated.cu?raw';
import PER_WARP_CU from './cuda/per-warp.cu?raw';

export const HISTOGRAM_CUDA: Readonly<Record<HistogramVariant, string>> = {
  'per-element': PER_ELEMENT_CU,
  'grid-stride': GRID_STRIDE_CU,
  privatized: PRIVATIZED_CU,
  aggregated: AGGREGATED_CU,
  'per-warp': PER_WARP_CU,





  packed: `// CUDA rendering of shaders/histogram/packed.wgsl.
// 8-bit counters per thread, four bins to a word; word w of thread t at w * BLOCK + t (bank t % 32).

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__device__ __forceinline__ void countByte(unsigned int *counters, unsigned int b) {
  unsigned int offset = b - LO;
  if (offset >= SPAN) return;
  unsigned int bin = SPAN == BINS ? offset : offset * BINS / SPAN;
  counters[((bin / 4) * 64) | threadIdx.x] += 1u << (bin % 4 * 8);   // plain load, add, store
}

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__global__ void __launch_bounds__(64) histoPacked(const uint4 *__restrict__ data, unsigned int n, unsigned int *histo) {
  constexpr unsigned int BLOCK = 64, WORDS = (BINS + 3) / 4, ROUND = 15;   // 15 * 16 + 15 <= 255
  __shared__ unsigned int counters[WORDS * BLOCK];                            // 16 KiB at 256 bins
  for (unsigned int w = 0; w < WORDS; ++w) counters[w * BLOCK + threadIdx.x] = 0;
  unsigned int full = n / 16, stride = BLOCK * gridDim.x, perRound = stride * ROUND;
  unsigned int rounds = max(1u, (full + perRound - 1) / perRound);
  unsigned int total[4] = {0, 0, 0, 0};                 // bins 4t .. 4t + 3, summed over the block
  for (unsigned int r = 0; r < rounds; ++r) {
    unsigned int q = r * perRound + blockIdx.x * BLOCK + threadIdx.x;
    for (unsigned int j = 0; j < ROUND; ++j, q += stride) {
      if (q >= full) continue;
      uint4 v = data[q];                                 // 16 bytes in one load
      for (unsigned int word : {v.x, v.y, v.z, v.w})
        for (unsigned int k = 0; k < 4; ++k) countByte<BINS, LO, SPAN>(counters, (word >> (8 * k)) & 0xff);
    }
    if (r + 1 == rounds && blockIdx.x == 0 && threadIdx.x == 0)   // the ragged end, byte by byte
      for (unsigned int i = full * 16; i < n; ++i) countByte<BINS, LO, SPAN>(counters, reinterpret_cast<const unsigned char *>(data)[i]);
    __syncthreads();
    if (threadIdx.x < WORDS) {                           // flush: word t of every thread, before 255
      unsigned int even = 0, odd = 0;
      for (unsigned int s = 0; s < BLOCK; ++s) {
        unsigned int at = threadIdx.x * BLOCK + (s ^ threadIdx.x);   // lanes on different banks
        unsigned int c = counters[at];
        counters[at] = 0;
        even += c & 0x00ff00ff;                          // bins 4t and 4t + 2, 16 bits each
        odd += (c >> 8) & 0x00ff00ff;                    // bins 4t + 1 and 4t + 3
      }
      total[0] += even & 0xffff; total[1] += odd & 0xffff; total[2] += even >> 16; total[3] += odd >> 16;
    }
    __syncthreads();
  }
  for (unsigned int k = 0; k < 4; ++k)                   // one global atomic per non-empty bin
    if (threadIdx.x < WORDS && threadIdx.x * 4 + k < BINS && total[k] > 0) atomicAdd(&histo[threadIdx.x * 4 + k], total[k]);
}
// Launch: histoPacked<256, 0, 256><<<min(n / 16 / (64 * 15) + 1, 1716u), 64>>>(...);`,

  'packed-atomic': `// CUDA rendering of shaders/histogram/packed-atomic.wgsl: histoPacked (see variant 6) with the
// plain load, add and store of countByte replaced by a shared-memory atomic whose result is unused:
template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__device__ __forceinline__ void countByte(unsigned int *counters, unsigned int b) {
  unsigned int offset = b - LO;
  if (offset >= SPAN) return;
  unsigned int bin = SPAN == BINS ? offset : offset * BINS / SPAN;
  atomicAdd(&counters[((bin / 4) * 64) | threadIdx.x], 1u << (bin % 4 * 8));   // no lane waits for it
}
// The flush reads and clears with atomicExch(&counters[at], 0); everything else is as in histoPacked.`,

  batched: `// CUDA rendering of shaders/histogram/batched.wgsl: 16 copies of the bins interleaved (lane l
// counts into copy l % 16, bin b of copy c at b * 16 + c; 16 * 256 * 4 B = 16 KiB), 32-bit counters
// (they never overflow, so no flushes), one shared-memory atomic per byte, the next four uint4 loads
// issued before the current four are counted.
constexpr unsigned int COPIES = 16;

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__device__ __forceinline__ void countByte(unsigned int *copies, unsigned int copy, unsigned int b) {
  unsigned int offset = b - LO;
  if (offset >= SPAN) return;
  atomicAdd(&copies[(SPAN == BINS ? offset : offset * BINS / SPAN) * COPIES + copy], 1u);
}

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__device__ __forceinline__ void countWord(unsigned int *copies, unsigned int copy, unsigned int w) {
  if (BINS == 256 && LO == 0 && SPAN == 256 && COPIES == 16) {   // word b * 16 + copy: shift, mask, or
    atomicAdd(&copies[((w << 4) & 0xff0) | copy], 1u);
    atomicAdd(&copies[((w >> 4) & 0xff0) | copy], 1u);
    atomicAdd(&copies[((w >> 12) & 0xff0) | copy], 1u);
    atomicAdd(&copies[((w >> 20) & 0xff0) | copy], 1u);
    return;
  }
  for (unsigned int s = 0; s < 32; s += 8) countByte<BINS, LO, SPAN>(copies, copy, (w >> s) & 0xff);
}

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__device__ __forceinline__ void countQuad(unsigned int *copies, unsigned int copy, uint4 v) {
  countWord<BINS, LO, SPAN>(copies, copy, v.x); countWord<BINS, LO, SPAN>(copies, copy, v.y);
  countWord<BINS, LO, SPAN>(copies, copy, v.z); countWord<BINS, LO, SPAN>(copies, copy, v.w);
}

template <unsigned int BINS, unsigned int LO, unsigned int SPAN, unsigned int BLOCK = 256>
__global__ void histoBatched(const uint4 *__restrict__ data, unsigned int n, unsigned int *histo) {
  __shared__ unsigned int copies[COPIES * BINS];
  for (unsigned int w = threadIdx.x; w < COPIES * BINS; w += BLOCK) copies[w] = 0;
  __syncthreads();
  unsigned int copy = threadIdx.x % COPIES;               // this thread's copy, interleaved
  unsigned int full = n / 16, stride = BLOCK * gridDim.x, q = blockIdx.x * BLOCK + threadIdx.x;
  if (q + 3 * stride < full) {                            // software pipelining, one batch ahead
    uint4 v0 = data[q], v1 = data[q + stride], v2 = data[q + 2 * stride], v3 = data[q + 3 * stride];
    for (q += 4 * stride; q + 3 * stride < full; q += 4 * stride) {
      uint4 n0 = data[q], n1 = data[q + stride], n2 = data[q + 2 * stride], n3 = data[q + 3 * stride];
      countQuad<BINS, LO, SPAN>(copies, copy, v0); countQuad<BINS, LO, SPAN>(copies, copy, v1);
      countQuad<BINS, LO, SPAN>(copies, copy, v2); countQuad<BINS, LO, SPAN>(copies, copy, v3);
      v0 = n0; v1 = n1; v2 = n2; v3 = n3;
    }
    countQuad<BINS, LO, SPAN>(copies, copy, v0); countQuad<BINS, LO, SPAN>(copies, copy, v1);
    countQuad<BINS, LO, SPAN>(copies, copy, v2); countQuad<BINS, LO, SPAN>(copies, copy, v3);
  }
  for (; q < full; q += stride) countQuad<BINS, LO, SPAN>(copies, copy, data[q]);   // leftover uint4s
  unsigned int g = blockIdx.x * BLOCK + threadIdx.x;
  if (g < n - full * 16) countByte<BINS, LO, SPAN>(copies, copy, reinterpret_cast<const unsigned char *>(data)[full * 16 + g]);
  __syncthreads();
  for (unsigned int b = threadIdx.x; b < BINS; b += BLOCK) {   // the merge: a sum over the copies
    unsigned int total = 0;
    for (unsigned int c = 0; c < COPIES; ++c) total += copies[b * COPIES + c];
    if (total > 0) atomicAdd(&histo[b], total);
  }
}
// Launch: histoBatched<256, 0, 256><<<min(n / 16 / (256 * 4) + 1, 1056u), 256>>>(...);`,
};
