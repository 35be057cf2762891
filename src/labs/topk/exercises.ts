import { breakKernel, EXERCISE_SEEDS, type Exercise } from '../../workbench/exercise.ts';
import { TOPK_FILES } from './kernel.ts';
import { m } from './messages.ts';

/** Fix-the-kernel exercises on top-k, from the bugs of the course's kernels. */
export const TOPK_EXERCISES: readonly Exercise[] = [
  {
    id: 'topk-fixed-size',
    lab: 'topk',
    variant: 'seed',
    params: { n: 4096, k: 32 },
    get title() {
      return m('topk-fixed-size.title');
    },
    get goal() {
      return m('topk-fixed-size.goal');
    },
    get hint() {
      return m('topk-fixed-size.hint');
    },
    broken: breakKernel(TOPK_FILES.seed.wgsl, 'var<workgroup> lists: array<i32, LISTS>;', 'var<workgroup> lists: array<i32, 2560>; // 128 lists of K = 20, as the seed sized top_array'),
    seeds: EXERCISE_SEEDS,
  },
];
