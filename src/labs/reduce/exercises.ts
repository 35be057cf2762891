import { breakKernel, EXERCISE_SEEDS, type Exercise } from '../exercise.ts';
import { reduceVariant } from './variants.ts';

const neighbored = reduceVariant('neighbored').wgsl;
const firstAdd = reduceVariant('first-add-during-load').wgsl;
const inPlace = reduceVariant('global-inplace').wgsl;

/** The tree loop of first-add-during-load, and the seed's warpReduce in its place below 64 values: no barrier, no volatile. */
const TREE_LOOP = '  for (var s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {\n    if (lid < s) {\n      sdata[lid] += sdata[lid + s];\n    }\n    workgroupBarrier();\n  }';
const UNROLLED_LAST_WARP = [
  '  for (var s = WORKGROUP_SIZE / 2u; s > 32u; s >>= 1u) {',
  '    if (lid < s) {',
  '      sdata[lid] += sdata[lid + s];',
  '    }',
  '    workgroupBarrier();',
  '  }',
  '  // The last warp runs in lockstep, so it needs no barrier (or does it?).',
  '  if (lid < 32u) {',
  '    sdata[lid] += sdata[lid + 32u];',
  '    sdata[lid] += sdata[lid + 16u];',
  '    sdata[lid] += sdata[lid + 8u];',
  '    sdata[lid] += sdata[lid + 4u];',
  '    sdata[lid] += sdata[lid + 2u];',
  '    sdata[lid] += sdata[lid + 1u];',
  '  }',
].join('\n');

/** Fix-the-kernel exercises on the reduction, from the bugs of the course's kernels. */
export const REDUCE_EXERCISES: readonly Exercise[] = [
  {
    id: 'reduce-tree-barrier',
    lab: 'reduce',
    variant: 'neighbored',
    params: { n: 1024, workgroupSize: 256 },
    title: 'The tree without its barrier',
    goal: 'Make every level of the shared-memory tree read only sums the level before has finished writing, so the workgroup sum is right on any GPU.',
    hint: 'Step through the loop in the workgroup memory view: a lane reads sdata[lid + s] while the warp that writes it has not got there yet. The race annotation marks the line.',
    broken: breakKernel(neighbored, '    }\n    workgroupBarrier();\n  }', '    }\n  }'),
    seeds: EXERCISE_SEEDS,
  },
  {
    id: 'reduce-tail-bounds',
    lab: 'reduce',
    variant: 'neighbored',
    params: { n: 1000, workgroupSize: 256 },
    title: 'Reading past the end',
    goal: 'Make the kernel sum exactly the n elements of the input when n is not a multiple of the workgroup size, without reading past the end.',
    hint: 'Go to the last workgroup in the warp grid and look at the loads: its last 24 lanes read input[1000] onwards, and the out-of-bounds annotation marks the line.',
    broken: breakKernel(neighbored, '  if (i < params.n) {\n    v = input[i];\n  }', '  v = input[i];'),
    seeds: EXERCISE_SEEDS,
  },
  {
    id: 'reduce-last-warp-race',
    lab: 'reduce',
    variant: 'first-add-during-load',
    params: { n: 4096, workgroupSize: 256 },
    title: 'The last warp without a barrier',
    goal: 'Make the last six levels of the tree wait for the level before, as the seed’s unrolled warpReduce relied on lockstep and volatile to do, so the sum holds on any GPU.',
    hint: 'Step through the block under lid < 32u in the workgroup memory view: lane 0 reads sdata[16] while lane 16 is writing it in the same barrier interval; WGSL promises no lockstep, and the race annotation marks the line.',
    broken: breakKernel(firstAdd, TREE_LOOP, UNROLLED_LAST_WARP),
    seeds: EXERCISE_SEEDS,
  },
  {
    id: 'reduce-inplace-overwrite',
    lab: 'reduce',
    variant: 'global-inplace',
    params: { n: 1024, workgroupSize: 256 },
    title: 'The sum written over the input',
    goal: 'Make each workgroup store its sum in partials instead of over the input, where word group belongs to a block another workgroup may still be summing.',
    hint: 'On the timeline, go to the end of the first workgroup and look at the warp grid: lane 0 stores into data[group], inside workgroup 0’s block, and partials, which the next pass reads, is never written.',
    broken: breakKernel(inPlace, '    partials[group] = data[base];', '    data[group] = data[base]; // in place, as the seed kept everything in g_idata'),
    seeds: EXERCISE_SEEDS,
  },
];
