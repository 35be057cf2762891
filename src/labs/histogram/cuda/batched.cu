// Twin of shaders/histogram/batched.wgsl: Warpscope translates this kernel, and the tests require
// the same counts as the WGSL. The input is n bytes read as uint4s (16 at a time; the buffer is
// padded to whole uint4s), and a byte is taken out of its 32-bit word with a shift and a mask.
// 16 private copies of the bins per block, interleaved: thread t counts into copy t % 16, and bin b
// of copy c is word b * 16 + c, so the lanes of a warp on one value hit 16 words, two lanes a word
// (16 * 256 * 4 B = 16 KiB). 32-bit counters never overflow, so there are no flushes; one shared
// atomicAdd per byte, and the next four uint4 loads are issued before the current four are counted.
constexpr unsigned int COPIES = 16;
constexpr unsigned int BLOCK = 256;

// Word k (0 .. 3) of a uint4.
__device__ unsigned int wordOf(uint4 v, unsigned int k) {
  return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
}

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__device__ void countByte(unsigned int *copies, unsigned int copy, unsigned int b) {
  unsigned int offset = b - LO;                          // wraps below LO
  if (offset >= SPAN) return;
  unsigned int bin = SPAN == BINS ? offset : offset * BINS / SPAN;
  atomicAdd(&copies[bin * COPIES + copy], 1u);
}

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__device__ void countWord(unsigned int *copies, unsigned int copy, unsigned int w) {
  if (BINS == 256 && LO == 0 && SPAN == 256) {           // word b * 16 + copy: shift, mask, or
    atomicAdd(&copies[((w << 4) & 0xff0) | copy], 1u);
    atomicAdd(&copies[((w >> 4) & 0xff0) | copy], 1u);
    atomicAdd(&copies[((w >> 12) & 0xff0) | copy], 1u);
    atomicAdd(&copies[((w >> 20) & 0xff0) | copy], 1u);
    return;
  }
  countByte<BINS, LO, SPAN>(copies, copy, w & 0xff);     // any other bins: the range test
  countByte<BINS, LO, SPAN>(copies, copy, (w >> 8) & 0xff);
  countByte<BINS, LO, SPAN>(copies, copy, (w >> 16) & 0xff);
  countByte<BINS, LO, SPAN>(copies, copy, w >> 24);
}

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__device__ void countQuad(unsigned int *copies, unsigned int copy, uint4 v) {
  countWord<BINS, LO, SPAN>(copies, copy, v.x);
  countWord<BINS, LO, SPAN>(copies, copy, v.y);
  countWord<BINS, LO, SPAN>(copies, copy, v.z);
  countWord<BINS, LO, SPAN>(copies, copy, v.w);
}

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__global__ void histoBatched(const uint4 *__restrict__ data, unsigned int n, unsigned int *histo) {
  __shared__ unsigned int copies[COPIES * BINS];
  for (unsigned int w = threadIdx.x; w < COPIES * BINS; w += BLOCK) copies[w] = 0;
  __syncthreads();
  unsigned int copy = threadIdx.x % COPIES;              // this thread's copy, interleaved
  unsigned int full = n / 16;                            // whole uint4s; the rest one byte a thread
  unsigned int stride = BLOCK * gridDim.x;
  unsigned int g = blockIdx.x * BLOCK + threadIdx.x;
  unsigned int q = g;
  if (q + 3 * stride < full) {                           // software pipelining, one batch ahead
    uint4 v0 = data[q];
    uint4 v1 = data[q + stride];
    uint4 v2 = data[q + 2 * stride];
    uint4 v3 = data[q + 3 * stride];
    q += 4 * stride;
    while (q + 3 * stride < full) {
      uint4 n0 = data[q];
      uint4 n1 = data[q + stride];
      uint4 n2 = data[q + 2 * stride];
      uint4 n3 = data[q + 3 * stride];
      countQuad<BINS, LO, SPAN>(copies, copy, v0);
      countQuad<BINS, LO, SPAN>(copies, copy, v1);
      countQuad<BINS, LO, SPAN>(copies, copy, v2);
      countQuad<BINS, LO, SPAN>(copies, copy, v3);
      v0 = n0;
      v1 = n1;
      v2 = n2;
      v3 = n3;
      q += 4 * stride;
    }
    countQuad<BINS, LO, SPAN>(copies, copy, v0);         // the last batch, loaded but not counted
    countQuad<BINS, LO, SPAN>(copies, copy, v1);
    countQuad<BINS, LO, SPAN>(copies, copy, v2);
    countQuad<BINS, LO, SPAN>(copies, copy, v3);
  }
  for (; q < full; q += stride) countQuad<BINS, LO, SPAN>(copies, copy, data[q]);   // fewer than 4 left
  if (g < n - full * 16) {                               // the ragged end: byte full * 16 + g
    unsigned int i = full * 16 + g;
    countByte<BINS, LO, SPAN>(copies, copy, (wordOf(data[full], g / 4) >> (i % 4 * 8)) & 0xff);
  }
  __syncthreads();
  for (unsigned int b = threadIdx.x; b < BINS; b += BLOCK) {   // the merge: a sum over the copies
    unsigned int total = 0;
    for (unsigned int c = 0; c < COPIES; ++c) total += copies[b * COPIES + c];
    if (total > 0) atomicAdd(&histo[b], total);
  }
}
// The host launches the instance for the bins and the range of bytes counted: each is a separate
// kernel. The letters' 7 bins from 'a' (97) over 28 values, or 256 bins of all byte values.
void launch(const uint4 *data, unsigned int n, unsigned int *histo, unsigned int bins) {
  unsigned int grid = min(max((n / 16 + 1023) / 1024, 1u), 1056u);
  if (bins == 7) histoBatched<7, 97, 28><<<grid, 256>>>(data, n, histo);
  else histoBatched<256, 0, 256><<<grid, 256>>>(data, n, histo);
}
