/** Kernel cases of the merge lab: every kernel, every element type, every input kind. */
import type { KernelCase } from '../../kernel/cases.ts';
import type { ElementType } from '../../workbench/labTypes.ts';
import { MERGE_INPUTS, mergeInputs, type MergeInput } from './inputs.ts';
import { fastRun, MERGE_FILES, mergeRun, partitionKaryRun, partitionRun, partitionWideRun, splitsOf, streamRun, vec4Run, VEC4_SHAPE, wideRun } from './kernel.ts';

/** Totals that are and are not multiples of the tiles, from a single element up. */
const SIZES = [1, 3, 37, 128, 255, 1000, 2500];
const TYPES: readonly ElementType[] = ['i32', 'f32'];

/** A and B for `total` outputs, split unevenly (A gets about a third) by the input kind. */
function data(rng: () => number, kind: MergeInput, total: number, type: ElementType) {
  const m = Math.floor(total / 3);
  return mergeInputs(rng, kind, m, total - m, type);
}

const cases = (kernel: keyof typeof MERGE_FILES, build: (d: ReturnType<typeof data>) => ReturnType<KernelCase['build']>): KernelCase[] =>
  TYPES.map(
    (type): KernelCase => ({
      file: MERGE_FILES[kernel].file,
      name: `merge/${kernel} ${type}, every input kind`,
      sizes: SIZES,
      // The seeded generator picks the input kind too, so the inputs of a run cover all five.
      build: (rng, n) => build(data(rng, MERGE_INPUTS[Math.floor(rng() * MERGE_INPUTS.length)]!, n, type)),
    }),
  );

export const mergeCases: KernelCase[] = [
  ...cases('basic', (d) => mergeRun('basic', d)),
  ...cases('tiled', (d) => mergeRun('tiled', d)),
  ...cases('partition', (d) => partitionRun(d)),
  // The 33-way partition pass: not shipped (slower on the H100), but merge-experiments times it.
  ...cases('partition-wide', (d) => partitionWideRun(d)),
  {
    // Small tiles, so a few thousand outputs give dozens of boundaries, each a search of a few rounds.
    file: MERGE_FILES['partition-wide'].file,
    name: 'merge/partition-wide i32, tiles of 32 × 7',
    sizes: [1, 225, 1000, 3001, 9000],
    build: (rng, n) => partitionWideRun(data(rng, MERGE_INPUTS[Math.floor(rng() * MERGE_INPUTS.length)]!, n, 'i32'), undefined, { workgroupSize: 32, items: 7 }),
  },
  ...cases('fast', (d) => fastRun(d, splitsOf(d))),
  ...cases('stream', (d) => streamRun(d, splitsOf(d, 'stream'))),
  ...cases('wide', (d) => wideRun(d, splitsOf(d, 'wide'))),
  {
    // The tuning shapes the experiments time: small tiles, so the sizes span several full tiles
    // and a short last one.
    file: MERGE_FILES.wide.file,
    name: 'merge/wide i32, 32 × 7 and 64 × 23 tiles',
    sizes: [1, 224, 225, 1000, 1472, 3001],
    build: (rng, n) => {
      const d = data(rng, MERGE_INPUTS[Math.floor(rng() * MERGE_INPUTS.length)]!, n, 'i32');
      const shape = rng() < 0.5 ? { workgroupSize: 32, items: 7 } : { workgroupSize: 64, items: 23 };
      return wideRun(d, splitsOf(d, 'wide', shape), undefined, shape);
    },
  },
  {
    // Two workgroups over up to five tiles of 1408: each walks over several, loading the next
    // one's words while it merges the current one.
    file: MERGE_FILES.stream.file,
    name: 'merge/stream i32, workgroups walking over several tiles',
    sizes: [1409, 2817, 4000, 6100],
    build: (rng, n) => {
      const d = data(rng, MERGE_INPUTS[Math.floor(rng() * MERGE_INPUTS.length)]!, n, 'i32');
      return streamRun(d, splitsOf(d, 'stream'), undefined, 2);
    },
  },
  // The issue-29 experiments, which merge-experiments.ts times and no variant ships: the vec4 tile
  // at its measured shape, and at small tiles so the sizes span many; the k-way partition.
  ...cases('vec4', (d) => vec4Run(d, splitsOf(d, 'wide', VEC4_SHAPE))),
  {
    file: MERGE_FILES.vec4.file,
    name: 'merge/vec4 i32, tiles of 32 × 7 and 16 × 5',
    sizes: [1, 3, 79, 80, 224, 225, 1000, 2500],
    build: (rng, n) => {
      const d = data(rng, MERGE_INPUTS[Math.floor(rng() * MERGE_INPUTS.length)]!, n, 'i32');
      const shape = rng() < 0.5 ? { workgroupSize: 32, items: 7 } : { workgroupSize: 16, items: 5 };
      return vec4Run(d, splitsOf(d, 'wide', shape), undefined, shape);
    },
  },
  ...TYPES.map(
    (type): KernelCase => ({
      file: MERGE_FILES['partition-kary'].file,
      name: `merge/partition-kary ${type}, 2 to 64 ways, tiles of 32 × 7`,
      sizes: [1, 225, 1000, 3001, 9000],
      build: (rng, n) => {
        const ways = [2, 3, 4, 8, 16, 64][Math.floor(rng() * 6)]!;
        return partitionKaryRun(data(rng, MERGE_INPUTS[Math.floor(rng() * MERGE_INPUTS.length)]!, n, type), ways, 'wide', { workgroupSize: 32, items: 7 });
      },
    }),
  ),
];
