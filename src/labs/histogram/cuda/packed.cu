// Twin of shaders/histogram/packed.wgsl: Warpscope translates this kernel, and the tests require the
// same counts as the WGSL. The input is n bytes read as uint4s (16 at a time; the buffer is padded
// to whole uint4s), and a byte is taken out of its 32-bit word with a shift and a mask. Every thread
// owns a private histogram of 8-bit counters, four bins to a 32-bit shared word (bin b in bits
// 8 * (b % 4) of word b / 4), updated with a plain load, add and store: no other thread touches those
// words. Word w of thread t sits at w * BLOCK + t, so a warp's 32 lanes hit 32 different banks
// whatever the data. A counter holds at most 255, so the block flushes every ROUND uint4s.
constexpr unsigned int BLOCK = 64;                       // a power of two: the indexing uses |
constexpr unsigned int ROUND = 15;                       // 15 * 16 + 15 bytes <= 255 per counter

// Word k (0 .. 3) of a uint4.
__device__ unsigned int wordOf(uint4 v, unsigned int k) {
  return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
}

// One byte into this thread's counters: byte bin % 4 of its word bin / 4.
template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__device__ void countByte(unsigned int *counters, unsigned int b) {
  unsigned int offset = b - LO;                          // wraps below LO
  if (offset >= SPAN) return;
  unsigned int bin = SPAN == BINS ? offset : offset * BINS / SPAN;
  unsigned int w = ((bin / 4) * BLOCK) | threadIdx.x;
  counters[w] = counters[w] + (1u << (bin % 4 * 8));     // plain load, add, store
}

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__device__ void countWord(unsigned int *counters, unsigned int word) {
  countByte<BINS, LO, SPAN>(counters, word & 0xff);
  countByte<BINS, LO, SPAN>(counters, (word >> 8) & 0xff);
  countByte<BINS, LO, SPAN>(counters, (word >> 16) & 0xff);
  countByte<BINS, LO, SPAN>(counters, word >> 24);
}

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__device__ void countQuad(unsigned int *counters, uint4 v) {
  countWord<BINS, LO, SPAN>(counters, v.x);
  countWord<BINS, LO, SPAN>(counters, v.y);
  countWord<BINS, LO, SPAN>(counters, v.z);
  countWord<BINS, LO, SPAN>(counters, v.w);
}

// uint4 q of the input, or zeros past the whole uint4s (the caller skips those).
__device__ uint4 load(const uint4 *data, unsigned int q, unsigned int full) {
  return q < full ? data[q] : make_uint4(0, 0, 0, 0);
}

template <unsigned int BINS, unsigned int LO, unsigned int SPAN>
__global__ void histoPacked(const uint4 *__restrict__ data, unsigned int n, unsigned int *histo) {
  constexpr unsigned int WORDS = (BINS + 3) / 4;
  __shared__ unsigned int counters[WORDS * BLOCK];       // 16 KiB at 256 bins
  for (unsigned int w = 0; w < WORDS; ++w) counters[w * BLOCK + threadIdx.x] = 0;
  unsigned int full = n / 16;                            // whole uint4s; the rest byte by byte
  unsigned int stride = BLOCK * gridDim.x;
  unsigned int perRound = stride * ROUND;
  unsigned int rounds = max(1u, (full + perRound - 1) / perRound);
  unsigned int g = blockIdx.x * BLOCK + threadIdx.x;
  unsigned int total[4] = {0, 0, 0, 0};                  // bins 4t .. 4t + 3, summed over the block
  for (unsigned int r = 0; r < rounds; ++r) {
    unsigned int q = r * perRound + g;
    for (unsigned int j = 0; j < ROUND; j += 3) {        // three 16-byte loads in flight
      uint4 a = load(data, q, full);
      uint4 b = load(data, q + stride, full);
      uint4 c = load(data, q + 2 * stride, full);
      if (q < full) countQuad<BINS, LO, SPAN>(counters, a);
      if (q + stride < full) countQuad<BINS, LO, SPAN>(counters, b);
      if (q + 2 * stride < full) countQuad<BINS, LO, SPAN>(counters, c);
      q += 3 * stride;
    }
    if (r + 1 == rounds && g == 0)                       // the ragged end, by thread 0 of the grid
      for (unsigned int i = full * 16; i < n; ++i)
        countByte<BINS, LO, SPAN>(counters, (wordOf(data[i / 16], i / 4 % 4) >> (i % 4 * 8)) & 0xff);
    __syncthreads();
    if (threadIdx.x < WORDS) {                           // flush: word t of every thread
      unsigned int even = 0, odd = 0;
      for (unsigned int s = 0; s < BLOCK; ++s) {
        unsigned int at = threadIdx.x * BLOCK + (s ^ threadIdx.x);   // lanes on different banks
        unsigned int c = counters[at];
        counters[at] = 0;
        even += c & 0x00ff00ff;                          // bins 4t and 4t + 2, 16 bits each
        odd += (c >> 8) & 0x00ff00ff;                    // bins 4t + 1 and 4t + 3
      }
      total[0] += even & 0xffff;
      total[1] += odd & 0xffff;
      total[2] += even >> 16;
      total[3] += odd >> 16;
    }
    __syncthreads();
  }
  if (threadIdx.x < WORDS)                               // one global atomic per non-empty bin
    for (unsigned int k = 0; k < 4; ++k) {
      unsigned int bin = threadIdx.x * 4 + k;
      if (bin < BINS && total[k] > 0) atomicAdd(&histo[bin], total[k]);
    }
}
// The host launches the instance for the bins and the range of bytes counted: each is a separate
// kernel. The letters' 7 bins from 'a' (97) over 28 values, or 256 bins of all byte values.
void launch(const uint4 *data, unsigned int n, unsigned int *histo, unsigned int bins) {
  unsigned int grid = min(max((n / 16 + 959) / 960, 1u), 1716u);
  if (bins == 7) histoPacked<7, 97, 28><<<grid, 64>>>(data, n, histo);
  else histoPacked<256, 0, 256><<<grid, 64>>>(data, n, histo);
}
