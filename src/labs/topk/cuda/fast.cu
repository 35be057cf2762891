// Twin of shaders/topk/fast.wgsl: the course's scheme, made fast. Each thread reads int4s (two in
// flight: quads x and x + stride), keeps the smallest value of its list in a register and only
// inserts values above it; the block then merges lists pairwise by a linear merge of two sorted
// lists (each step keeps the larger head) instead of k inserts. Lists live in columns of shared
// memory (slot s of thread t at s * blockDim.x + t). The input is padded with INT_MIN to whole
// int4s. As in seed.cu, k and distinct are template arguments where the host has an instance for
// them (k = 20), arguments otherwise; both kernels run the same device code, topkFastBlock.
// insert_value is seed.cu's (its test against the list's smallest value repeats the one here).
#include <climits>

#include "insert_value.cuh"

__device__ void topkFastBlock(int *lists, const int4 *input, int quads, int *output, int k, bool distinct) {
  int tid = threadIdx.x, W = blockDim.x;
  for (int s = 0; s < k; s++) lists[s * W + tid] = INT_MIN;
  int least = INT_MIN;                       // the list's smallest value, in a register
  int stride = gridDim.x * W;
  for (int x = blockIdx.x * W + tid; x < quads; x += 2 * stride) {
    int x1 = x + stride;
    int4 q0 = input[x], q1 = input[min(x1, quads - 1)];   // both loads in flight at once
    int pairs = x1 < quads ? 2 : 1;
    for (int h = 0; h < pairs; h++) {
      int4 q = h == 1 ? q1 : q0;
      int v[4] = {q.x, q.y, q.z, q.w};
      for (int c = 0; c < 4; c++) {
        if (v[c] > least) {
          insert_value(lists, tid, k, distinct, v[c]);
          least = lists[(k - 1) * W + tid];
        }
      }
    }
  }
  __syncthreads();
  int mine[64];                              // k ≤ 64
  for (int gap = W / 2; gap > 0; gap /= 2) {   // the tree: the lower half merges the upper's list
    if (tid < gap) {
      for (int s = 0; s < k; s++) mine[s] = lists[s * W + tid];
      int i = 0, j = 0;
      for (int s = 0; s < k; s++) {
        int a = i < k ? mine[min(i, k - 1)] : INT_MIN;
        int b = j < k ? lists[min(j, k - 1) * W + tid + gap] : INT_MIN;
        if (a >= b) {
          lists[s * W + tid] = a;
          i++;
          if (distinct && a == b) j++;
        } else {
          lists[s * W + tid] = b;
          j++;
        }
      }
    }
    __syncthreads();
  }
  if (tid < k) output[blockIdx.x * k + tid] = lists[tid * W];
}

__global__ void topkFastAnyK(const int4 *input, int quads, int *output, int k, bool distinct) {
  extern __shared__ int lists[];             // k * blockDim.x, sized by the launch
  topkFastBlock(lists, input, quads, output, k, distinct);
}

// The same with k and distinct known to the compiler.
template <int K, bool DISTINCT>
__global__ void topkFast(const int4 *input, int quads, int *output) {
  extern __shared__ int lists[];             // K * blockDim.x
  topkFastBlock(lists, input, quads, output, K, DISTINCT);
}

// The host: pass 1 over the input's int4s, pass 2 as one block over the blocks' lists (padded
// with INT_MIN to whole int4s). block: 128 for k = 20 (16 KiB of lists).
void topK(const int4 *input, int quads, int *partial, int *result, int k, bool distinct, int blocks, int block) {
  size_t shared = k * block * sizeof(int);
  for (int pass = 1; pass <= 2; pass++) {
    const int4 *in = pass == 1 ? input : (const int4 *)partial;
    int n = pass == 1 ? quads : (blocks * k + 3) / 4, grid = pass == 1 ? blocks : 1;
    int *out = pass == 1 ? partial : result;
    if (k == 20 && distinct) topkFast<20, true><<<grid, block, shared>>>(in, n, out);
    else if (k == 20) topkFast<20, false><<<grid, block, shared>>>(in, n, out);
    else topkFastAnyK<<<grid, block, shared>>>(in, n, out, k, distinct);
  }
}
