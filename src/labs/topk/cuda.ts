/** Our CUDA renderings of the top-k kernels, for the code pane (written for Warpscope). */

const INSERT = `// The seed's insert_value on invocation me's column of lists (descending); DISTINCT drops repeats.
__device__ void insert_value(int *lists, int me, int v) {
  if (DISTINCT) for (int s = 0; s < K; s++) if (lists[s * BLOCK + me] == v) return;
  if (v <= lists[(K - 1) * BLOCK + me]) return;
  int s = K - 1;
  while (s > 0 && v > lists[(s - 1) * BLOCK + me]) { lists[s * BLOCK + me] = lists[(s - 1) * BLOCK + me]; s--; }
  lists[s * BLOCK + me] = v;
}`;

export const SEED_CUDA = `// CUDA rendering of shaders/topk/seed.wgsl (written for Warpscope).
${INSERT}

__global__ void topkSeed(const int *input, int n, int *output) {
  __shared__ int lists[K * BLOCK];          // slot s of thread t at s * BLOCK + t
  int tid = threadIdx.x;
  for (int s = 0; s < K; s++) lists[s * BLOCK + tid] = INT_MIN;
  for (int x = blockIdx.x * BLOCK + tid; x < n; x += gridDim.x * BLOCK) insert_value(lists, tid, input[x]);
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      for (int s = 0; s < K; s++) insert_value(lists, tid, lists[s * BLOCK + tid + stride]);
    __syncthreads();
  }
  if (tid < K) output[blockIdx.x * K + tid] = lists[tid * BLOCK];
}
// Launch: topkSeed<<<groups, BLOCK>>>(input, n, partial); topkSeed<<<1, BLOCK>>>(partial, groups * K, result);
// BLOCK: the most threads (≤ 256) whose K-lists fit in 16 KiB, e.g. 128 for K = 20.`;

export const FAST_CUDA = `// CUDA rendering of shaders/topk/fast.wgsl (written for Warpscope).
__device__ void insert_above_floor(int *lists, int me, int v) {
  if (DISTINCT) for (int s = 0; s < K; s++) if (lists[s * BLOCK + me] == v) return;
  int s = K - 1;
  while (s > 0 && v > lists[(s - 1) * BLOCK + me]) { lists[s * BLOCK + me] = lists[(s - 1) * BLOCK + me]; s--; }
  lists[s * BLOCK + me] = v;
}

__global__ void topkFast(const int4 *input, int quads, int *output) {
  __shared__ int lists[K * BLOCK];
  int tid = threadIdx.x;
  for (int s = 0; s < K; s++) lists[s * BLOCK + tid] = INT_MIN;
  int least = INT_MIN;                        // the list's smallest value, in a register
  int stride = gridDim.x * BLOCK;
  for (int x = blockIdx.x * BLOCK + tid; x < quads; x += 2 * stride) {
    int x1 = x + stride;
    int4 q0 = input[x], q1 = input[min(x1, quads - 1)];     // both loads in flight at once
    int v[8] = {q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w};
    for (int c = 0; c < (x1 < quads ? 8 : 4); c++)
      if (v[c] > least) { insert_above_floor(lists, tid, v[c]); least = lists[(K - 1) * BLOCK + tid]; }
  }
  __syncthreads();
  int mine[K];
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (tid < stride) {
      for (int s = 0; s < K; s++) mine[s] = lists[s * BLOCK + tid];
      int i = 0, j = 0;                       // linear merge keeping the K largest
      for (int s = 0; s < K; s++) {
        int x = i < K ? mine[i] : INT_MIN, y = j < K ? lists[j * BLOCK + tid + stride] : INT_MIN;
        if (x >= y) { lists[s * BLOCK + tid] = x; i++; if (DISTINCT && x == y) j++; }
        else { lists[s * BLOCK + tid] = y; j++; }
      }
    }
    __syncthreads();
  }
  if (tid < K) output[blockIdx.x * K + tid] = lists[tid * BLOCK];
}
// Launch: topkFast<<<groups, BLOCK>>>(input, n / 4, partial); topkFast<<<1, BLOCK>>>(partial, groups * K / 4, result);
// The input is padded with INT_MIN to whole int4s.`;
