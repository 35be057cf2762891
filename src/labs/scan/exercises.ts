import { breakKernel, exercisesFrom } from '../../workbench/exercise.ts';
import { scanVariant } from './variants.ts';
import { m } from './messages.ts';

const hillisSteele = scanVariant('hillis-steele').code;

/** Fix-the-kernel exercises on the scan, from the bugs of the course's kernels. */
export const SCAN_EXERCISES = exercisesFrom(m, 'scan', [
  {
    id: 'scan-sizeof-bound',
    variant: 'hillis-steele',
    params: { n: 512, workgroupSize: 256 },
    broken: breakKernel(hillisSteele, 'offset < WORKGROUP_SIZE;', 'offset < 8u;'),
  },
  {
    id: 'scan-step-barrier',
    variant: 'hillis-steele',
    params: { n: 512, workgroupSize: 256 },
    broken: breakKernel(hillisSteele, '    workgroupBarrier(); // the previous step', '    // the previous step'),
  },
]);
