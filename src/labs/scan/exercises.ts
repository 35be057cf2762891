import { breakKernel, EXERCISE_SEEDS, type Exercise } from '../../workbench/exercise.ts';
import { scanVariant } from './variants.ts';
import { m } from './messages.ts';

const hillisSteele = scanVariant('hillis-steele').code;

/** Fix-the-kernel exercises on the scan, from the bugs of the course's kernels. */
export const SCAN_EXERCISES: readonly Exercise[] = [
  {
    id: 'scan-sizeof-bound',
    lab: 'scan',
    variant: 'hillis-steele',
    params: { n: 512, workgroupSize: 256 },
    get title() {
      return m('scan-sizeof-bound.title');
    },
    get goal() {
      return m('scan-sizeof-bound.goal');
    },
    get hint() {
      return m('scan-sizeof-bound.hint');
    },
    broken: breakKernel(hillisSteele, 'offset < WORKGROUP_SIZE;', 'offset < 8u;'),
    seeds: EXERCISE_SEEDS,
  },
  {
    id: 'scan-step-barrier',
    lab: 'scan',
    variant: 'hillis-steele',
    params: { n: 512, workgroupSize: 256 },
    get title() {
      return m('scan-step-barrier.title');
    },
    get goal() {
      return m('scan-step-barrier.goal');
    },
    get hint() {
      return m('scan-step-barrier.hint');
    },
    broken: breakKernel(hillisSteele, '    workgroupBarrier(); // the previous step', '    // the previous step'),
    seeds: EXERCISE_SEEDS,
  },
];
