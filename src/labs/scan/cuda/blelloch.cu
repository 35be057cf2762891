// Twin of shaders/scan/blelloch.wgsl: Warpscope translates this kernel, and the tests require the
// same output and tile sums as the WGSL. Blelloch's work-efficient scan of one tile of
// 2 * blockDim.x elements in shared memory, two elements per thread: an up-sweep (a reduction
// tree built in place), the root cleared, a down-sweep that hands each node's value to its left
// child. Each block writes its tile's total; pass 2 scans the totals and pass 3 adds them back.
template <typename T, bool EXCLUSIVE>
__global__ void scanBlelloch(const T *input, T *output, T *tileSums, unsigned int n) {
  extern __shared__ T temp[];                // 2 * blockDim.x elements, sized by the launch
  unsigned int lid = threadIdx.x, W = blockDim.x, size = 2 * W;
  unsigned int base = blockIdx.x * size, a = lid, b = lid + W;
  temp[a] = base + a < n ? input[base + a] : T(0);   // a warp reads 32 consecutive words
  temp[b] = base + b < n ? input[base + b] : T(0);
  for (unsigned int stride = 1; stride < size; stride *= 2) {   // up-sweep
    __syncthreads();
    unsigned int index = 2 * stride * (lid + 1) - 1;
    if (index < size) temp[index] = temp[index - stride] + temp[index];
  }
  __syncthreads();
  T total = T(0);
  if (lid == 0) {                            // clear the root, keeping the tile's total
    total = temp[size - 1];
    tileSums[blockIdx.x] = total;
    temp[size - 1] = T(0);
  }
  for (unsigned int stride = W; stride > 0; stride /= 2) {      // down-sweep
    __syncthreads();
    unsigned int index = 2 * stride * (lid + 1) - 1;
    if (index < size) {
      T left = temp[index - stride];
      temp[index - stride] = temp[index];    // the left child takes the parent's value
      temp[index] = left + temp[index];      // the right child: parent + the left's old value
    }
  }
  __syncthreads();
  if (EXCLUSIVE) {
    if (base + a < n) output[base + a] = temp[a];
    if (base + b < n) output[base + b] = temp[b];
  } else {                                   // inclusive[p] = exclusive[p + 1], the last the total
    if (a > 0 && base + a - 1 < n) output[base + a - 1] = temp[a];
    if (base + b - 1 < n) output[base + b - 1] = temp[b];
    if (lid == 0 && base + size - 1 < n) output[base + size - 1] = total;
  }
}

// The host launches one instance per element type and kind of scan, one block per tile of
// 2 * block elements.
void scanTiles(const unsigned int *in, unsigned int *out, unsigned int *sums, unsigned int n, unsigned int block, bool exclusive) {
  unsigned int tiles = (n + 2 * block - 1) / (2 * block);
  if (exclusive) scanBlelloch<unsigned int, true><<<tiles, block, 2 * block * sizeof(unsigned int)>>>(in, out, sums, n);
  else scanBlelloch<unsigned int, false><<<tiles, block, 2 * block * sizeof(unsigned int)>>>(in, out, sums, n);
}
void scanTiles(const float *in, float *out, float *sums, unsigned int n, unsigned int block, bool exclusive) {
  unsigned int tiles = (n + 2 * block - 1) / (2 * block);
  if (exclusive) scanBlelloch<float, true><<<tiles, block, 2 * block * sizeof(float)>>>(in, out, sums, n);
  else scanBlelloch<float, false><<<tiles, block, 2 * block * sizeof(float)>>>(in, out, sums, n);
}
