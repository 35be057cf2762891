import { breakKernel, exercisesFrom } from '../../workbench/exercise.ts';
import { TOPK_FILES } from './kernel.ts';
import { m } from './messages.ts';

/** Fix-the-kernel exercises on top-k, from the bugs of the course's kernels. */
export const TOPK_EXERCISES = exercisesFrom(m, 'topk', [
  {
    id: 'topk-fixed-size',
    variant: 'seed',
    params: { n: 4096, k: 32 },
    broken: breakKernel(TOPK_FILES.seed.wgsl, 'var<workgroup> lists: array<i32, LISTS>;', 'var<workgroup> lists: array<i32, 2560>; // 128 lists of K = 20, as the seed sized top_array'),
  },
]);
