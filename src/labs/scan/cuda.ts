/**
 * The scan kernels' CUDA, for the code pane. Every variant's is a real `.cu` file, translated and
 * checked against the WGSL (`cudaTwins.ts`); the CUDA tab runs it in place of the WGSL and its
 * replay follows its lines. Pass 3 of the multi-block scan is a rendering of add-tile-sums.wgsl,
 * written for reading, not compiled here. Names follow the WGSL so a line in one finds its twin in
 * the other.
 */
import HILLIS_STEELE_CU from './cuda/hillis-steele.cu?raw';
import BLELLOCH_CU from './cuda/blelloch.cu?raw';
import BLELLOCH_PADDED_CU from './cuda/blelloch-padded.cu?raw';
import SUBGROUP_CU from './cuda/subgroup.cu?raw';
import SUMMED_AREA_CU from './cuda/summed-area.cu?raw';
import SINGLE_PASS_CU from './cuda/single-pass.cu?raw';
import SINGLE_PASS_VEC4_CU from './cuda/single-pass-vec4.cu?raw';
import SINGLE_PASS_LATE_SCAN_CU from './cuda/single-pass-late-scan.cu?raw';
import SINGLE_PASS_WARP_TOTALS_CU from './cuda/single-pass-warp-totals.cu?raw';
import WARP_SCAN_CUH from './cuda/warp_scan.cuh?raw';
import STATUS_BITS_CUH from './cuda/status_bits.cuh?raw';
import SINGLE_PASS_VEC4_CUH from './cuda/single_pass_vec4.cuh?raw';

/** The scans' local headers, written once for the `.cu` files that share them. */
const HEADERS: Readonly<Record<string, string>> = { 'warp_scan.cuh': WARP_SCAN_CUH, 'status_bits.cuh': STATUS_BITS_CUH, 'single_pass_vec4.cuh': SINGLE_PASS_VEC4_CUH };

/**
 * A scan `.cu` file as the code pane shows it and the CUDA tab compiles it: each local header
 * written out in place of its first `#include` line (and its own includes in turn; a later
 * include of the same header, which `#pragma once` would skip, is dropped), so the file reads,
 * pastes and runs whole (nvcc, given the folder, sees the same code).
 */
function whole(source: string, seen = new Set<string>()): string {
  return source.replace(/^#include "([\w.]+\.cuh)"\n/gm, (line, name: string) => {
    const header = HEADERS[name];
    if (header === undefined) return line;
    if (seen.has(name)) return '';
    seen.add(name);
    return whole(header.replace(/^#pragma once\n/m, ''), seen);
  });
}

/** Each variant's CUDA: real `.cu` files, translated and checked against the WGSL (`cudaTwins.ts`). */
export const HILLIS_STEELE_CUDA = HILLIS_STEELE_CU;
export const BLELLOCH_CUDA = BLELLOCH_CU;
export const BLELLOCH_PADDED_CUDA = BLELLOCH_PADDED_CU;
export const SUBGROUP_CUDA = whole(SUBGROUP_CU);
export const SUMMED_AREA_CUDA = SUMMED_AREA_CU;
export const SINGLE_PASS_CUDA = whole(SINGLE_PASS_CU);
export const SINGLE_PASS_VEC4_CUDA = whole(SINGLE_PASS_VEC4_CU);
export const SINGLE_PASS_LATE_SCAN_CUDA = whole(SINGLE_PASS_LATE_SCAN_CU);
export const SINGLE_PASS_WARP_TOTALS_CUDA = whole(SINGLE_PASS_WARP_TOTALS_CU);

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
