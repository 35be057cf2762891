import { breakKernel, exerciseFrom, type Exercise } from '../../workbench/exercise.ts';
import { scanVariant } from './variants.ts';
import { m } from './messages.ts';

const hillisSteele = scanVariant('hillis-steele').code;

/** Fix-the-kernel exercises on the scan, from the bugs of the course's kernels. */
export const SCAN_EXERCISES: readonly Exercise[] = [
  exerciseFrom(m, {
    id: 'scan-sizeof-bound',
    lab: 'scan',
    variant: 'hillis-steele',
    params: { n: 512, workgroupSize: 256 },
    broken: breakKernel(hillisSteele, 'offset < WORKGROUP_SIZE;', 'offset < 8u;'),
  }),
  exerciseFrom(m, {
    id: 'scan-step-barrier',
    lab: 'scan',
    variant: 'hillis-steele',
    params: { n: 512, workgroupSize: 256 },
    broken: breakKernel(hillisSteele, '    workgroupBarrier(); // the previous step', '    // the previous step'),
  }),
];
