// CUDA runtime error names and strings, straight from cudart's own table (runs without a GPU):
//   E <tab> code <tab> name <tab> string      for every code cudart knows.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

int main() {
  for (int i = 0; i < 1100; i++) {
    const char *name = cudaGetErrorName((cudaError_t)i);
    if (std::strcmp(name, "unrecognized error code") == 0) continue;
    std::printf("E\t%d\t%s\t%s\n", i, name, cudaGetErrorString((cudaError_t)i));
  }
  std::printf("U\t%s\n", cudaGetErrorString((cudaError_t)12345));
  return 0;
}
