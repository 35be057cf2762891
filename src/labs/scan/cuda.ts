/**
 * The scan kernels' CUDA, for the code pane. Hillis–Steele, Blelloch (plain and padded), the warp
 * shuffle scan, the single pass and the summed-area table are real `.cu` files, translated and
 * checked against the WGSL (`cudaTwins.ts`); the CUDA tab runs them in place of the WGSL and its
 * replay follows their lines. The vec4 single passes and pass 3 are renderings of what each WGSL
 * file would look like to someone who learned on CUDA, written for reading, not compiled here. Names follow the WGSL so a
 * line in one finds its twin in the other.
 */
import HILLIS_STEELE_CU from './cuda/hillis-steele.cu?raw';
import BLELLOCH_CU from './cuda/blelloch.cu?raw';
import BLELLOCH_PADDED_CU from './cuda/blelloch-padded.cu?raw';
import SUBGROUP_CU from './cuda/subgroup.cu?raw';
import SUMMED_AREA_CU from './cuda/summed-area.cu?raw';
import SINGLE_PASS_CU from './cuda/single-pass.cu?raw';

/** The twinned variants' CUDA: real `.cu` files, translated and checked against the WGSL (`cudaTwins.ts`). */
export const HILLIS_STEELE_CUDA = HILLIS_STEELE_CU;
export const BLELLOCH_CUDA = BLELLOCH_CU;
export const BLELLOCH_PADDED_CUDA = BLELLOCH_PADDED_CU;
export const SUBGROUP_CUDA = SUBGROUP_CU;
export const SUMMED_AREA_CUDA = SUMMED_AREA_CU;
export const SINGLE_PASS_CUDA = SINGLE_PASS_CU;

export const ADD_TILE_SUMS_CUDA = `// Pass 3 of the multi-block scan: add the scanned tile sums back.
template <typename T>
__global__ void addTileSums(T* data, const T* tileOffsets, unsigned n, unsigned tileSize) {
  unsigned tile = blockIdx.x;
  if (tile == 0) return;
  T offset = tileOffsets[tile];
  for (unsigned j = threadIdx.x; j < tileSize; j += blockDim.x) {
    unsigned i = tile * tileSize + j;
    if (i < n) data[i] = offset + data[i];
  }
}

// Host side, any n:
//   scanTile<<<tiles, W>>>(in, out, sums, n);
//   if (tiles > 1) { scan(sums -> offsets, exclusive); addTileSums<<<tiles, W>>>(out, offsets, n, tile); }`;


/** Warp 0's look-back after its aggregate is published (inside `if (warp == 0)`; tileTotal known). */
const WARP_LOOK_BACK_LOOP = `    T prefix = 0;
    for (unsigned j = tile; j > 0; ) {               // lane i looks at tile j - 1 - i
      bool valid = lane < j;
      unsigned state = NOT_READY, bits = 0, firstIncl = 32, firstWait = 0;
      for (int tries = 0; tries < SPIN_LIMIT; ++tries) {
        if (valid && state != INCLUSIVE) readSlot(status, j - 1 - lane, mark, &state, &bits);
        firstIncl = __ffs(__ballot_sync(~0u, valid && state == INCLUSIVE)) - 1;   // 32 if none
        firstWait = __ffs(__ballot_sync(~0u, valid && state == NOT_READY)) - 1;
        if (firstWait > firstIncl || firstWait == 32) break;
      }
      unsigned limit = firstIncl < firstWait ? firstIncl + 1 : firstWait;
      prefix += warpReduce(valid && lane < limit ? asT(bits) : T(0));
      if (firstIncl < firstWait) break;              // reached an inclusive prefix
      j -= min(limit, j);
      if (firstWait < 32 && j > 0) { prefix += warpReduceTile(input, j - 1, n); --j; }  // fallback
    }
    if (lane == 0) {
      if (tile > 0) publish(status, tile, INCLUSIVE, prefix + tileTotal, mark);
      tilePrefix = prefix;
    }
  }
`;

/** Warp 0's publish and look-back, shared by the vec4 single passes (tileTotal known). */
const WARP_LOOK_BACK = `  if (warp == 0) {
    if (lane == 0) publish(status, tile, tile == 0 ? INCLUSIVE : AGGREGATE, tileTotal, mark);
${WARP_LOOK_BACK_LOOP}`;

/** The vec4 single passes' last step: each row rescanned serially from `offset`, then stored. */
const vec4StoreRows = (offset: string): string => `  #pragma unroll
  for (int r = 0; r < 8; ++r) {
    T offset = ${offset};
    vec4<T> v = x[r];
    T s1 = v.x, s2 = s1 + v.y, s3 = s2 + v.z;
    vec4<T> scanned = EXCLUSIVE ? vec4<T>{0, s1, s2, s3} : vec4<T>{s1, s2, s3, s3 + v.w};
    unsigned vi = base + r * W + lid;
    if (vi < (n + 3) / 4) output[vi] = offset + scanned;
  }
`;
const VEC4_STORE_ROWS = vec4StoreRows('tilePrefix + rowBefore[r / 4][r % 4] + before[r / 4][r % 4] + laneBefore[r / 4][r % 4]');

/**
 * The start shared by the two vec4 single passes: draw a ticket for a tile, load its 8 rows of
 * uint4 (coalesced) and each thread's sum of every row.
 */
/** Inside a loop over the halves h: the warps' totals before this warp, and each row's offset in the tile. */
const ROW_OFFSETS = `    vec4<T> all = 0;
    before[h] = 0;
    for (unsigned g = lane; g < W / 32; g += 32) {
      all += warpTotals[g][h];
      if (g < warp) before[h] += warpTotals[g][h];
    }
    before[h] = warpReduce(before[h]); all = warpReduce(all);
    rowBefore[h] = upTo + vec4<T>{0, all.x, all.x + all.y, all.x + all.y + all.z};
    upTo = rowBefore[h].w + all.w;
`;

const VEC4_LOAD_TILE = `  __shared__ vec4<T> warpTotals[32][2];            // rows 0-3 and 4-7 of each warp
  __shared__ unsigned ticket;
  __shared__ T tilePrefix;
  unsigned lid = threadIdx.x, lane = lid & 31, warp = lid >> 5, W = blockDim.x;
  if (lid == 0) ticket = atomicAdd(&status[0], 1u);
  __syncthreads();
  unsigned drawn = ticket, tile = drawn % tiles, mark = 1 + (drawn / tiles) % 2;
  unsigned base = tile * W * 8;

  vec4<T> x[8];
  vec4<T> sums[2];                                   // sums[h][c]: this thread's sum of row 4h + c
  bool whole = tile + 1 < tiles;                     // every tile but the last: no bounds logic
  #pragma unroll
  for (int r = 0; r < 8; ++r) {
    x[r] = whole ? input[base + r * W + lid]
                 : loadVec(input, base + r * W + lid, n);  // zeros at or past n
    sums[r / 4][r % 4] = x[r].x + x[r].y + x[r].z + x[r].w;
  }
`;

export const SINGLE_PASS_VEC4_CUDA = `// Single pass for bandwidth: 8 x uint4 per thread, warp scans, look-back by a whole warp.
// status[0]: ticket; tile t: {lo, hi}, each word (flag << 16) | half, flag = mark * 2 + kind.
// Tile = 8 rows of blockDim.x uint4; thread p holds uint4 p of every row (coalesced 16-byte I/O).
// Unrolled loops over r keep x[] in registers, as the WGSL's named rows do.
template <typename T, bool EXCLUSIVE, int SPIN_LIMIT>
__global__ void scanSinglePassVec4(const vec4<T>* input, vec4<T>* output, unsigned* status,
                                   unsigned n, unsigned tiles) {
${VEC4_LOAD_TILE}  vec4<T> laneBefore[2], before[2], rowBefore[2];
  for (int h = 0; h < 2; ++h) {
    laneBefore[h] = warpExclusiveScan(sums[h]);     // 4 rows at once (shuffles)
    vec4<T> warpTotal = warpReduce(sums[h]);
    if (lane == 0) warpTotals[warp][h] = warpTotal;
  }
  __syncthreads();
  T upTo = 0;                                        // the rows before rows 4h … 4h + 3
  for (int h = 0; h < 2; ++h) {
${ROW_OFFSETS}  }
  T tileTotal = upTo;

${WARP_LOOK_BACK}  __syncthreads();
${VEC4_STORE_ROWS}}`;


export const SINGLE_PASS_LATE_SCAN_CUDA = `// Single pass, tile scanned after the look-back: as scanSinglePassVec4, but before the
// look-back each warp only adds up its rows (warpReduce); the warp scans, the totals before each
// warp and the rows' offsets wait until the tile's prefix is known, so only x[] stays live across
// the wait.
template <typename T, bool EXCLUSIVE, int SPIN_LIMIT>
__global__ void scanSinglePassLateScan(const vec4<T>* input, vec4<T>* output, unsigned* status,
                                       unsigned n, unsigned tiles) {
${VEC4_LOAD_TILE}  for (int h = 0; h < 2; ++h) {
    vec4<T> warpTotal = warpReduce(sums[h]);         // only the totals before the look-back
    if (lane == 0) warpTotals[warp][h] = warpTotal;
  }
  __syncthreads();
  T tileTotal = 0;
  if (warp == 0) {
    vec4<T> all[2] = {0, 0};
    for (unsigned g = lane; g < W / 32; g += 32) { all[0] += warpTotals[g][0]; all[1] += warpTotals[g][1]; }
    all[0] = warpReduce(all[0]); all[1] = warpReduce(all[1]);
    tileTotal = all[0].x + all[0].y + all[0].z + all[0].w + (all[1].x + all[1].y + all[1].z) + all[1].w;
  }
${WARP_LOOK_BACK}  __syncthreads();
  // After the look-back: the scans within the tile, from the same sums.
  vec4<T> laneBefore[2], before[2], rowBefore[2];
  T upTo = 0;
  for (int h = 0; h < 2; ++h) {
    for (int c = 0; c < 4; ++c) sums[h][c] = x[4 * h + c].x + x[4 * h + c].y + x[4 * h + c].z + x[4 * h + c].w;
    laneBefore[h] = warpExclusiveScan(sums[h]);
${ROW_OFFSETS}  }
${VEC4_STORE_ROWS}}`;


export const SINGLE_PASS_WARP_TOTALS_CUDA = `// Single pass, warp totals scanned once: as scanSinglePassVec4, but only warp 0 reads the warps'
// totals. Each warp's totals are its last lane's inclusive scan (one shuffle, no reduction);
// warp 0 scans them, publishes the tile's aggregate, writes each warp's offset over its totals
// and looks back. The other warps skip the 16 reductions each that scanSinglePassVec4 repeats
// in every warp (on floats each is 5 shuffles).
template <typename T, bool EXCLUSIVE, int SPIN_LIMIT>
__global__ void scanSinglePassWarpTotals(const vec4<T>* input, vec4<T>* output, unsigned* status,
                                         unsigned n, unsigned tiles) {
${VEC4_LOAD_TILE}  vec4<T> laneBefore[2];
  for (int h = 0; h < 2; ++h) {
    laneBefore[h] = warpExclusiveScan(sums[h]);     // 4 rows at once (shuffles)
    vec4<T> warpTotal = __shfl_sync(~0u, laneBefore[h] + sums[h], 31);  // the last lane's inclusive sum
    if (lane == 0) warpTotals[warp][h] = warpTotal;
  }
  __syncthreads();
  if (warp == 0) {
    unsigned groups = W / 32;                        // warp 0's lane g scans warp g's totals
    vec4<T> own[2], ex[2], all[2], rowBefore[2];
    T upTo = 0;
    for (int h = 0; h < 2; ++h) {
      own[h] = lane < groups ? warpTotals[lane][h] : vec4<T>(0);
      ex[h] = warpExclusiveScan(own[h]);
      all[h] = __shfl_sync(~0u, ex[h] + own[h], 31);
      rowBefore[h] = upTo + vec4<T>{0, all[h].x, all[h].x + all[h].y, all[h].x + all[h].y + all[h].z};
      upTo = rowBefore[h].w + all[h].w;
    }
    T tileTotal = upTo;
    if (lane == 0) publish(status, tile, tile == 0 ? INCLUSIVE : AGGREGATE, tileTotal, mark);
    if (lane < groups) for (int h = 0; h < 2; ++h) warpTotals[lane][h] = rowBefore[h] + ex[h];  // warp's offset
${WARP_LOOK_BACK_LOOP}  __syncthreads();
${vec4StoreRows('tilePrefix + warpTotals[warp][r / 4][r % 4] + laneBefore[r / 4][r % 4]')}}`;
