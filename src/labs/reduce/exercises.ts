import { breakKernel, EXERCISE_SEEDS, type Exercise } from '../exercise.ts';
import { reduceVariant } from './variants.ts';

const neighbored = reduceVariant('neighbored').wgsl;

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
];
