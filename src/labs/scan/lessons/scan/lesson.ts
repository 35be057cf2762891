import { additionsSoFar, publishedPrefix } from '../../moments.ts';
import { lessonFrom } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const base = { lab: 'scan', params: { n: 512, workgroupSize: 256 } } as const;

/** Scan: Hillis–Steele's short network against Blelloch's work-efficient sweeps. */
export const scanLesson = lessonFrom(m, {
  id: 'scan',
  courseOrder: 4,
  steps: [
    {
      ...base,
      params: { n: 256, workgroupSize: 256 },
      stage: { panel: 'scan-insights', width: 'picture' },
      variant: 'hillis-steele',
      moment: { kind: 'after', moment: { kind: 'lab', name: 'scan-phase', arg: 'network' }, barriers: 1 },
    },
    {
      ...base,
      params: { n: 256, workgroupSize: 256 },
      stage: { panel: 'scan-insights', width: 'picture' },
      variant: 'hillis-steele',
      moment: { kind: 'end' },
      question: { answer: additionsSoFar },
    },
    {
      ...base,
      stage: { panel: 'scan-insights', width: 'picture' },
      variant: 'blelloch',
      moment: { kind: 'after', moment: { kind: 'lab', name: 'scan-phase', arg: 'up-sweep' }, barriers: 1 },
    },
    {
      ...base,
      stage: { panel: 'scan-insights', width: 'picture' },
      variant: 'blelloch',
      moment: { kind: 'lab', name: 'scan-phase', arg: 'root-clear' },
    },
    {
      ...base,
      stage: { panel: 'scan-insights', width: 'picture' },
      variant: 'blelloch',
      moment: { kind: 'after', moment: { kind: 'lab', name: 'scan-phase', arg: 'down-sweep' }, barriers: 1 },
    },
    {
      ...base,
      stage: { panel: 'scan-insights', width: 'picture' },
      variant: 'blelloch',
      moment: { kind: 'end' },
      question: { answer: additionsSoFar },
    },
    {
      ...base,
      stage: { panel: 'scan-insights', width: 'picture' },
      variant: 'blelloch-padded',
      moment: { kind: 'end' },
      question: { answer: (s) => s.metrics.sharedBankConflicts },
    },
    {
      ...base,
      // 4096 elements in tiles of 64 × 8: eight tiles; the fourth workgroup draws tile 3.
      params: { n: 4096, workgroupSize: 64 },
      stage: { panel: 'scan-insights', width: 'picture', workgroup: 3 },
      variant: 'single-pass',
      moment: { kind: 'lab', name: 'scan-look-back', arg: 'read' },
      highlight: { part: 'look-back' },
      question: { answer: publishedPrefix },
    },
  ],
});
