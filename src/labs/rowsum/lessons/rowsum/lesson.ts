import { activeLanesNow, divergentWarps, lessonFrom } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const base = { lab: 'rowsum', params: { cols: 512, rows: 4 } } as const;

/** Row sums from the course seed: one workgroup per row, a growing stride against a halving one. */
export const rowsumLesson = lessonFrom(m, {
  id: 'rowsum',
  courseOrder: 3.5,
  steps: [
    {
      ...base,
      stage: { panel: 'shared-memory' },
      variant: 'simple',
      moment: { kind: 'after-barrier', n: 1 },
      highlight: { code: ['partialSum[WORKGROUP_SIZE + tx] = input[start + WORKGROUP_SIZE + tx];'] },
      question: { answer: (s) => s.index.warpCount },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', warp: 0 },
      variant: 'simple',
      moment: { kind: 'divergence' },
      highlight: { warps: [0], code: ['tx % stride == 0u'] },
      question: { answer: activeLanesNow },
    },
    {
      ...base,
      stage: { panel: 'dataflow', drawer: 'metrics', figures: ['divergent_branch'] },
      variant: 'simple',
      moment: { kind: 'end' },
      question: { answer: (s) => s.metrics.divergentBranches },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', width: 'picture' },
      variant: 'better',
      moment: { kind: 'after-barrier', n: 3 },
      highlight: { code: ['tx < stride'] },
      question: { answer: divergentWarps },
    },
    {
      ...base,
      stage: { panel: 'dataflow', drawer: 'metrics', figures: ['divergent_branch'] },
      variant: 'better',
      moment: { kind: 'end' },
      question: { answer: (s) => s.metrics.divergentBranches },
    },
  ],
});
