/**
 * The merge kernels' CUDA, for the code pane. The basic, tiled and fast merges are real `.cu` files,
 * translated and checked against the WGSL (`cudaTwins.ts`); the CUDA tab runs them in place of
 * the WGSL and its replay follows their lines. The stream and wide merges' are renderings written
 * for reading, not compiled here.
 */
import BASIC_CU from './cuda/basic.cu?raw';
import TILED_CU from './cuda/tiled.cu?raw';
import FAST_CU from './cuda/fast.cu?raw';
import CO_RANK_CUH from './cuda/co_rank.cuh?raw';
import MERGE_SEQUENTIAL_CUH from './cuda/merge_sequential.cuh?raw';

/** The merges' local headers: co_rank and merge_sequential, written once for the three `.cu` files. */
const HEADERS: Readonly<Record<string, string>> = { 'co_rank.cuh': CO_RANK_CUH, 'merge_sequential.cuh': MERGE_SEQUENTIAL_CUH };

/**
 * A merge `.cu` file as the code pane shows it and the CUDA tab compiles it: each local header
 * written out in place of its `#include` line, so the file reads, pastes and runs whole (nvcc,
 * given the folder, sees the same code).
 */
function whole(source: string): string {
  return source.replace(/^#include "([\w.]+\.cuh)"\n/gm, (line, name: string) => HEADERS[name] ?? line);
}

export const BASIC_CUDA = whole(BASIC_CU);
export const TILED_CUDA = whole(TILED_CU);
export const FAST_CUDA = whole(FAST_CU);

/** co_rank (a device template), for the renderings that call it. */
const CO_RANK = CO_RANK_CUH.trimEnd();


export const STREAM_CUDA = `// CUDA rendering of shaders/merge/stream.wgsl (written for Warpscope). Pass 1 is mergePartition
// of the fast variant, with TILE = BLOCK * ITEMS = 128 * 11.
${CO_RANK}

// Tile g: its first output k0, first word of A a0, share of A la, and length.
struct Tile { int k0, a0, la, count; };
__device__ Tile tileOf(int m, int n, const int *splits, int g) {
  int k0 = min(g * TILE, m + n), a0 = splits[g];
  return { k0, a0, splits[g + 1] - a0, min(k0 + TILE, m + n) - k0 };
}
// Word x of tile t: A's share, then B's.
__device__ T tileWord(const T *A, const T *B, Tile t, int x) {
  if (x < t.la) return A[t.a0 + x];
  if (x < t.count) return B[t.k0 - t.a0 + x - t.la];
  return T();
}

// Pass 2: each block walks over tiles blockIdx.x, + gridDim.x, …; the next tile's words are
// loaded into registers while the current one is merged.
__global__ void mergeStream(const T *A, int m, const T *B, int n, T *C, const int *splits, int tiles) {
  __shared__ T tile[TILE];
  __shared__ int starts[BLOCK + 1];
  T next[ITEMS], merged[ITEMS];                  // ITEMS = 11: odd, so a warp's words hit 32 banks
  Tile t = {};
  if (blockIdx.x < tiles) {
    t = tileOf(m, n, splits, blockIdx.x);
    #pragma unroll
    for (int r = 0; r < ITEMS; r++) next[r] = tileWord(A, B, t, threadIdx.x + r * BLOCK);
  }
  for (int g = blockIdx.x; g < tiles; g += gridDim.x) {
    int k0 = t.k0, la = t.la, count = t.count, lb = count - la;
    #pragma unroll
    for (int r = 0; r < ITEMS; r++) { int x = threadIdx.x + r * BLOCK; if (x < count) tile[x] = next[r]; }
    __syncthreads();
    if (g + gridDim.x < tiles) {                 // in flight while this tile is searched and merged
      t = tileOf(m, n, splits, g + gridDim.x);
      #pragma unroll
      for (int r = 0; r < ITEMS; r++) next[r] = tileWord(A, B, t, threadIdx.x + r * BLOCK);
    }
    int t0 = min(threadIdx.x * ITEMS, count), t1 = min(t0 + ITEMS, count);
    int i0 = co_rank(t0, tile, la, tile + la, lb);
    starts[threadIdx.x] = i0;
    if (threadIdx.x == BLOCK - 1) starts[BLOCK] = la;
    __syncthreads();
    int i1 = starts[threadIdx.x + 1], i = i0, j = t0 - i0, j1 = t1 - i1;
    #pragma unroll
    for (int r = 0; r < ITEMS; r++) {            // branch-free serial merge into registers
      T av = tile[min(i, TILE - 1)], bv = tile[min(la + j, TILE - 1)];
      bool takeA = j >= j1 || (i < i1 && av <= bv);
      merged[r] = takeA ? av : bv;
      i += takeA; j += !takeA;
    }
    __syncthreads();
    #pragma unroll
    for (int r = 0; r < ITEMS; r++) if (t0 + r < t1) tile[t0 + r] = merged[r];
    __syncthreads();
    #pragma unroll
    for (int r = 0; r < ITEMS; r++) { int x = threadIdx.x + r * BLOCK; if (x < count) C[k0 + x] = tile[x]; }
    __syncthreads();
  }
}
// Launch: mergePartition<<<ceil((tiles + 1) / 64.0), 64>>>(…); mergeStream<<<min(tiles, 2048), 128>>>(…, tiles);`;

export const WIDE_CUDA = `// CUDA rendering of shaders/merge/wide.wgsl (written for Warpscope). Pass 1 is mergePartition
// of the fast variant (one binary search per tile boundary), with TILE = BLOCK * ITEMS = 256 * 15.
// A 33-way search per boundary (a block of 32 threads, 5 rounds of loads for 2^25) was tried in its
// place; on the H100 at 2^26 the whole merge was slower with it (this twin 0.3260 ms, against
// 0.2353 ms with the binary search), and 256 * 15 beat 128 * 15 there (70.9 % of copy, 59.9 %).
${CO_RANK}

// Pass 2: one tile per block; loads into registers first, one search per thread, a fixed-count
// branch-free merge bounded by the tile's own ends, and a coalesced store through the tile.
__global__ void mergeWide(const T *A, int m, const T *B, int n, T *C, const int *splits, int tiles) {
  __shared__ T tile[TILE];                       // the only shared memory: 15 KB of 16
  int g = blockIdx.x + blockIdx.y * gridDim.x;
  if (g >= tiles) return;
  int k0 = min(g * TILE, m + n), count = min(k0 + TILE, m + n) - k0;
  int a0 = splits[g], la = splits[g + 1] - a0, b0 = k0 - a0;
  T v[ITEMS];                                    // ITEMS = 15: odd, so a warp's words hit 32 banks
  #pragma unroll
  for (int r = 0; r < ITEMS; r++) {              // ITEMS independent loads, all in flight
    int x = threadIdx.x + r * BLOCK;
    if (x < la) v[r] = A[a0 + x];
    else if (x < count) v[r] = B[b0 + x - la];
  }
  #pragma unroll
  for (int r = 0; r < ITEMS; r++) { int x = threadIdx.x + r * BLOCK; if (x < count) tile[x] = v[r]; }
  __syncthreads();
  int t0 = min((int)threadIdx.x * ITEMS, count);
  int i = co_rank(t0, tile, la, tile + la, count - la), j = la + t0 - i;
  T av = tile[min(i, TILE - 1)], bv = tile[min(j, TILE - 1)];
  #pragma unroll
  for (int r = 0; r < ITEMS; r++) {              // the tile's ends bound every step
    bool takeA = j >= count || (i < la && av <= bv);
    v[r] = takeA ? av : bv;
    i += takeA; j += !takeA;
    T next = tile[min(takeA ? i : j, TILE - 1)]; // one shared load per output
    av = takeA ? next : av; bv = takeA ? bv : next;
  }
  __syncthreads();
  #pragma unroll
  for (int r = 0; r < ITEMS; r++) if (t0 + r < count) tile[t0 + r] = v[r];
  __syncthreads();
  #pragma unroll
  for (int r = 0; r < ITEMS; r++) { int x = threadIdx.x + r * BLOCK; if (x < count) C[k0 + x] = tile[x]; }
}
// Launch: mergePartition<<<ceil((tiles + 1) / 64.0), 64>>>(…); mergeWide<<<tiles, 256>>>(…, tiles);`;
