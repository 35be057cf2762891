// Template kernels launched as CUDA C++ writes them: run on a real GPU (the H100), never here.
// Each line is K <tab> case <tab> observed values; the expected lines are what this printed built
// with nvcc -arch=sm_90 and run on the H100 (docs/runs/2026-11-27-h100-cuda-twins/cuda-templates.txt).
#include <cstdio>
#include <cuda_runtime.h>

#include "cuda-templates.cuh"          // BLOCK and scaleBy<N>: a template kernel from a local header

// A type and a value parameter: fill<float, 8>, fill<int, 4>.
template <typename T, int N>
__global__ void fill(T *a, T v) {
  int i = threadIdx.x;
  if (i < N) a[i] = v * (T)i;
}

// One type parameter, launched halve<float> and halve<int> (integer and float division differ).
template <typename T>
__global__ void halve(T *a) { a[threadIdx.x] = a[threadIdx.x] / (T)2; }

// A bool parameter chooses the branch: pick<true>, pick<false>.
template <bool UP>
__global__ void pick(int *a) { a[threadIdx.x] = UP ? a[threadIdx.x] + 100 : a[threadIdx.x] - 100; }

// A device template called with an argument that depends on the kernel's own (N / 2).
template <int N>
__device__ int times(int v) { return v * N; }
template <int N>
__global__ void timesHalf(int *a) { a[threadIdx.x] = times<N / 2>(a[threadIdx.x]); }

// An explicit instantiation, launched by its arguments like the others.
template <typename T>
__global__ void addOne(T *a) { a[threadIdx.x] += (T)1; }
template __global__ void addOne<int>(int *);

static void line(const char *label, const int *v, int n) {
  std::printf("K\t%s\t", label);
  for (int i = 0; i < n; i++) std::printf(i ? " %d" : "%d", v[i]);
  std::printf("\n");
}
static void lineF(const char *label, const float *v, int n) {
  std::printf("K\t%s\t", label);
  for (int i = 0; i < n; i++) std::printf(i ? " %g" : "%g", v[i]);
  std::printf("\n");
}

int main() {
  float *d; int *e;
  float hf[8]; int hi[8];
  cudaMalloc(&d, 8 * sizeof(float));
  cudaMalloc(&e, 8 * sizeof(int));
  cudaMemset(e, 0, 8 * sizeof(int));

  fill<float, 8><<<1, 8>>>(d, 0.5f);
  cudaMemcpy(hf, d, sizeof hf, cudaMemcpyDeviceToHost);
  lineF("fill<float, 8>", hf, 8);
  fill<int, 4><<<1, 8>>>(e, 3);
  cudaMemcpy(hi, e, sizeof hi, cudaMemcpyDeviceToHost);
  line("fill<int, 4>", hi, 8);

  scaleBy<BLOCK><<<1, 8>>>(e);
  scaleBy<-1><<<1, 2>>>(e);
  cudaMemcpy(hi, e, sizeof hi, cudaMemcpyDeviceToHost);
  line("scaleBy<BLOCK>, scaleBy<-1>", hi, 8);

  halve<float><<<1, 8>>>(d);
  cudaMemcpy(hf, d, sizeof hf, cudaMemcpyDeviceToHost);
  lineF("halve<float>", hf, 8);
  halve<int><<<1, 8>>>(e);
  cudaMemcpy(hi, e, sizeof hi, cudaMemcpyDeviceToHost);
  line("halve<int>", hi, 8);

  pick<true><<<1, 4>>>(e);
  pick<false><<<1, 2>>>(e);
  cudaMemcpy(hi, e, sizeof hi, cudaMemcpyDeviceToHost);
  line("pick<true>, pick<false>", hi, 8);

  timesHalf<6><<<1, 8>>>(e);
  cudaMemcpy(hi, e, sizeof hi, cudaMemcpyDeviceToHost);
  line("timesHalf<6>", hi, 8);

  addOne<int><<<1, 8>>>(e);
  cudaMemcpy(hi, e, sizeof hi, cudaMemcpyDeviceToHost);
  line("addOne<int>", hi, 8);

  cudaError_t err = cudaDeviceSynchronize();
  std::printf("K\tcudaDeviceSynchronize\t%d %s\n", (int)err, cudaGetErrorName(err));
  cudaFree(d);
  cudaFree(e);
  return 0;
}
