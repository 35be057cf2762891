import { breakKernel, EXERCISE_SEEDS, type Exercise } from '../exercise.ts';
import { reduceVariant } from './variants.ts';
import { m } from './messages.ts';

const neighbored = reduceVariant('neighbored').wgsl;

/** Fix-the-kernel exercises on the reduction, from the bugs of the course's kernels. */
export const REDUCE_EXERCISES: readonly Exercise[] = [
  {
    id: 'reduce-tree-barrier',
    lab: 'reduce',
    variant: 'neighbored',
    params: { n: 1024, workgroupSize: 256 },
    get title() {
      return m('reduce-tree-barrier.title');
    },
    get goal() {
      return m('reduce-tree-barrier.goal');
    },
    get hint() {
      return m('reduce-tree-barrier.hint');
    },
    broken: breakKernel(neighbored, '    }\n    workgroupBarrier();\n  }', '    }\n  }'),
    seeds: EXERCISE_SEEDS,
  },
  {
    id: 'reduce-tail-bounds',
    lab: 'reduce',
    variant: 'neighbored',
    params: { n: 1000, workgroupSize: 256 },
    get title() {
      return m('reduce-tail-bounds.title');
    },
    get goal() {
      return m('reduce-tail-bounds.goal');
    },
    get hint() {
      return m('reduce-tail-bounds.hint');
    },
    broken: breakKernel(neighbored, '  if (i < params.n) {\n    v = input[i];\n  }', '  v = input[i];'),
    seeds: EXERCISE_SEEDS,
  },
];
