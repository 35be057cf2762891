// Twin of shaders/scan/hillis-steele.wgsl: Warpscope translates this kernel, and the tests require
// the same output and tile sums as the WGSL. Pass 1 of the multi-block scan: each block scans its
// tile of blockDim.x elements (Hillis–Steele, double-buffered in shared memory) and writes the
// tile's total; pass 2 scans the totals and pass 3 adds them back.
template <typename T, bool EXCLUSIVE>
__global__ void scanHillisSteele(const T *input, T *output, T *tileSums, unsigned int n) {
  extern __shared__ T buf[];                 // 2 * blockDim.x elements, sized by the launch
  unsigned int lid = threadIdx.x, W = blockDim.x;
  unsigned int i = blockIdx.x * W + lid;
  buf[lid] = i < n ? input[i] : T(0);        // past the end: the identity, the total unchanged
  unsigned int cur = 0;
  for (unsigned int offset = 1; offset < W; offset *= 2) {
    __syncthreads();                         // the previous step's writes are visible
    unsigned int nxt = W - cur;              // ping-pong between the two halves
    if (lid >= offset) buf[nxt + lid] = buf[cur + lid - offset] + buf[cur + lid];
    else buf[nxt + lid] = buf[cur + lid];    // a copy, not an addition
    cur = nxt;
  }
  __syncthreads();                           // the exclusive result reads the neighbour's sum
  if (i < n) output[i] = EXCLUSIVE ? (lid > 0 ? buf[cur + lid - 1] : T(0)) : buf[cur + lid];
  if (lid == W - 1) tileSums[blockIdx.x] = buf[cur + lid];
}

// The host launches one instance per element type and kind of scan, one block per tile.
void scanTiles(const unsigned int *in, unsigned int *out, unsigned int *sums, unsigned int n, unsigned int block, bool exclusive) {
  unsigned int tiles = (n + block - 1) / block;
  if (exclusive) scanHillisSteele<unsigned int, true><<<tiles, block, 2 * block * sizeof(unsigned int)>>>(in, out, sums, n);
  else scanHillisSteele<unsigned int, false><<<tiles, block, 2 * block * sizeof(unsigned int)>>>(in, out, sums, n);
}
void scanTiles(const float *in, float *out, float *sums, unsigned int n, unsigned int block, bool exclusive) {
  unsigned int tiles = (n + block - 1) / block;
  if (exclusive) scanHillisSteele<float, true><<<tiles, block, 2 * block * sizeof(float)>>>(in, out, sums, n);
  else scanHillisSteele<float, false><<<tiles, block, 2 * block * sizeof(float)>>>(in, out, sums, n);
}
