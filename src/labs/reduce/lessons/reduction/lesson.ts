import { barriersCompleted, lessonFrom } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const base = { lab: 'reduce', params: { n: 1024, workgroupSize: 256 } } as const;

/** The reduction ladder, from a tree in global memory to a bandwidth-bound kernel. */
export const reductionLesson = lessonFrom(m, {
  id: 'reduction',
  courseOrder: 3,
  steps: [
    {
      ...base,
      stage: { panel: 'warp-grid', width: 'picture' },
      variant: 'global-inplace',
      moment: { kind: 'after-barrier', n: 1 },
      question: { answer: barriersCompleted },
    },
    {
      ...base,
      stage: { panel: 'dataflow' },
      variant: 'neighbored',
      moment: { kind: 'after-barrier', n: 3 },
    },
    {
      ...base,
      stage: { panel: 'shared-memory', words: [0, 64] },
      variant: 'neighbored-less-divergent',
      moment: { kind: 'bank-conflict' },
      // Lanes 0 and 16 of warp 0 read words 0 and 32: both in bank 0.
      highlight: { code: ['let index = 2u * s * lid;'], lanes: [[0, 0], [0, 16]], words: [0, 32] },
      question: { answer: (s) => s.index.wavefronts[s.step]! },
    },
    {
      ...base,
      stage: { panel: 'dataflow', figures: ['shared_ld/st_bank_conflict'] },
      variant: 'interleaved',
      moment: { kind: 'after-barrier', n: 3 },
      question: { answer: (s) => s.metrics.sharedBankConflicts },
    },
    {
      ...base,
      stage: { panel: 'dataflow' },
      variant: 'first-add-during-load',
      moment: { kind: 'after-barrier', n: 1 },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', drawer: 'metrics', width: 'picture' },
      variant: 'unrolled',
      moment: { kind: 'end' },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', drawer: 'timings', width: 'picture' },
      variant: 'vec4-atomic',
      moment: { kind: 'end' },
      timings: true,
    },
  ],
});
