/**
 * The merge lab's CUDA sources beside its WGSL variants (issue #26): the basic merge (the course's
 * merge_basic_kernel with ITEMS outputs a thread), the tiled merge and the fast merge, launched as a CUDA host
 * launches them, one thread per ITEMS outputs or one block per tile, on the lab's own inputs
 * (random and duplicate keys, an empty A, every element type). Read by the tests
 * (`src/labs/cudaTwins*.test.ts`) and the bench (`BENCH_ONLY=cuda`: 2^26 outputs, as the lab
 * times its merges). The fast merge's two launches (partition, then merge) are a case of two passes;
 * stream and wide have no twin yet.
 */
import { benchElements, onePassCase, wordsOf, type LabTwin, type TwinCase } from '../../cuda/index.ts';
import { arrayFor, type ElementType } from '../../workbench/labTypes.ts';
import { seededRandom } from '../../util/random.ts';
import { BASIC_CUDA as BASIC_CU, FAST_CUDA as FAST_CU, TILED_CUDA as TILED_CU } from './cuda.ts';
import { mergeInputs, type MergeInput } from './inputs.ts';
import { fastRun, MERGE_SHAPES, mergeRun, partitionRun, tilesOf } from './kernel.ts';
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

/**
 * The fast merge's two launches: the partition beside partition.wgsl, then the merge beside
 * fast.wgsl on the CPU's splits (so each pass is checked on its own).
 */
function fastCase(m: number, n: number, kind: MergeInput, type: ElementType, seed: number, check = true): TwinCase {
  const data = mergeInputs(seededRandom(seed), kind, m, n, type);
  const total = data.m + data.n;
  const tiles = tilesOf('fast', total);
  const tile = MERGE_SHAPES.fast.workgroupSize * MERGE_SHAPES.fast.items;
  const splits = Int32Array.from({ length: tiles + 1 }, (_, g) => coRank(Math.min(g * tile, total), data.a, data.m, data.b, data.n).i);
  const instance = `<${C_TYPES[type]}>`;
  return {
    label: `m = ${data.m}, n = ${data.n}, ${kind}, ${type}`,
    passes: [
      {
        wgsl: partitionRun(data),
        kernel: `mergePartition${instance}`,
        config: { grid: { x: Math.ceil((tiles + 1) / 64), y: 1, z: 1 }, block: { x: 64, y: 1, z: 1 } },
        args: { A: data.a, m: data.m, B: data.b, n: data.n, splits: new Int32Array(tiles + 1), boundaries: tiles + 1 },
        outputs: { splits: 2 },
      },
      {
        wgsl: fastRun(data, new Uint32Array(splits.buffer)),
        kernel: `mergeFast${instance}`,
        config: { grid: { x: tiles, y: 1, z: 1 }, block: { x: MERGE_SHAPES.fast.workgroupSize, y: 1, z: 1 } },
        args: { A: data.a, m: data.m, B: data.b, n: data.n, C: arrayFor(type, Math.max(1, total)), splits },
        outputs: { C: 2 },
      },
    ],
    reference: check ? [{ splits: wordsOf(splits) }, { C: wordsOf(mergeReference(data.a, data.m, data.b, data.n)) }] : [undefined, undefined],
    bytes: 4 * 2 * total,
  };
}

export const MERGE_TWINS: readonly LabTwin[] = [
  mergeTwin('basic', 'mergeBasic', BASIC_CU),
  mergeTwin('tiled', 'mergeTiled', TILED_CU),
  {
    lab: 'merge',
    variant: 'fast',
    fileName: 'src/labs/merge/cuda/fast.cu',
    source: FAST_CU,
    // Several tiles and a partial last one, ties, an empty A, each element type.
    cases: () => [fastCase(2000, 1500, 'random', 'i32', 1), fastCase(1300, 900, 'duplicates', 'u32', 2), fastCase(0, 2100, 'a-empty', 'f32', 3), fastCase(1024, 1024, 'duplicates', 'f32', 4)],
    // The lab's benchmark size: 2^26 outputs.
    bench: (limits) => {
      const total = benchElements(limits, 26);
      return fastCase(total / 2, total / 2, 'random', 'i32', 26, false);
    },
  },
];
