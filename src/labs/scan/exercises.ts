import { breakKernel, EXERCISE_SEEDS, type Exercise } from '../exercise.ts';
import { scanVariant } from './variants.ts';

const hillisSteele = scanVariant('hillis-steele').code;

/** Fix-the-kernel exercises on the scan, from the bugs of the course's kernels. */
export const SCAN_EXERCISES: readonly Exercise[] = [
  {
    id: 'scan-sizeof-bound',
    lab: 'scan',
    variant: 'hillis-steele',
    params: { n: 512, workgroupSize: 256 },
    title: 'A loop bounded by sizeof',
    goal: 'Make every element of each tile hold the sum of all elements before it in the tile, not only of the last eight.',
    hint: 'Count the barrier phases on the timeline: the loop stops after offsets 1, 2 and 4, as the seed’s kernel did when its bound was sizeof of a pointer (8 bytes) instead of the element count.',
    broken: breakKernel(hillisSteele, 'offset < WORKGROUP_SIZE;', 'offset < 8u;'),
    seeds: EXERCISE_SEEDS,
  },
  {
    id: 'scan-step-barrier',
    lab: 'scan',
    variant: 'hillis-steele',
    params: { n: 512, workgroupSize: 256 },
    title: 'Reading the neighbour too early',
    goal: 'Make each step of the scan read only values the previous step has finished writing, so the result holds on any GPU.',
    hint: 'In the workgroup memory view, step into the second offset: a warp reads buf[cur + lid - offset] that another warp writes later in the same phase; the race annotation marks the line.',
    broken: breakKernel(hillisSteele, '    workgroupBarrier(); // the previous step', '    // the previous step'),
    seeds: EXERCISE_SEEDS,
  },
];
