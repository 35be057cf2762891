// Twin of shaders/scan/summed-area.wgsl: a summed-area table of a row-major width x height
// matrix in two launches. scanRows: one block per row, the row scanned in chunks of blockDim.x
// (Hillis–Steele, double-buffered in shared memory), each chunk starting from the running total
// of the chunks before it. scanColumns: one thread per column walks down it; at each step the
// threads of a warp read 32 consecutive words of one row, so the walk is coalesced.
template <typename T, bool EXCLUSIVE>
__global__ void scanRows(const T *input, T *output, unsigned int width, unsigned int height) {
  extern __shared__ T buf[];                 // 2 * blockDim.x elements, sized by the launch
  unsigned int lid = threadIdx.x, W = blockDim.x, row = blockIdx.x;
  T running = T(0);                          // the sum of this row's chunks already done
  for (unsigned int start = 0; start < width; start += W) {
    unsigned int x = start + lid;
    buf[lid] = x < width ? input[row * width + x] : T(0);
    unsigned int cur = 0;
    for (unsigned int offset = 1; offset < W; offset *= 2) {
      __syncthreads();
      unsigned int nxt = W - cur;            // ping-pong between the two halves
      if (lid >= offset) buf[nxt + lid] = buf[cur + lid - offset] + buf[cur + lid];
      else buf[nxt + lid] = buf[cur + lid];
      cur = nxt;
    }
    __syncthreads();
    if (x < width) output[row * width + x] = EXCLUSIVE ? (lid > 0 ? running + buf[cur + lid - 1] : running) : running + buf[cur + lid];
    running += buf[cur + W - 1];
    __syncthreads();                         // everyone has read buf before the next chunk
  }
}

template <typename T, bool EXCLUSIVE>
__global__ void scanColumns(const T *input, T *output, unsigned int width, unsigned int height) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  T running = T(0);
  for (unsigned int y = 0; y < height; ++y) {
    T v = input[y * width + x];
    if (EXCLUSIVE) {
      output[y * width + x] = running;
      running += v;
    } else {
      running += v;
      output[y * width + x] = running;
    }
  }
}

// The host: rows into a temporary matrix, then its columns into the result; one instance per
// element type and kind of scan.
void summedArea(const unsigned int *in, unsigned int *rows, unsigned int *out, unsigned int width, unsigned int height, unsigned int block, bool exclusive) {
  unsigned int shared = 2 * block * sizeof(unsigned int), columnBlocks = (width + block - 1) / block;
  if (exclusive) {
    scanRows<unsigned int, true><<<height, block, shared>>>(in, rows, width, height);
    scanColumns<unsigned int, true><<<columnBlocks, block>>>(rows, out, width, height);
  } else {
    scanRows<unsigned int, false><<<height, block, shared>>>(in, rows, width, height);
    scanColumns<unsigned int, false><<<columnBlocks, block>>>(rows, out, width, height);
  }
}
void summedArea(const float *in, float *rows, float *out, unsigned int width, unsigned int height, unsigned int block, bool exclusive) {
  unsigned int shared = 2 * block * sizeof(float), columnBlocks = (width + block - 1) / block;
  if (exclusive) {
    scanRows<float, true><<<height, block, shared>>>(in, rows, width, height);
    scanColumns<float, true><<<columnBlocks, block>>>(rows, out, width, height);
  } else {
    scanRows<float, false><<<height, block, shared>>>(in, rows, width, height);
    scanColumns<float, false><<<columnBlocks, block>>>(rows, out, width, height);
  }
}
