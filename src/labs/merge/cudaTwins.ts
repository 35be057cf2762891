/**
 * The merge lab's CUDA sources beside its WGSL variants (issue #26): the basic merge (the course's
 * merge_basic_kernel with ITEMS outputs a thread), the tiled merge and the fast merge, launched as a CUDA host
 * launches them, one thread per ITEMS outputs or one block per tile, on the lab's own inputs
 * (random and duplicate keys, an empty A, every element type). Read by the tests
 * (`src/labs/cudaTwins*.test.ts`) and the bench (`BENCH_ONLY=cuda`: 2^26 outputs, as the lab
 * times its merges). The fast, stream and wide merges' two launches (partition, then merge) are a
 * case of two passes.
 */
import { benchElements, onePassCase, wordsOf, type LabTwin, type TwinCase, type TwinPass } from '../../cuda/index.ts';
import { arrayFor, type ElementType } from '../../workbench/labTypes.ts';
import { seededRandom } from '../../util/random.ts';
import { BASIC_CUDA as BASIC_CU, FAST_CUDA as FAST_CU, STREAM_CUDA as STREAM_CU, TILED_CUDA as TILED_CU, WIDE_CUDA as WIDE_CU } from './cuda.ts';
import { mergeInputs, type MergeInput } from './inputs.ts';
import { fastRun, MERGE_SHAPES, mergeRun, partitionRun, STREAM_GROUPS, streamRun, tilesOf, wideRun, type PartitionedVariant } from './kernel.ts';
import { coRank, mergeReference } from './reference.ts';

const C_TYPES: Readonly<Record<ElementType, string>> = { i32: 'int', u32: 'unsigned int', f32: 'float' };

/** One merge of A (m keys) and B (n keys) of `kind`, the CUDA launch beside the lab's WGSL pass. */
function mergeCase(variant: 'basic' | 'tiled', kernel: string, m: number, n: number, kind: MergeInput, type: ElementType, seed: number, check = true): TwinCase {
  const data = mergeInputs(seededRandom(seed), kind, m, n, type);
  const total = data.m + data.n;
  const { workgroupSize, items } = MERGE_SHAPES[variant];
  return onePassCase(
    `m = ${data.m}, n = ${data.n}, ${kind}, ${type}`,
    {
      wgsl: mergeRun(variant, data),
      kernel: `${kernel}<${C_TYPES[type]}>`,
      config: { grid: { x: Math.max(1, Math.ceil(total / (workgroupSize * items))), y: 1, z: 1 }, block: { x: workgroupSize, y: 1, z: 1 } },
      args: { A: data.a, m: data.m, B: data.b, n: data.n, C: arrayFor(type, Math.max(1, total)) },
      outputs: { C: 2 },
    },
    check ? { C: wordsOf(mergeReference(data.a, data.m, data.b, data.n)) } : undefined,
    4 * 2 * total,
  );
}

function mergeTwin(variant: 'basic' | 'tiled', kernel: string, source: string): LabTwin {
  return {
    lab: 'merge',
    variant,
    fileName: `src/labs/merge/cuda/${variant}.cu`,
    source,
    // Partial last tiles, ties across A and B, an empty A, each element type.
    cases: () => [
      mergeCase(variant, kernel, 700, 555, 'random', 'i32', 1),
      mergeCase(variant, kernel, 300, 260, 'duplicates', 'u32', 2),
      mergeCase(variant, kernel, 90, 200, 'a-empty', 'f32', 3),
      mergeCase(variant, kernel, 1000, 1000, 'duplicates', 'f32', 4),
    ],
    // The lab's benchmark size: 2^26 outputs (two halves of random i32 keys).
    bench: (limits) => {
      const total = benchElements(limits, 26);
      return mergeCase(variant, kernel, total / 2, total / 2, 'random', 'i32', 26, false);
    },
  };
}

/** The partitioned merges' CUDA kernels (pass 2) and how many blocks each launches for `tiles` tiles. */
const PARTITIONED: Readonly<Record<PartitionedVariant, { kernel: string; blocks: (tiles: number) => number }>> = {
  fast: { kernel: 'mergeFast', blocks: (tiles) => tiles },
  // Fewer blocks than tiles, each walking over every blocks-th tile (at most STREAM_GROUPS).
  stream: { kernel: 'mergeStream', blocks: (tiles) => Math.min(tiles, STREAM_GROUPS) },
  wide: { kernel: 'mergeWide', blocks: (tiles) => tiles },
};

/**
 * A partitioned merge's two launches: the partition beside partition.wgsl, then the merge beside
 * the variant's merge pass on the CPU's splits (so each pass is checked on its own). `blocks`
 * overrides how many blocks the streamed merge launches (the tests make each walk over several tiles).
 */
function partitionedCase(variant: PartitionedVariant, m: number, n: number, kind: MergeInput, type: ElementType, seed: number, check = true, blocks?: number): TwinCase {
  const data = mergeInputs(seededRandom(seed), kind, m, n, type);
  const total = data.m + data.n;
  const tiles = tilesOf(variant, total);
  const { workgroupSize, items } = MERGE_SHAPES[variant];
  const splits = Int32Array.from({ length: tiles + 1 }, (_, g) => coRank(Math.min(g * workgroupSize * items, total), data.a, data.m, data.b, data.n).i);
  const instance = `<${C_TYPES[type]}>`;
  const words = new Uint32Array(splits.buffer);
  const launched = blocks ?? PARTITIONED[variant].blocks(tiles);
  const merge: TwinPass =
    variant === 'stream'
      ? {
          wgsl: streamRun(data, words, undefined, launched),
          kernel: `mergeStream${instance}`,
          config: { grid: { x: launched, y: 1, z: 1 }, block: { x: workgroupSize, y: 1, z: 1 } },
          args: { A: data.a, m: data.m, B: data.b, n: data.n, C: arrayFor(type, Math.max(1, total)), splits, boundaries: tiles + 1 },
          outputs: { C: 2 },
        }
      : {
          wgsl: variant === 'fast' ? fastRun(data, words) : wideRun(data, words),
          kernel: `${PARTITIONED[variant].kernel}${instance}`,
          config: { grid: { x: tiles, y: 1, z: 1 }, block: { x: workgroupSize, y: 1, z: 1 } },
          args: { A: data.a, m: data.m, B: data.b, n: data.n, C: arrayFor(type, Math.max(1, total)), splits },
          outputs: { C: 2 },
        };
  return {
    label: `m = ${data.m}, n = ${data.n}, ${kind}, ${type}${blocks === undefined ? '' : `, ${blocks} blocks`}`,
    passes: [
      {
        wgsl: partitionRun(data, undefined, variant),
        kernel: `mergePartition${instance}`,
        config: { grid: { x: Math.ceil((tiles + 1) / 64), y: 1, z: 1 }, block: { x: 64, y: 1, z: 1 } },
        args: { A: data.a, m: data.m, B: data.b, n: data.n, splits: new Int32Array(tiles + 1), boundaries: tiles + 1 },
        outputs: { splits: 2 },
      },
      merge,
    ],
    reference: check ? [{ splits: wordsOf(splits) }, { C: wordsOf(mergeReference(data.a, data.m, data.b, data.n)) }] : [undefined, undefined],
    bytes: 4 * 2 * total,
  };
}

/** A partitioned merge's twin: several tiles and a partial last one, ties, an empty A, each element type. */
const partitionedTwin = (variant: PartitionedVariant, source: string, extra: readonly TwinCase[] = []): LabTwin => ({
  lab: 'merge',
  variant,
  fileName: `src/labs/merge/cuda/${variant}.cu`,
  source,
  cases: () => [
    partitionedCase(variant, 2000, 1500, 'random', 'i32', 1),
    partitionedCase(variant, 1300, 900, 'duplicates', 'u32', 2),
    partitionedCase(variant, 0, 2100, 'a-empty', 'f32', 3),
    partitionedCase(variant, 1024, 1024, 'duplicates', 'f32', 4),
    ...extra,
  ],
  // The lab's benchmark size: 2^26 outputs.
  bench: (limits) => {
    const total = benchElements(limits, 26);
    return partitionedCase(variant, total / 2, total / 2, 'random', 'i32', 26, false);
  },
});

export const MERGE_TWINS: readonly LabTwin[] = [
  mergeTwin('basic', 'mergeBasic', BASIC_CU),
  mergeTwin('tiled', 'mergeTiled', TILED_CU),
  partitionedTwin('fast', FAST_CU),
  // Two and three blocks over 3 and 6 tiles: each block walks over several tiles, loading the next while merging one.
  partitionedTwin('stream', STREAM_CU, [partitionedCase('stream', 2000, 2200, 'random', 'i32', 5, true, 2), partitionedCase('stream', 4000, 4400, 'duplicates', 'u32', 6, true, 3)]),
  partitionedTwin('wide', WIDE_CU),
];
