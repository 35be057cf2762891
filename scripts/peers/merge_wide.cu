// CUB's DeviceMerge::MergeKeys as the CUDA peer of the merge lab (issue 19), beside CUDA C++ twins
// of the lab's wide variant (shaders/merge/partition.wgsl and wide.wgsl, written out again here):
// first the shipped 256 x 15, then other shapes with the 33-way partition (partition-wide.wgsl,
// which shipped before and was slower), so a gap between the WebGPU figure and the bandwidth can be split into
// the algorithm's share and the WebGPU path's share. Two sorted 2^(L-1)-element i32 arrays
// (argv[1] = L, the log2 of the output count, default 26), on zigzag data (evens in A, odds in B,
// as the bench) and on random sorted keys with repeats; timed with CUDA events after a warm-up of
// about 200 ms, median of 20 runs; beside it, in the same process, a copy of 2^L words (uint4 per
// thread, grid-stride) as the yardstick, so "% of copy" means what the WebGPU bench means (each
// input word read once, each output word written once). Outputs are checked against std::merge.
// Build and run on the GPU machine (it builds on this machine too):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/merge_wide scripts/peers/merge_wide.cu && /tmp/merge_wide 26
// `/tmp/merge_wide 26 round4` prints instead, on zigzag data only, CUB, the shipped twin's chain and
// each of its passes alone, and the chain with the sampled partition (issue 29, round 4).
#include <cub/device/device_merge.cuh>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t e_ = (call);                                                             \
    if (e_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

typedef int T;

__global__ void copyAll(const uint4 *__restrict__ in, uint4 *__restrict__ out, size_t quads) {
  for (size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x; q < quads; q += (size_t)blockDim.x * gridDim.x) out[q] = in[q];
}

// How many of the first k outputs come from A (ties: A first).
__device__ __forceinline__ int coRank(int k, const T *A, int m, const T *B, int n) {
  int lo = max(0, k - n), hi = min(k, m);
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (A[mid] <= B[k - 1 - mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// partition.wgsl: the co-rank of every tile boundary.
__global__ void mergePartition(const T *__restrict__ A, int m, const T *__restrict__ B, int n, int *splits, int boundaries, int tile) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < boundaries) splits[g] = coRank(min(g * tile, m + n), A, m, B, n);
}

// partition-wide.wgsl: one block of 32 per boundary, a 33-way search (5 rounds for 2^25).
__device__ __forceinline__ int probe33(int lo, int span, int t) { return lo + (span / 33) * (t + 1) + (span % 33) * (t + 1) / 33; }
__global__ void mergePartitionWide(const T *__restrict__ A, int m, const T *__restrict__ B, int n, int *splits, int boundaries, int tile) {
  __shared__ int flags[32], range[2];
  int g = blockIdx.x;
  if (g >= boundaries) return;
  int k = min(g * tile, m + n), lo = max(0, k - n), hi = min(k, m);
  while (lo < hi) {
    int span = hi - lo, q = probe33(lo, span, threadIdx.x);
    flags[threadIdx.x] = A[q] <= B[k - 1 - q];
    __syncthreads();
    if (threadIdx.x == 0) {
      int c = 0;
      for (int t = 0; t < 32; t++) c += flags[t];
      range[0] = c > 0 ? probe33(lo, span, c - 1) + 1 : lo;
      range[1] = c < 32 ? probe33(lo, span, c) : hi;
    }
    __syncthreads();
    lo = range[0];
    hi = range[1];
    __syncthreads();
  }
  if (threadIdx.x == 0) splits[g] = lo;
}

// scripts/experiments/merge-sample.wgsl: every STRIDE-th key of A (A[STRIDE q]) and of B (B[STRIDE p - 1], p >= 1) in one small array.
__global__ void mergeSample(const T *__restrict__ A, int m, const T *__restrict__ B, int n, T *samples, int aSamples, int stride) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < aSamples) samples[s] = A[s * stride];
  else if (s < aSamples + n / stride) samples[s] = B[(s - aSamples + 1) * stride - 1];
}

// scripts/experiments/merge-partition-sampled.wgsl: the co-rank searched over the samples first (from L2), then in a window of STRIDE over A and B.
__global__ void mergePartitionSampled(const T *__restrict__ A, int m, const T *__restrict__ B, int n, const T *__restrict__ samples, int aSamples, int stride, int *splits, int boundaries, int tile) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= boundaries) return;
  int k = min(g * tile, m + n), lo = max(0, k - n), hi = min(k, m);
  if (k % stride == 0 && lo < hi) {
    int ql = (lo + stride - 1) / stride, qh = (hi + stride - 1) / stride, q0 = ql, q1 = qh, kq = k / stride;
    while (ql < qh) {
      int q = (ql + qh) / 2;
      if (samples[q] <= samples[aSamples + kq - q - 1]) ql = q + 1;
      else qh = q;
    }
    if (ql > q0) lo = max(lo, stride * (ql - 1) + 1);
    if (ql < q1) hi = min(hi, stride * ql);
  }
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (A[mid] <= B[k - 1 - mid]) lo = mid + 1;
    else hi = mid;
  }
  splits[g] = lo;
}

// wide.wgsl, line for line: one tile of BLOCK * ITEMS outputs per block.
template <int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) mergeWide(const T *__restrict__ A, int m, const T *__restrict__ B, int n, T *__restrict__ C, const int *__restrict__ splits, int tiles) {
  constexpr int TILE = BLOCK * ITEMS;
  __shared__ T tile[TILE];
  int g = blockIdx.x;
  if (g >= tiles) return;
  int k0 = min(g * TILE, m + n), count = min(k0 + TILE, m + n) - k0;
  int a0 = splits[g], la = splits[g + 1] - a0, b0 = k0 - a0;
  T v[ITEMS];
#pragma unroll
  for (int r = 0; r < ITEMS; r++) {
    int x = threadIdx.x + r * BLOCK;
    if (x < la) v[r] = A[a0 + x];
    else if (x < count) v[r] = B[b0 + x - la];
  }
#pragma unroll
  for (int r = 0; r < ITEMS; r++) {
    int x = threadIdx.x + r * BLOCK;
    if (x < count) tile[x] = v[r];
  }
  __syncthreads();
  int t0 = min((int)threadIdx.x * ITEMS, count);
  int i = coRank(t0, tile, la, tile + la, count - la), j = la + t0 - i;
  T av = tile[min(i, TILE - 1)], bv = tile[min(j, TILE - 1)];
#pragma unroll
  for (int r = 0; r < ITEMS; r++) {
    bool takeA = j >= count || (i < la && av <= bv);
    v[r] = takeA ? av : bv;
    i += takeA;
    j += !takeA;
    T next = tile[min(takeA ? i : j, TILE - 1)];
    av = takeA ? next : av;
    bv = takeA ? bv : next;
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < ITEMS; r++)
    if (t0 + r < count) tile[t0 + r] = v[r];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < ITEMS; r++) {
    int x = threadIdx.x + r * BLOCK;
    if (x < count) C[k0 + x] = tile[x];
  }
}

// Median of 20 timed runs of `launch`, after about 200 ms of untimed ones.
template <typename F>
float medianMs(F launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a));
  int warm = 0;
  for (float spent = 0; spent < 200 && warm < 100000; warm++) {
    launch();
    if (warm % 16 == 15) {
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      CHECK(cudaEventElapsedTime(&spent, a, b));
    }
  }
  std::vector<float> ms;
  for (int r = 0; r < 20; r++) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return (ms[9] + ms[10]) / 2;
}

struct Run {
  const T *A, *B;
  T *C;
  int m, n;
  int *splits;
};

template <int BLOCK, int ITEMS>
float timeWide(const Run &r, bool *ok, const std::vector<T> &want, bool wideSplit) {
  constexpr int TILE = BLOCK * ITEMS;
  int total = r.m + r.n, tiles = (total + TILE - 1) / TILE, boundaries = tiles + 1;
  auto launch = [&] {
    if (wideSplit) mergePartitionWide<<<boundaries, 32>>>(r.A, r.m, r.B, r.n, r.splits, boundaries, TILE);
    else mergePartition<<<(boundaries + 63) / 64, 64>>>(r.A, r.m, r.B, r.n, r.splits, boundaries, TILE);
    mergeWide<BLOCK, ITEMS><<<tiles, BLOCK>>>(r.A, r.m, r.B, r.n, r.C, r.splits, tiles);
  };
  CHECK(cudaMemset(r.C, 0, sizeof(T) * total));
  launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<T> got(total);
  CHECK(cudaMemcpy(got.data(), r.C, sizeof(T) * total, cudaMemcpyDeviceToHost));
  *ok = got == want;
  return medianMs(launch);
}

// Issue 29, round 4 (argv[2] = "round4"): the shipped twin's chain split into its two passes, and the
// sampled partition (stride 256) in place of the binary one, on zigzag data; every chain checked.
template <int BLOCK, int ITEMS>
void round4(const Run &r, const std::vector<T> &want, float copyMs, double bytes) {
  constexpr int TILE = BLOCK * ITEMS, STRIDE = 256;
  int total = r.m + r.n, tiles = (total + TILE - 1) / TILE, boundaries = tiles + 1;
  int aSamples = (r.m + STRIDE - 1) / STRIDE, count = aSamples + r.n / STRIDE;
  T *samples;
  CHECK(cudaMalloc(&samples, sizeof(T) * (count + 1)));
  auto partition = [&] { mergePartition<<<(boundaries + 63) / 64, 64>>>(r.A, r.m, r.B, r.n, r.splits, boundaries, TILE); };
  auto sampled = [&] {
    mergeSample<<<(count + 255) / 256, 256>>>(r.A, r.m, r.B, r.n, samples, aSamples, STRIDE);
    mergePartitionSampled<<<(boundaries + 63) / 64, 64>>>(r.A, r.m, r.B, r.n, samples, aSamples, STRIDE, r.splits, boundaries, TILE);
  };
  auto merge = [&] { mergeWide<BLOCK, ITEMS><<<tiles, BLOCK>>>(r.A, r.m, r.B, r.n, r.C, r.splits, tiles); };
  auto check = [&](auto chain) {
    CHECK(cudaMemset(r.C, 0, sizeof(T) * total));
    CHECK(cudaMemset(r.splits, 0, sizeof(int) * boundaries));
    chain();
    CHECK(cudaDeviceSynchronize());
    std::vector<T> got(total);
    CHECK(cudaMemcpy(got.data(), r.C, sizeof(T) * total, cudaMemcpyDeviceToHost));
    return got == want;
  };
  auto row = [&](const char *name, const char *ok, float ms) {
    std::printf("| zigzag | %s | %s | %.4f | %.0f | %.1f %% |\n", name, ok, ms, bytes / (ms * 1e6), 100.0 * copyMs / ms);
  };
  bool ok = check([&] { partition(); merge(); });
  row("wide twin 256 x 15, binary-search partition (shipped)", ok ? "yes" : "NO", medianMs([&] { partition(); merge(); }));
  ok = check([&] { sampled(); merge(); });
  row("wide twin 256 x 15, sampled partition (stride 256)", ok ? "yes" : "NO", medianMs([&] { sampled(); merge(); }));
  partition();  // the right splits for the merge pass alone
  row("its merge pass alone", "-", medianMs(merge));
  row("its binary-search partition pass alone", "-", medianMs(partition));
  row("sample pass + sampled search, stride 256, alone", "-", medianMs(sampled));
  CHECK(cudaFree(samples));
}

int main(int argc, char **argv) {
  int log2 = argc > 1 ? std::atoi(argv[1]) : 26;
  int total = 1 << log2, m = total / 2, n = total - m;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# Merge peers on %s, 2^%d outputs (two sorted 2^%d-element i32 arrays)\n", prop.name, log2, log2 - 1);
  T *A, *B, *C;
  int *splits;
  uint4 *copyIn, *copyOut;
  CHECK(cudaMalloc(&A, sizeof(T) * m));
  CHECK(cudaMalloc(&B, sizeof(T) * n));
  CHECK(cudaMalloc(&C, sizeof(T) * total));
  CHECK(cudaMalloc(&splits, sizeof(int) * (total / 64 + 2)));
  CHECK(cudaMalloc(&copyIn, sizeof(T) * total));
  CHECK(cudaMalloc(&copyOut, sizeof(T) * total));
  CHECK(cudaMemset(copyIn, 1, sizeof(T) * total));
  size_t quads = (size_t)total / 4;
  float copyMs = medianMs([&] { copyAll<<<prop.multiProcessorCount * 16, 256>>>(copyIn, copyOut, quads); });
  double bytes = 8.0 * total;
  std::printf("copy of 2^%d words (uint4, grid-stride): %.4f ms, %.0f GB/s\n\n", log2, copyMs, bytes / (copyMs * 1e6));
  std::printf("| data | kernel | correct | median ms | GB/s | %% of copy |\n|---|---|---|---|---|---|\n");
  const char *kinds[] = {"zigzag", "random"};
  bool r4 = argc > 2 && std::string(argv[2]) == "round4";
  for (int d = 0; d < (r4 ? 1 : 2); d++) {
    std::vector<T> a(m), b(n), want(total);
    std::mt19937 rng(7);
    for (int i = 0; i < m; i++) a[i] = d == 0 ? 2 * i : (i ? a[i - 1] : 0) + (int)(rng() % 8);
    for (int j = 0; j < n; j++) b[j] = d == 0 ? 2 * j + 1 : (j ? b[j - 1] : 0) + (int)(rng() % 8);
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());  // stable: A first on ties
    CHECK(cudaMemcpy(A, a.data(), sizeof(T) * m, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(B, b.data(), sizeof(T) * n, cudaMemcpyHostToDevice));
    Run r{A, B, C, m, n, splits};
    auto row = [&](const char *name, float ms, bool ok) {
      std::printf("| %s | %s | %s | %.4f | %.0f | %.1f %% |\n", kinds[d], name, ok ? "yes" : "NO", ms, bytes / (ms * 1e6), 100.0 * copyMs / ms);
    };
    {
      size_t tempBytes = 0;
      CHECK(cub::DeviceMerge::MergeKeys(nullptr, tempBytes, A, m, B, n, C));
      void *temp;
      CHECK(cudaMalloc(&temp, tempBytes + 1));
      auto launch = [&] { cub::DeviceMerge::MergeKeys(temp, tempBytes, A, m, B, n, C); };
      CHECK(cudaMemset(C, 0, sizeof(T) * total));
      launch();
      CHECK(cudaDeviceSynchronize());
      std::vector<T> got(total);
      CHECK(cudaMemcpy(got.data(), C, sizeof(T) * total, cudaMemcpyDeviceToHost));
      float ms = medianMs(launch);
      row("cub::DeviceMerge::MergeKeys", ms, got == want);
      CHECK(cudaFree(temp));
    }
    if (r4) {
      round4<256, 15>(r, want, copyMs, bytes);
      continue;
    }
    bool ok;
    float ms;
    ms = timeWide<256, 15>(r, &ok, want, false); row("wide twin 256 x 15, binary-search partition (shipped)", ms, ok);
    ms = timeWide<128, 15>(r, &ok, want, false); row("wide twin 128 x 15, binary-search partition", ms, ok);
    ms = timeWide<128, 15>(r, &ok, want, true); row("wide twin 128 x 15, 33-way partition", ms, ok);
    ms = timeWide<256, 15>(r, &ok, want, true); row("wide twin 256 x 15, 33-way partition", ms, ok);
    ms = timeWide<64, 23>(r, &ok, want, true); row("wide twin 64 x 23, 33-way partition", ms, ok);
    ms = timeWide<128, 11>(r, &ok, want, true); row("wide twin 128 x 11, 33-way partition", ms, ok);
    ms = timeWide<128, 23>(r, &ok, want, true); row("wide twin 128 x 23, 33-way partition", ms, ok);
    ms = timeWide<256, 11>(r, &ok, want, true); row("wide twin 256 x 11, 33-way partition", ms, ok);
  }
  return 0;
}
