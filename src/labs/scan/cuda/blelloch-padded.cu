// Twin of shaders/scan/blelloch-padded.wgsl: Blelloch's scan (blelloch.cu) with one spare word
// after every 32 in shared memory, so the lanes of a warp that the tree's strides send to one
// bank land on 32 different banks (GPU Gems 3, ch. 39: CONFLICT_FREE_OFFSET).
#define LOG_NUM_BANKS 5
__device__ unsigned int pad(unsigned int i) { return i + (i >> LOG_NUM_BANKS); }

template <typename T, bool EXCLUSIVE>
__global__ void scanBlellochPadded(const T *input, T *output, T *tileSums, unsigned int n) {
  extern __shared__ T temp[];                // 2W + 2W / 32 elements, sized by the launch
  unsigned int lid = threadIdx.x, W = blockDim.x, size = 2 * W;
  unsigned int base = blockIdx.x * size, a = lid, b = lid + W;
  temp[pad(a)] = base + a < n ? input[base + a] : T(0);
  temp[pad(b)] = base + b < n ? input[base + b] : T(0);
  for (unsigned int stride = 1; stride < size; stride *= 2) {   // up-sweep
    __syncthreads();
    unsigned int index = 2 * stride * (lid + 1) - 1;
    if (index < size) temp[pad(index)] = temp[pad(index - stride)] + temp[pad(index)];
  }
  __syncthreads();
  T total = T(0);
  if (lid == 0) {                            // clear the root, keeping the tile's total
    total = temp[pad(size - 1)];
    tileSums[blockIdx.x] = total;
    temp[pad(size - 1)] = T(0);
  }
  for (unsigned int stride = W; stride > 0; stride /= 2) {      // down-sweep
    __syncthreads();
    unsigned int index = 2 * stride * (lid + 1) - 1;
    if (index < size) {
      T left = temp[pad(index - stride)];
      temp[pad(index - stride)] = temp[pad(index)];
      temp[pad(index)] = left + temp[pad(index)];
    }
  }
  __syncthreads();
  if (EXCLUSIVE) {
    if (base + a < n) output[base + a] = temp[pad(a)];
    if (base + b < n) output[base + b] = temp[pad(b)];
  } else {                                   // inclusive[p] = exclusive[p + 1], the last the total
    if (a > 0 && base + a - 1 < n) output[base + a - 1] = temp[pad(a)];
    if (base + b - 1 < n) output[base + b - 1] = temp[pad(b)];
    if (lid == 0 && base + size - 1 < n) output[base + size - 1] = total;
  }
}

// The host launches one instance per element type and kind of scan, one block per tile of
// 2 * block elements, with the padded tile's shared memory.
void scanTiles(const unsigned int *in, unsigned int *out, unsigned int *sums, unsigned int n, unsigned int block, bool exclusive) {
  unsigned int tiles = (n + 2 * block - 1) / (2 * block), shared = (2 * block + 2 * block / 32) * sizeof(unsigned int);
  if (exclusive) scanBlellochPadded<unsigned int, true><<<tiles, block, shared>>>(in, out, sums, n);
  else scanBlellochPadded<unsigned int, false><<<tiles, block, shared>>>(in, out, sums, n);
}
void scanTiles(const float *in, float *out, float *sums, unsigned int n, unsigned int block, bool exclusive) {
  unsigned int tiles = (n + 2 * block - 1) / (2 * block), shared = (2 * block + 2 * block / 32) * sizeof(float);
  if (exclusive) scanBlellochPadded<float, true><<<tiles, block, shared>>>(in, out, sums, n);
  else scanBlellochPadded<float, false><<<tiles, block, shared>>>(in, out, sums, n);
}
