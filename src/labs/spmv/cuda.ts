/**
 * The SpMV kernels' CUDA, for the code pane (written for Warpscope): the twinned variants' `.cu`
 * files (translated and checked against the WGSL, `cudaTwins.ts`), and renderings of the others.
 */
import type { SpmvVariant } from './kernel.ts';
import CSR_SCALAR_CU from './cuda/csr-scalar.cu?raw';
import ELL_CU from './cuda/ell.cu?raw';
import CSR_VECTOR_CU from './cuda/csr-vector.cu?raw';
import COO_CU from './cuda/coo.cu?raw';
import HYBRID_CU from './cuda/hybrid.cu?raw';
import JDS_CU from './cuda/jds.cu?raw';
import CSR_ADAPTIVE_CU from './cuda/csr-adaptive.cu?raw';
import SELL_CU from './cuda/sell.cu?raw';

export const SPMV_CUDA: Readonly<Record<SpmvVariant, string>> = {
  'csr-scalar': CSR_SCALAR_CU,
  ell: ELL_CU,
  'csr-vector': CSR_VECTOR_CU,
  coo: COO_CU,
  hybrid: HYBRID_CU,
  jds: JDS_CU,
  'csr-merge': `// CUDA rendering of shaders/spmv/csr-merge.wgsl: merge-path SpMV (Merrill & Garland). The path
// merges the row ends rowPtr[1..rows] with the nonzero indices 0..nnz-1; each block takes TILE
// items of it, each thread ITEMS. addToY(y, i, v) is atomicAdd(&y[i], v) (coo.cu); y starts zeroed. The tile's ends
// are found here by two threads' binary searches (the WGSL with SUBGROUP_SEARCH off); the WGSL's
// default has one warp search both, each half-warp probing 16 rows a round.
#define ITEMS 7
#define NONE 0xffffffffu
// Row ends before diagonal diag of a path whose nonzeros are numbered from j0.
__device__ unsigned rowsBefore(unsigned diag, unsigned rows, unsigned nnz, const unsigned *rowEnd, unsigned j0) {
  unsigned lo = diag > nnz ? diag - nnz : 0, hi = min(diag, rows);
  while (lo < hi) {                      // largest i with rowEnd[i - 1] <= j0 + diag - i
    unsigned mid = (lo + hi) / 2;
    if (rowEnd[mid] <= j0 + diag - mid - 1) lo = mid + 1; else hi = mid;
  }
  return lo;
}
template <int BLOCK>
__global__ void spmvCsrMerge(unsigned rows, unsigned nnz, unsigned tiles, const unsigned *rowPtr,
                             const unsigned *colIndex, const float *values, const float *x, float *y) {
  constexpr unsigned TILE = BLOCK * ITEMS;
  __shared__ unsigned bounds[4], tile[TILE], firstEnd[BLOCK];
  __shared__ float head[BLOCK], tail[BLOCK];
  unsigned tid = threadIdx.x;
  for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
    if (tid < 2) {                       // 1. the tile's two ends on the path
      unsigned diag = min((t + tid) * TILE, rows + nnz), r = rowsBefore(diag, rows, nnz, rowPtr + 1, 0);
      bounds[tid] = r; bounds[2 + tid] = diag - r;
    }
    __syncthreads();
    unsigned i0 = bounds[0], j0 = bounds[2], nRows = bounds[1] - i0, nNz = bounds[3] - j0;
    for (unsigned k = tid; k < nRows; k += BLOCK) tile[k] = rowPtr[i0 + k + 1];
    unsigned c[ITEMS]; float v[ITEMS];    // 2. coalesced loads, then ITEMS gathers in flight
    #pragma unroll
    for (int k = 0; k < ITEMS; k++) if (tid + k * BLOCK < nNz) { c[k] = colIndex[j0 + tid + k * BLOCK]; v[k] = values[j0 + tid + k * BLOCK]; }
    #pragma unroll
    for (int k = 0; k < ITEMS; k++) if (tid + k * BLOCK < nNz) tile[nRows + tid + k * BLOCK] = __float_as_uint(v[k] * x[c[k]]);
    __syncthreads();
    unsigned count = nRows + nNz, start = min(tid * ITEMS, count), end = min(start + ITEMS, count);
    unsigned r = rowsBefore(start, nRows, nNz, tile, j0), j = start - r;
    float sum = 0.0f, headSum = 0.0f; unsigned first = NONE;
    for (unsigned item = start; item < end; item++) {   // 3. the walk
      if (r < nRows && (j >= nNz || tile[r] <= j0 + j)) {
        if (first == NONE) { first = r; headSum = sum; } else y[i0 + r] = sum;
        sum = 0.0f; r++;
      } else sum += __uint_as_float(tile[nRows + j++]);
    }
    firstEnd[tid] = first; head[tid] = headSum; tail[tid] = sum;
    __syncthreads();
    if (first != NONE) {                 // 4. the first row this thread closes
      unsigned b = tid; while (b > 0 && firstEnd[b - 1] == NONE) b--;
      float rowSum = b > 0 ? tail[b - 1] : 0.0f;
      for (unsigned s = b; s < tid; s++) rowSum += tail[s];
      rowSum += headSum;
      if (b == 0 && rowPtr[i0] < j0) addToY(y, i0, rowSum); else y[i0 + first] = rowSum;
    }
    unsigned i1 = i0 + nRows;            // the row left open at the tile's end
    if (count > 0 && tid == (count - 1) / ITEMS && i1 < rows && rowPtr[i1] < j0 + nNz) {
      unsigned b = tid; if (first == NONE) while (b > 0 && firstEnd[b - 1] == NONE) b--;
      float rowSum = first == NONE && b > 0 ? tail[b - 1] : 0.0f;
      for (unsigned s = b; s <= tid; s++) rowSum += tail[s];
      addToY(y, i1, rowSum);
    }
    __syncthreads();
  }
}`,
  'csr-adaptive': CSR_ADAPTIVE_CU,
  sell: SELL_CU,
};
