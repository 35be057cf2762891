// A value's 32 bits and back, for the single passes' status words (single-pass.cu and the vec4
// single passes): an unsigned int as it is, an int or a float as its bits.
#pragma once
__device__ unsigned int toBits(unsigned int v) { return v; }
__device__ unsigned int toBits(int v) { return (unsigned int)v; }
__device__ unsigned int toBits(float v) { return __float_as_uint(v); }
__device__ unsigned int fromBits(unsigned int bits, unsigned int) { return bits; }
__device__ int fromBits(unsigned int bits, int) { return (int)bits; }
__device__ float fromBits(unsigned int bits, float) { return __uint_as_float(bits); }
