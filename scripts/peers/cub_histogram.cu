// CUB's DeviceHistogram::HistogramEven as the CUDA peer of the histogram lab (issue 16): 2^28 bytes
// (argv[1] = log2 of the byte count) into 256 bins, on uniform bytes and on all-zero bytes, timed
// with CUDA events after a warm-up of about 200 ms, median of 20 runs; beside it, in the same
// process, a read of the same bytes (a vectorised sum of the words, 16 bytes per thread per load,
// grid-stride) as the bandwidth yardstick, so "% of read" means what the WebGPU bench means.
// Beside CUB, the same process runs CUDA C++ twins of the lab's packed and batched variants
// (shaders/histogram/packed.wgsl, packed-atomic.wgsl, batched.wgsl and the lanes16.wgsl experiment,
// written out again here), so a gap between
// the WebGPU figure and CUB can be split into the algorithm's share and the WebGPU path's share.
// Counts are checked against a count made on the host. Build and run on the GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/cub_histogram scripts/peers/cub_histogram.cu && /tmp/cub_histogram 28
#include <cub/cub.cuh>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t e_ = (call);                                                             \
    if (e_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

// One read of every byte: each thread sums its uint4s; one atomic per thread keeps the sum alive.
__global__ void readAll(const uint4 *__restrict__ data, size_t quads, unsigned int *sink) {
  unsigned int acc = 0;
  for (size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x; q < quads; q += (size_t)blockDim.x * gridDim.x) {
    uint4 v = data[q];
    acc += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u) atomicAdd(sink, 1u);
}

// The twin of packed.wgsl (ATOMIC = false) and packed-atomic.wgsl (ATOMIC = true), 256 bins of
// bytes: 8-bit counters per thread, four bins to a word, word w of thread t at w * 64 + t.
constexpr unsigned int PACKED_BLOCK = 64, PACKED_WORDS = 64, PACKED_ROUND = 15;

template <bool ATOMIC>
__device__ __forceinline__ void countByte(unsigned int *counters, unsigned int b) {
  unsigned int *w = &counters[((b / 4) * PACKED_BLOCK) | threadIdx.x];
  if (ATOMIC) atomicAdd(w, 1u << (b % 4 * 8));
  else *w += 1u << (b % 4 * 8);
}

template <bool ATOMIC>
__device__ __forceinline__ void countWord(unsigned int *counters, unsigned int word) {
  countByte<ATOMIC>(counters, word & 0xff);
  countByte<ATOMIC>(counters, (word >> 8) & 0xff);
  countByte<ATOMIC>(counters, (word >> 16) & 0xff);
  countByte<ATOMIC>(counters, word >> 24);
}

template <bool ATOMIC>
__device__ __forceinline__ void countQuad(unsigned int *counters, uint4 v) {
  countWord<ATOMIC>(counters, v.x);
  countWord<ATOMIC>(counters, v.y);
  countWord<ATOMIC>(counters, v.z);
  countWord<ATOMIC>(counters, v.w);
}

template <bool ATOMIC>
__global__ void __launch_bounds__(64) histoPacked(const uint4 *__restrict__ data, unsigned int n, unsigned int *histo) {
  __shared__ unsigned int counters[PACKED_WORDS * PACKED_BLOCK];
  const unsigned int tx = threadIdx.x;
  for (unsigned int w = 0; w < PACKED_WORDS; ++w) counters[w * PACKED_BLOCK + tx] = 0;
  const unsigned int full = n / 16, stride = PACKED_BLOCK * gridDim.x, perRound = stride * PACKED_ROUND;
  const unsigned int rounds = max(1u, (full + perRound - 1) / perRound);
  unsigned int total[4] = {0, 0, 0, 0};
  for (unsigned int r = 0; r < rounds; ++r) {
    unsigned int q = r * perRound + blockIdx.x * PACKED_BLOCK + tx;
    for (unsigned int j = 0; j < PACKED_ROUND; j += 3, q += 3 * stride) {
      uint4 a = q < full ? data[q] : uint4{}, b = q + stride < full ? data[q + stride] : uint4{};
      uint4 c = q + 2 * stride < full ? data[q + 2 * stride] : uint4{};
      if (q < full) countQuad<ATOMIC>(counters, a);
      if (q + stride < full) countQuad<ATOMIC>(counters, b);
      if (q + 2 * stride < full) countQuad<ATOMIC>(counters, c);
    }
    if (r + 1 == rounds && blockIdx.x == 0 && tx == 0)
      for (unsigned int i = full * 16; i < n; ++i) countByte<ATOMIC>(counters, reinterpret_cast<const unsigned char *>(data)[i]);
    __syncthreads();
    unsigned int even = 0, odd = 0;
    for (unsigned int s = 0; s < PACKED_BLOCK; ++s) {
      unsigned int at = tx * PACKED_BLOCK + (s ^ tx);
      unsigned int c = ATOMIC ? atomicExch(&counters[at], 0u) : counters[at];
      if (!ATOMIC) counters[at] = 0;
      even += c & 0x00ff00ff;
      odd += (c >> 8) & 0x00ff00ff;
    }
    total[0] += even & 0xffff; total[1] += odd & 0xffff; total[2] += even >> 16; total[3] += odd >> 16;
    __syncthreads();
  }
  for (unsigned int k = 0; k < 4; ++k)
    if (total[k] > 0) atomicAdd(&histo[tx * 4 + k], total[k]);
}

// The twin of batched.wgsl (variant 8), 256 bins of bytes: a copy of the bins per COPIES-th of the
// block with 32-bit counters, one shared atomic per byte (one of 16 for a uint4 of equal bytes),
// four uint4 loads issued before any is counted, no flushes.
constexpr unsigned int BATCHED_BLOCK = 256;

__device__ __forceinline__ void batchedQuad(unsigned int *mine, uint4 v) {
  unsigned int first = v.x & 0xff, splat = first * 0x01010101u;
  if (v.x == splat && v.y == splat && v.z == splat && v.w == splat) {
    atomicAdd(&mine[first], 16u);
    return;
  }
#pragma unroll
  for (unsigned int s = 0; s < 32; s += 8) {
    atomicAdd(&mine[(v.x >> s) & 0xff], 1u);
    atomicAdd(&mine[(v.y >> s) & 0xff], 1u);
    atomicAdd(&mine[(v.z >> s) & 0xff], 1u);
    atomicAdd(&mine[(v.w >> s) & 0xff], 1u);
  }
}

template <unsigned int COPIES>
__global__ void __launch_bounds__(BATCHED_BLOCK) histoBatched(const uint4 *__restrict__ data, unsigned int n, unsigned int *histo) {
  __shared__ unsigned int copies[COPIES * 256];
  for (unsigned int w = threadIdx.x; w < COPIES * 256; w += BATCHED_BLOCK) copies[w] = 0;
  __syncthreads();
  unsigned int *mine = copies + threadIdx.x / (BATCHED_BLOCK / COPIES) * 256;
  unsigned int full = n / 16, stride = BATCHED_BLOCK * gridDim.x, q = blockIdx.x * BATCHED_BLOCK + threadIdx.x;
  for (; q + 3 * stride < full; q += 4 * stride) {
    uint4 v0 = data[q], v1 = data[q + stride], v2 = data[q + 2 * stride], v3 = data[q + 3 * stride];
    batchedQuad(mine, v0);
    batchedQuad(mine, v1);
    batchedQuad(mine, v2);
    batchedQuad(mine, v3);
  }
  for (; q < full; q += stride) batchedQuad(mine, data[q]);
  unsigned int g = blockIdx.x * BATCHED_BLOCK + threadIdx.x;
  if (g < n - full * 16) atomicAdd(&mine[reinterpret_cast<const unsigned char *>(data)[full * 16 + g]], 1u);
  __syncthreads();
  for (unsigned int b = threadIdx.x; b < 256; b += BATCHED_BLOCK) {
    unsigned int total = 0;
    for (unsigned int c = 0; c < COPIES; ++c) total += copies[c * 256 + b];
    if (total > 0) atomicAdd(&histo[b], total);
  }
}

// The twin of the lanes16.wgsl experiment, 256 bins of bytes: 16-bit counters per thread, two bins
// to a word, in a block of one warp; word w of thread t at w * 32 + t (bank t, whatever the data);
// a flush per 4095 uint4s a thread (at 2^28 bytes and 1716 blocks: once, at the end).
constexpr unsigned int LANES_BLOCK = 32, LANES_WORDS = 128, LANES_ROUND = 4095;

__device__ __forceinline__ void lanesCount(unsigned int *counters, unsigned int b, unsigned int k) {
  atomicAdd(&counters[((b / 2) * LANES_BLOCK) | threadIdx.x], k << (b % 2 * 16));
}

__device__ __forceinline__ void lanesQuad(unsigned int *counters, uint4 v) {
  unsigned int first = v.x & 0xff, splat = first * 0x01010101u;
  if (v.x == splat && v.y == splat && v.z == splat && v.w == splat) {
    lanesCount(counters, first, 16);
    return;
  }
  for (unsigned int word : {v.x, v.y, v.z, v.w})
    for (unsigned int s = 0; s < 32; s += 8) lanesCount(counters, (word >> s) & 0xff, 1);
}

__global__ void __launch_bounds__(LANES_BLOCK) histoLanes16(const uint4 *__restrict__ data, unsigned int n, unsigned int *histo) {
  __shared__ unsigned int counters[LANES_WORDS * LANES_BLOCK];
  unsigned int tx = threadIdx.x;
  for (unsigned int w = 0; w < LANES_WORDS; ++w) counters[w * LANES_BLOCK + tx] = 0;
  unsigned int full = n / 16, stride = LANES_BLOCK * gridDim.x, q = blockIdx.x * LANES_BLOCK + tx;
  unsigned int perRound = stride * LANES_ROUND, rounds = max(1u, (full + perRound - 1) / perRound);
  for (unsigned int r = 0; r < rounds; ++r) {
    unsigned int end = min(full, (r + 1) * perRound);
    for (; q + 7 * stride < end; q += 8 * stride) {
      uint4 v[8];
#pragma unroll
      for (int j = 0; j < 8; ++j) v[j] = data[q + j * stride];
#pragma unroll
      for (int j = 0; j < 8; ++j) lanesQuad(counters, v[j]);
    }
    for (; q < end; q += stride) lanesQuad(counters, data[q]);
    unsigned int g = blockIdx.x * LANES_BLOCK + tx;
    if (r + 1 == rounds && g < n - full * 16) lanesCount(counters, reinterpret_cast<const unsigned char *>(data)[full * 16 + g], 1);
    __syncthreads();
    for (unsigned int w = tx; w < LANES_WORDS; w += LANES_BLOCK) {   // flush word w of every thread
      unsigned int low = 0, high = 0;
      for (unsigned int s = 0; s < LANES_BLOCK; ++s) {
        unsigned int c = atomicExch(&counters[w * LANES_BLOCK + ((s + tx) & (LANES_BLOCK - 1))], 0u);
        low += c & 0xffff;
        high += c >> 16;
      }
      if (low > 0) atomicAdd(&histo[2 * w], low);
      if (high > 0) atomicAdd(&histo[2 * w + 1], high);
    }
    __syncthreads();
  }
}

template <typename F>
static float medianMs(F fn, int repeats = 20) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) fn();
  CHECK(cudaEventRecord(a));
  fn();
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float one = 0;
  CHECK(cudaEventElapsedTime(&one, a, b));
  for (int i = 0, warm = int(200.0f / std::max(one, 1e-3f)) + 1; i < warm; ++i) fn();
  std::vector<float> samples;
  for (int i = 0; i < repeats; ++i) {
    CHECK(cudaEventRecord(a));
    fn();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    samples.push_back(ms);
  }
  CHECK(cudaGetLastError());
  std::sort(samples.begin(), samples.end());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return samples[samples.size() / 2];
}

int main(int argc, char **argv) {
  int log2 = argc > 1 ? std::atoi(argv[1]) : 28;
  size_t n = size_t(1) << log2;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs; CUB %d.%d.%d\n", prop.name, prop.multiProcessorCount, CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
  std::vector<unsigned char> host(n);
  unsigned char *d_bytes;
  int *d_hist;
  unsigned int *d_sink;
  CHECK(cudaMalloc(&d_bytes, n));
  CHECK(cudaMalloc(&d_hist, 256 * sizeof(int)));
  CHECK(cudaMalloc(&d_sink, sizeof(unsigned int)));
  size_t temp_bytes = 0;
  CHECK(cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes, d_bytes, d_hist, 257, 0, 256, (int)n));
  void *d_temp;
  CHECK(cudaMalloc(&d_temp, temp_bytes));
  std::printf("| peer | data | median ms | GB/s | %% of the read below |\n|---|---|---|---|---|\n");
  for (const char *dist : {"uniform", "one-value"}) {
    if (std::strcmp(dist, "uniform") == 0) {
      std::mt19937 rng(3);
      for (size_t i = 0; i < n; ++i) host[i] = (unsigned char)(rng() >> 24);
    } else {
      std::fill(host.begin(), host.end(), 0);
    }
    CHECK(cudaMemcpy(d_bytes, host.data(), n, cudaMemcpyHostToDevice));
    std::vector<long long> want(256, 0);
    for (size_t i = 0; i < n; ++i) ++want[host[i]];
    auto hist = [&] { CHECK(cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, d_bytes, d_hist, 257, 0, 256, (int)n)); };
    hist();
    std::vector<int> got(256);
    CHECK(cudaMemcpy(got.data(), d_hist, 256 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < 256; ++b) {
      if (got[b] != want[b]) {
        std::fprintf(stderr, "CUB histogram of %s bytes: bin %d is %d, expected %lld\n", dist, b, got[b], want[b]);
        return 1;
      }
    }
    for (int atomic = 0; atomic < 2; ++atomic) {
      for (unsigned int grid : {1056u, 1716u, 3432u}) {
        auto run = [&] {
          if (atomic) histoPacked<true><<<grid, PACKED_BLOCK>>>(reinterpret_cast<const uint4 *>(d_bytes), (unsigned int)n, reinterpret_cast<unsigned int *>(d_hist));
          else histoPacked<false><<<grid, PACKED_BLOCK>>>(reinterpret_cast<const uint4 *>(d_bytes), (unsigned int)n, reinterpret_cast<unsigned int *>(d_hist));
        };
        CHECK(cudaMemset(d_hist, 0, 256 * sizeof(int)));
        run();
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(got.data(), d_hist, 256 * sizeof(int), cudaMemcpyDeviceToHost));
        for (int b = 0; b < 256; ++b) {
          if (got[b] != want[b]) {
            std::fprintf(stderr, "CUDA twin of packed%s, %u blocks, %s bytes: bin %d is %d, expected %lld\n", atomic ? "-atomic" : "", grid, dist, b, got[b], want[b]);
            return 1;
          }
        }
        float ms = medianMs(run);
        std::printf("| CUDA twin of packed%s.wgsl, %u blocks of 64 | %s | %.4f | %.1f | (read below) |\n", atomic ? "-atomic" : "", grid, dist, ms, n / (ms * 1e6));
      }
    }
    for (unsigned int copiesPerBlock : {8u, 1u}) {
      for (unsigned int grid : {1056u, 2112u}) {
        auto run = [&] {
          const uint4 *in = reinterpret_cast<const uint4 *>(d_bytes);
          unsigned int *out = reinterpret_cast<unsigned int *>(d_hist);
          if (copiesPerBlock == 8) histoBatched<8><<<grid, BATCHED_BLOCK>>>(in, (unsigned int)n, out);
          else histoBatched<1><<<grid, BATCHED_BLOCK>>>(in, (unsigned int)n, out);
        };
        CHECK(cudaMemset(d_hist, 0, 256 * sizeof(int)));
        run();
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(got.data(), d_hist, 256 * sizeof(int), cudaMemcpyDeviceToHost));
        for (int b = 0; b < 256; ++b) {
          if (got[b] != want[b]) {
            std::fprintf(stderr, "CUDA twin of batched, %u copies, %u blocks, %s bytes: bin %d is %d, expected %lld\n", copiesPerBlock, grid, dist, b, got[b], want[b]);
            return 1;
          }
        }
        float ms = medianMs(run);
        std::printf("| CUDA twin of batched.wgsl, %u cop%s, %u blocks of 256 | %s | %.4f | %.1f | (read below) |\n", copiesPerBlock, copiesPerBlock == 1 ? "y" : "ies", grid, dist, ms, n / (ms * 1e6));
      }
    }
    for (unsigned int grid : {1716u, 3432u}) {
      auto run = [&] { histoLanes16<<<grid, LANES_BLOCK>>>(reinterpret_cast<const uint4 *>(d_bytes), (unsigned int)n, reinterpret_cast<unsigned int *>(d_hist)); };
      CHECK(cudaMemset(d_hist, 0, 256 * sizeof(int)));
      run();
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(got.data(), d_hist, 256 * sizeof(int), cudaMemcpyDeviceToHost));
      for (int b = 0; b < 256; ++b) {
        if (got[b] != want[b]) {
          std::fprintf(stderr, "CUDA twin of lanes16, %u blocks, %s bytes: bin %d is %d, expected %lld\n", grid, dist, b, got[b], want[b]);
          return 1;
        }
      }
      float ms = medianMs(run);
      std::printf("| CUDA twin of lanes16.wgsl (experiment), %u blocks of 32 | %s | %.4f | %.1f | (read below) |\n", grid, dist, ms, n / (ms * 1e6));
    }
    int blocks = prop.multiProcessorCount * 32;
    auto read = [&] { readAll<<<blocks, 256>>>(reinterpret_cast<const uint4 *>(d_bytes), n / 16, d_sink); };
    // Alternate, so both see the same clocks: read, histogram, read.
    float r1 = medianMs(read), h = medianMs(hist), r2 = medianMs(read);
    float r = std::min(r1, r2);
    std::printf("| read of the bytes (uint4, %d blocks of 256) | %s | %.4f | %.1f | 100 |\n", blocks, dist, r, n / (r * 1e6));
    std::printf("| cub::DeviceHistogram::HistogramEven, 256 bins | %s | %.4f | %.1f | %.1f |\n", dist, h, n / (h * 1e6), 100.0 * r / h);
  }
  return 0;
}
