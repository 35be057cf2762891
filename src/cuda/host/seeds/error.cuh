// Not printed in post 002, which includes it: the CHECK macro as Chinese CUDA courses define it
// (print where and why, then exit(1)). Supplied here as the smallest fix that lets the post compile.
#pragma once
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                   \
  do {                                                                \
    const cudaError_t error_code = call;                              \
    if (error_code != cudaSuccess) {                                  \
      printf("CUDA Error:\n");                                        \
      printf("    File:       %s\n", __FILE__);                       \
      printf("    Line:       %d\n", __LINE__);                       \
      printf("    Error code: %d\n", error_code);                     \
      printf("    Error text: %s\n", cudaGetErrorString(error_code)); \
      exit(1);                                                        \
    }                                                                 \
  } while (0)
