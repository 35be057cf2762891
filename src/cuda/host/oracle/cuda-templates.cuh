// Included by cuda-templates.cu: a macro and a template kernel from a local header.
#pragma once
#define BLOCK 4

// A value parameter, given by a macro and as a negative number: scaleBy<BLOCK>, scaleBy<-1>.
template <int N>
__global__ void scaleBy(int *a) { a[threadIdx.x] *= N; }
