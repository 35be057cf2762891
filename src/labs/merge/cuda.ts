/**
 * The merge kernels' CUDA, for the code pane: real `.cu` files, one per variant, translated and
 * checked against the WGSL (`cudaTwins.ts`); the CUDA tab runs them in place of the WGSL and its
 * replay follows their lines.
 */
import BASIC_CU from './cuda/basic.cu?raw';
import TILED_CU from './cuda/tiled.cu?raw';
import FAST_CU from './cuda/fast.cu?raw';
import STREAM_CU from './cuda/stream.cu?raw';
import WIDE_CU from './cuda/wide.cu?raw';
import CO_RANK_CUH from './cuda/co_rank.cuh?raw';
import MERGE_SEQUENTIAL_CUH from './cuda/merge_sequential.cuh?raw';
import MERGE_PARTITION_CUH from './cuda/merge_partition.cuh?raw';

/** The merges' local headers: co_rank, merge_sequential and mergePartition, written once for the `.cu` files. */
const HEADERS: Readonly<Record<string, string>> = { 'co_rank.cuh': CO_RANK_CUH, 'merge_sequential.cuh': MERGE_SEQUENTIAL_CUH, 'merge_partition.cuh': MERGE_PARTITION_CUH };

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
export const STREAM_CUDA = whole(STREAM_CU);
export const WIDE_CUDA = whole(WIDE_CU);
