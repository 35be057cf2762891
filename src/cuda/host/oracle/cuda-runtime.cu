// CUDA runtime behaviour oracle: run on a real GPU (the H100), never here. Each line is
//   K <tab> case <tab> observed values...
// Error values print as "<code> <name>". The illegal-address case comes last: it poisons the context.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define SHOW(label, expr) do { cudaError_t e_ = (expr); std::printf("K\t%s\t%d %s\n", label, (int)e_, cudaGetErrorName(e_)); } while (0)

__global__ void fill(int *p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}
__global__ void nothing() {}
__global__ void writeAt(int *p, long long index) { p[index] = 1; }
__global__ void readConst(int *out);
__constant__ int c_table[4];
__device__ int d_counter[2];
__global__ void readConst(int *out) { out[threadIdx.x] = c_table[threadIdx.x] + d_counter[0]; }
__global__ void dynShared(int *out) {
  extern __shared__ int s[];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

int main() {
  int count = -1;
  SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&count));
  std::printf("K\tdeviceCount\t%d\n", count);
  cudaDeviceProp p;
  SHOW("cudaGetDeviceProperties(0)", cudaGetDeviceProperties(&p, 0));
  std::printf("K\tprop.name\t%s\n", p.name);
  std::printf("K\tprop.totalGlobalMem\t%zu\n", p.totalGlobalMem);
  std::printf("K\tprop.sharedMemPerBlock\t%zu\n", p.sharedMemPerBlock);
  std::printf("K\tprop.sharedMemPerBlockOptin\t%zu\n", p.sharedMemPerBlockOptin);
  std::printf("K\tprop.sharedMemPerMultiprocessor\t%zu\n", p.sharedMemPerMultiprocessor);
  std::printf("K\tprop.regsPerBlock\t%d\n", p.regsPerBlock);
  std::printf("K\tprop.warpSize\t%d\n", p.warpSize);
  std::printf("K\tprop.maxThreadsPerBlock\t%d\n", p.maxThreadsPerBlock);
  std::printf("K\tprop.maxThreadsDim\t%d %d %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
  std::printf("K\tprop.maxGridSize\t%d %d %d\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  std::printf("K\tprop.totalConstMem\t%zu\n", p.totalConstMem);
  std::printf("K\tprop.major.minor\t%d %d\n", p.major, p.minor);
  std::printf("K\tprop.multiProcessorCount\t%d\n", p.multiProcessorCount);
  std::printf("K\tprop.maxThreadsPerMultiProcessor\t%d\n", p.maxThreadsPerMultiProcessor);
  std::printf("K\tprop.l2CacheSize\t%d\n", p.l2CacheSize);
  std::printf("K\tprop.memoryBusWidth\t%d\n", p.memoryBusWidth);
  std::printf("K\tprop.managedMemory.unifiedAddressing\t%d %d\n", p.managedMemory, p.unifiedAddressing);
  int clk = 0, memClk = 0;
  cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&memClk, cudaDevAttrMemoryClockRate, 0);
  std::printf("K\tattr.clockRate.memoryClockRate\t%d %d\n", clk, memClk);
  SHOW("cudaGetDeviceProperties(7)", cudaGetDeviceProperties(&p, 7));
  SHOW("cudaGetLastError after bad device", cudaGetLastError());
  SHOW("cudaSetDevice(7)", cudaSetDevice(7));
  SHOW("cudaGetLastError after cudaSetDevice(7)", cudaGetLastError());
  SHOW("cudaSetDevice(0)", cudaSetDevice(0));

  // launch configuration errors: reported by cudaGetLastError, cleared by it, kept by Peek
  nothing<<<1, 1025>>>();
  SHOW("launch block 1025: cudaPeekAtLastError", cudaPeekAtLastError());
  SHOW("launch block 1025: cudaPeekAtLastError again", cudaPeekAtLastError());
  SHOW("launch block 1025: cudaGetLastError", cudaGetLastError());
  SHOW("launch block 1025: cudaGetLastError again", cudaGetLastError());
  nothing<<<1, 1025>>>();
  SHOW("launch block 1025: cudaDeviceSynchronize", cudaDeviceSynchronize());
  SHOW("launch block 1025: cudaGetLastError after sync", cudaGetLastError());
  nothing<<<1, dim3(32, 32, 2)>>>();
  SHOW("launch block 32x32x2", cudaGetLastError());
  nothing<<<1, dim3(1, 1, 65)>>>();
  SHOW("launch block z 65", cudaGetLastError());
  nothing<<<1, dim3(1, 1, 64)>>>();
  SHOW("launch block z 64", cudaGetLastError());
  nothing<<<dim3(1, 65536), 1>>>();
  SHOW("launch grid y 65536", cudaGetLastError());
  nothing<<<dim3(2147483647u), 1>>>();
  SHOW("launch grid x 2^31-1", cudaGetLastError());
  nothing<<<0, 32>>>();
  SHOW("launch grid 0", cudaGetLastError());
  nothing<<<1, 0>>>();
  SHOW("launch block 0", cudaGetLastError());
  nothing<<<1, 1024>>>();
  SHOW("launch block 1024", cudaGetLastError());
  int *d_out = nullptr;
  cudaMalloc(&d_out, 1024 * sizeof(int));
  dynShared<<<1, 32, 48 * 1024>>>(d_out);
  SHOW("dynamic shared 48 KiB", cudaGetLastError());
  dynShared<<<1, 32, 48 * 1024 + 4>>>(d_out);
  SHOW("dynamic shared 48 KiB + 4", cudaGetLastError());
  dynShared<<<1, 32, 32 * sizeof(int)>>>(d_out);
  SHOW("dynamic shared 128 B: sync", cudaDeviceSynchronize());
  int h[32];
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("K\tdynamic shared reversed\t%d %d %d\n", h[0], h[1], h[31]);

  // memory
  int *d = nullptr;
  SHOW("cudaMalloc 4 KiB", cudaMalloc(&d, 4096));
  int *huge = nullptr;
  SHOW("cudaMalloc 2^50 bytes", cudaMalloc(&huge, (size_t)1 << 50));
  std::printf("K\tcudaMalloc 2^50 pointer\t%s\n", huge == nullptr ? "null" : "not null");
  SHOW("cudaGetLastError after failed cudaMalloc", cudaGetLastError());
  SHOW("cudaGetLastError again", cudaGetLastError());
  SHOW("cudaMemset", cudaMemset(d, 0x01, 4096));
  unsigned int u[2];
  SHOW("cudaMemcpy D2H", cudaMemcpy(u, d, sizeof u, cudaMemcpyDeviceToHost));
  std::printf("K\tcudaMemset 0x01 reads\t%u %u\n", u[0], u[1]);
  fill<<<4, 256>>>(d, 100, 1024);
  SHOW("fill launch", cudaGetLastError());
  int back[1024];
  SHOW("cudaMemcpy default kind", cudaMemcpy(back, d, sizeof back, cudaMemcpyDefault));
  std::printf("K\tfill values\t%d %d %d\n", back[0], back[1], back[1023]);
  SHOW("cudaMemcpy invalid kind 7", cudaMemcpy(back, d, 16, (cudaMemcpyKind)7));
  SHOW("cudaGetLastError after invalid kind", cudaGetLastError());
  SHOW("cudaMemcpy H2D with host pointers both sides", cudaMemcpy(back, u, 8, cudaMemcpyHostToDevice));
  SHOW("cudaMemcpy D2H with device pointers both sides", cudaMemcpy(d, d + 16, 8, cudaMemcpyDeviceToHost));
  SHOW("cudaMemcpy D2D", cudaMemcpy(d, d + 16, 64, cudaMemcpyDeviceToDevice));
  SHOW("cudaMemcpy H2H", cudaMemcpy(back, u, 8, cudaMemcpyHostToHost));
  SHOW("cudaMemcpy past the allocation", cudaMemcpy(back, d, 8192, cudaMemcpyDeviceToHost));
  SHOW("cudaGetLastError after memcpy past end", cudaGetLastError());
  SHOW("cudaFree(host pointer)", cudaFree(back));
  SHOW("cudaGetLastError after bad free", cudaGetLastError());
  SHOW("cudaFree(nullptr)", cudaFree(nullptr));
  SHOW("cudaFree(d + 1)", cudaFree(d + 1));
  SHOW("cudaFree(d)", cudaFree(d));
  SHOW("cudaFree(d) twice", cudaFree(d));
  SHOW("cudaGetLastError after double free", cudaGetLastError());
  int *m = nullptr;
  SHOW("cudaMallocManaged", cudaMallocManaged(&m, 1024 * sizeof(int)));
  for (int i = 0; i < 1024; i++) m[i] = -1;
  fill<<<4, 256>>>(m, 7, 1000);
  SHOW("managed: sync", cudaDeviceSynchronize());
  std::printf("K\tmanaged values\t%d %d %d\n", m[0], m[999], m[1000]);
  cudaFree(m);

  // symbols
  int tbl[4] = {10, 20, 30, 40};
  SHOW("cudaMemcpyToSymbol", cudaMemcpyToSymbol(c_table, tbl, sizeof tbl));
  int one = 5;
  SHOW("cudaMemcpyToSymbol offset", cudaMemcpyToSymbol(d_counter, &one, sizeof one, 0));
  SHOW("cudaMemcpyToSymbol past the end", cudaMemcpyToSymbol(c_table, tbl, sizeof tbl, 8));
  SHOW("cudaGetLastError after symbol past end", cudaGetLastError());
  readConst<<<1, 4>>>(d_out);
  cudaMemcpy(h, d_out, 4 * sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("K\tconstant + device symbol\t%d %d %d %d\n", h[0], h[1], h[2], h[3]);
  int got[2] = {0, 0};
  SHOW("cudaMemcpyFromSymbol", cudaMemcpyFromSymbol(got, d_counter, sizeof got));
  std::printf("K\tcudaMemcpyFromSymbol values\t%d %d\n", got[0], got[1]);

  // events
  cudaEvent_t a, b, never;
  SHOW("cudaEventCreate", cudaEventCreate(&a));
  cudaEventCreate(&b);
  cudaEventCreate(&never);
  float ms = -1.0f;
  SHOW("cudaEventElapsedTime before record", cudaEventElapsedTime(&ms, a, b));
  SHOW("cudaGetLastError after elapsed before record", cudaGetLastError());
  cudaEventRecord(a);
  fill<<<4, 256>>>(d_out, 0, 1024);
  cudaEventRecord(b);
  SHOW("cudaEventSynchronize", cudaEventSynchronize(b));
  SHOW("cudaEventElapsedTime", cudaEventElapsedTime(&ms, a, b));
  std::printf("K\telapsed is positive\t%d\n", ms > 0.0f);
  SHOW("cudaEventElapsedTime with unrecorded end", cudaEventElapsedTime(&ms, a, never));
  SHOW("cudaEventQuery recorded", cudaEventQuery(b));
  SHOW("cudaEventDestroy", cudaEventDestroy(never));

  // a kernel's out-of-bounds write: the error is sticky
  writeAt<<<1, 1>>>(d_out, 1LL << 40);
  SHOW("illegal address: cudaGetLastError right after launch", cudaGetLastError());
  SHOW("illegal address: cudaDeviceSynchronize", cudaDeviceSynchronize());
  SHOW("illegal address: cudaGetLastError", cudaGetLastError());
  SHOW("illegal address: cudaGetLastError again", cudaGetLastError());
  int *later = nullptr;
  SHOW("illegal address: cudaMalloc afterwards", cudaMalloc(&later, 16));
  SHOW("illegal address: cudaMemcpy afterwards", cudaMemcpy(h, d_out, 16, cudaMemcpyDeviceToHost));
  std::printf("K\tdone\t1\n");
  return 0;
}
