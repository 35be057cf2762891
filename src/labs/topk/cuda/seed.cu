// Twin of shaders/topk/seed.wgsl: the course's top_k (seed 002). Every thread keeps a list of the
// k largest values it has seen, sorted descending (insert_value); the block then merges the lists
// pairwise in a tree, each surviving thread inserting its partner's k values into its own, and
// writes its k values. A second launch over the blocks' lists, as one block, gives the answer.
// As in the WGSL, each list lives in a column of shared memory from the start (slot s of thread
// t at s * blockDim.x + t) rather than in registers, so the replay sees every insert. With
// distinct, a value already in the list is dropped, as the seed's insert_value does (the k
// largest distinct values); without it duplicates stay (the usual top-k).
//
// k and distinct reach the kernel in two ways. topkSeedAnyK takes them as arguments, as the
// course's kernel does: any k runs, but the compiler sees only variables. topkSeed<K, DISTINCT>
// has them as template arguments, as the WGSL has K and DISTINCT as pipeline constants: the
// compiler knows every loop's trip count and drops the distinct test where it is off. The host
// launches an instance for the k it has one for (20, the lab's default) and the general kernel
// for any other; both run the same device code, topkBlock.
#include <climits>

#include "insert_value.cuh"

// One block's top k: each thread's list, then the tree. lists: k * blockDim.x ints of shared memory.
__device__ void topkBlock(int *lists, const int *input, int n, int *output, int k, bool distinct) {
  int tid = threadIdx.x, W = blockDim.x;
  for (int s = 0; s < k; s++) lists[s * W + tid] = INT_MIN;
  for (int x = blockIdx.x * W + tid; x < n; x += gridDim.x * W) insert_value(lists, tid, k, distinct, input[x]);
  __syncthreads();
  for (int stride = W / 2; stride > 0; stride /= 2) {   // the tree: the lower half takes the upper's
    if (tid < stride)
      for (int s = 0; s < k; s++) insert_value(lists, tid, k, distinct, lists[s * W + tid + stride]);
    __syncthreads();
  }
  if (tid < k) output[blockIdx.x * k + tid] = lists[tid * W];
}

template <int K, bool DISTINCT>
__global__ void topkSeed(const int *input, int n, int *output) {
  extern __shared__ int lists[];             // K * blockDim.x, sized by the launch
  topkBlock(lists, input, n, output, K, DISTINCT);
}

__global__ void topkSeedAnyK(const int *input, int n, int *output, int k, bool distinct) {
  extern __shared__ int lists[];             // k * blockDim.x, sized by the launch
  topkBlock(lists, input, n, output, k, distinct);
}

// The host: pass 1 over the input, pass 2 as one block over the blocks' lists. block: the most
// threads (at most 256) whose lists fit in 16 KiB of shared memory, 128 for k = 20.
void topK(const int *input, int n, int *partial, int *result, int k, bool distinct, int blocks, int block) {
  size_t shared = k * block * sizeof(int);
  if (k == 20 && distinct) {
    topkSeed<20, true><<<blocks, block, shared>>>(input, n, partial);
    topkSeed<20, true><<<1, block, shared>>>(partial, blocks * k, result);
  } else if (k == 20) {
    topkSeed<20, false><<<blocks, block, shared>>>(input, n, partial);
    topkSeed<20, false><<<1, block, shared>>>(partial, blocks * k, result);
  } else {
    topkSeedAnyK<<<blocks, block, shared>>>(input, n, partial, k, distinct);
    topkSeedAnyK<<<1, block, shared>>>(partial, blocks * k, result, k, distinct);
  }
}
