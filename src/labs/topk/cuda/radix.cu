// Twin of shaders/topk/radix.wgsl: top-k by a rising floor and radix select; the input is read
// once. A block reads its rounds of 2 * BLOCK int4s and keeps, in a pool in shared memory, only
// the values above its floor, which starts at INT_MIN: most values cost one comparison with a
// register. When the pool could overflow in the next round, the block finds the pool's k-th
// largest value by radix select (four passes over 8 bits of the key, a 256-bin histogram and its
// suffix sums each), keeps exactly the k largest and raises the floor to the k-th. At the end it
// writes its k largest, descending, padded with INT_MIN. The same kernel over the blocks' lists,
// as one block, gives the answer. Duplicates are kept (the usual top-k). The input is padded with
// INT_MIN to whole int4s. As in seed.cu, k is a template argument where the host has an instance
// for it (k = 20), an argument otherwise; both kernels run the same device code, topkRadixBlock.
#include <climits>

#define BLOCK 256                            // threads a block: one per histogram bin
#define POOL 3072                            // pool words: room for k values and a round of 8 a thread

// The value as an unsigned key in the same order: the sign bit flipped.
__device__ unsigned int key(int v) { return (unsigned int)v ^ 0x80000000u; }


// Cuts the pool's size values (size >= k) down to its k largest and raises the floor to the k-th.
// Called by the whole block, with size the same in every thread.
__device__ void keepKLargest(int *pool, unsigned int *pooled, int *floorValue, unsigned int size, unsigned int k) {
  __shared__ unsigned int bins[256];         // the histogram of one digit
  __shared__ unsigned int groups16[16];      // the sums of its 16 groups of 16 bins
  __shared__ unsigned int suffix[256];       // its suffix sums
  __shared__ unsigned int chosen[2];         // the bucket found, and the count still needed in it
  __shared__ int above[64];                  // the values strictly above the k-th (k <= 64)
  __shared__ unsigned int aboveCount;
  unsigned int tid = threadIdx.x;
  unsigned int prefix = 0;                   // the k-th key's digits found so far
  unsigned int known = 0;                    // the bits of prefix already decided
  unsigned int need = k;                     // values matching prefix that still belong to the k largest
  for (unsigned int d = 0; d < 4; d++) {
    unsigned int shift = 24 - 8 * d;
    bins[tid] = 0;
    if (tid == 0) aboveCount = 0;
    __syncthreads();
    for (unsigned int x = tid; x < size; x += BLOCK) {
      unsigned int u = key(pool[x]);
      if ((u & known) == prefix) atomicAdd(&bins[(u >> shift) & 255], 1u);
    }
    __syncthreads();
    // Suffix sums without a barrier a step: the 16 groups summed, then each thread adds the rest
    // of its bin's group and the groups above it.
    if (tid < 16) {
      unsigned int total = 0;
      for (unsigned int x = 0; x < 16; x++) total += bins[16 * tid + x];
      groups16[tid] = total;
    }
    __syncthreads();
    unsigned int group = tid / 16;
    unsigned int fromB = 0;
    for (unsigned int x = 0; x < 16; x++) fromB += 16 * group + x >= tid ? bins[16 * group + x] : 0;
    for (unsigned int g = 0; g < 16; g++) fromB += g > group ? groups16[g] : 0;
    suffix[tid] = fromB;
    __syncthreads();
    // The k-th key's digit is the one bucket where the count from the top first reaches need.
    unsigned int higher = tid < 255 ? suffix[min(tid + 1, 255u)] : 0;
    if (fromB >= need && higher < need) {
      chosen[0] = tid;
      chosen[1] = need - higher;
    }
    __syncthreads();
    prefix |= chosen[0] << shift;
    known |= 255u << shift;
    need = chosen[1];
  }
  // prefix is now the k-th key, and need copies of it complete the k largest.
  int kth = (int)(prefix ^ 0x80000000u);
  for (unsigned int x = tid; x < size; x += BLOCK) {
    int v = pool[x];
    if (v > kth) above[atomicAdd(&aboveCount, 1u)] = v;
  }
  __syncthreads();
  if (tid < k) pool[tid] = tid < k - need ? above[min(tid, 63u)] : kth;
  if (tid == 0) {
    *pooled = k;
    *floorValue = kth;
  }
  __syncthreads();
}

// One block's k largest of quads int4s, into output[blockIdx.x * k …], descending.
__device__ void topkRadixBlock(const int4 *input, unsigned int quads, int *output, unsigned int k) {
  __shared__ int pool[POOL];
  __shared__ unsigned int pooled;
  __shared__ int floorValue;                 // a value enters the pool only when it is above it
  unsigned int tid = threadIdx.x;
  if (tid == 0) {
    pooled = 0;
    floorValue = INT_MIN;
  }
  __syncthreads();
  int least = INT_MIN;                       // the floor, in a register
  for (unsigned int round = 0;; round++) {
    unsigned int base = (round * gridDim.x + blockIdx.x) * 2 * BLOCK;
    if (base >= quads) break;
    // Both int4 loads go out before either is used; past the end the index is clamped and the
    // values skipped.
    unsigned int x0 = base + tid, x1 = x0 + BLOCK;
    int4 q0 = input[min(x0, quads - 1)];
    int4 q1 = input[min(x1, quads - 1)];
    int v[8] = {q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w};
    // Which of the eight enter the pool, one bit each; then one atomic takes a run of pool words
    // for all of them (not one a value: the first round keeps every value).
    unsigned int enter = 0;
    for (unsigned int c = 0; c < 8; c++)
      if ((c < 4 ? x0 : x1) < quads && v[c] > least) enter |= 1u << c;
    if (enter != 0) {
      unsigned int slot = atomicAdd(&pooled, (unsigned int)__popc(enter));
      for (unsigned int c = 0; c < 8; c++)
        if (enter & (1u << c)) pool[slot++] = v[c];
    }
    __syncthreads();
    unsigned int size = pooled;              // after the barrier: one value for the whole block
    if (size > POOL - 8 * BLOCK) {           // a round adds at most 8 * BLOCK: cut before it could overflow
      keepKLargest(pool, &pooled, &floorValue, size, k);
      least = floorValue;
    }
  }
  __syncthreads();
  unsigned int size = pooled;
  if (size > k) keepKLargest(pool, &pooled, &floorValue, size, k);
  // Each kept value goes to its rank: the values above it, and equal values at a lower word, first.
  unsigned int kept = min(size, k);
  if (tid < kept) {
    int v = pool[tid];
    unsigned int rank = 0;
    for (unsigned int j = 0; j < kept; j++) {
      int w = pool[j];
      if (w > v || (w == v && j < tid)) rank++;
    }
    output[blockIdx.x * k + rank] = v;
  } else if (tid < k) {
    output[blockIdx.x * k + tid] = INT_MIN;
  }
}

template <int K>
__global__ void topkRadix(const int4 *input, unsigned int quads, int *output) {
  topkRadixBlock(input, quads, output, K);
}

__global__ void topkRadixAnyK(const int4 *input, unsigned int quads, int *output, unsigned int k) {
  topkRadixBlock(input, quads, output, k);
}

// The host: pass 1 over the input, pass 2 as one block over the lists. Both inputs are padded with
// INT_MIN to whole int4s: partial holds blocks * k values and INT_MIN up to the next multiple of 4.
void topK(const int4 *input, unsigned int quads, int *partial, int *result, int blocks, unsigned int k) {
  if (k == 20) {
    topkRadix<20><<<blocks, BLOCK>>>(input, quads, partial);
    topkRadix<20><<<1, BLOCK>>>((const int4 *)partial, (blocks * 20 + 3) / 4, result);
  } else {
    topkRadixAnyK<<<blocks, BLOCK>>>(input, quads, partial, k);
    topkRadixAnyK<<<1, BLOCK>>>((const int4 *)partial, (blocks * k + 3) / 4, result, k);
  }
}
