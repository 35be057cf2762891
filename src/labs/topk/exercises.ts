import { breakKernel, EXERCISE_SEEDS, type Exercise } from '../exercise.ts';
import { TOPK_FILES } from './kernel.ts';

/** Fix-the-kernel exercises on top-k, from the bugs of the course's kernels. */
export const TOPK_EXERCISES: readonly Exercise[] = [
  {
    id: 'topk-fixed-size',
    lab: 'topk',
    variant: 'seed',
    params: { n: 4096, k: 32 },
    title: 'A list of fixed size',
    goal: 'Make the lists in workgroup memory hold k values for every invocation at any k the lab offers, not only the 20 the array was sized for.',
    hint: 'The seed declared int top_array[20] whatever k was; in the workgroup memory view the inserts of slot 20 onwards land past the end of lists, and the out-of-bounds annotation marks the line.',
    broken: breakKernel(TOPK_FILES.seed.wgsl, 'var<workgroup> lists: array<i32, LISTS>;', 'var<workgroup> lists: array<i32, 2560>; // 128 lists of K = 20, as the seed sized top_array'),
    seeds: EXERCISE_SEEDS,
  },
];
