import { activeLanesNow, divergentWarps, lessonFrom } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const base = { lab: 'reduce', params: { n: 256, workgroupSize: 256 } } as const;

/** Warps and control divergence, on the shared-memory reductions of the reduction lab. */
export const divergenceLesson = lessonFrom(m, {
  id: 'divergence',
  courseOrder: 2,
  steps: [
    {
      ...base,
      stage: { panel: 'warp-grid', width: 'picture' },
      variant: 'neighbored',
      moment: { kind: 'start' },
      question: { answer: (s) => s.index.warpCount },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      variant: 'neighbored',
      moment: { kind: 'divergence' },
      highlight: { warps: [0], code: ['lid % (2u * s) == 0u'] },
      question: { answer: activeLanesNow },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', figures: ['divergent_branch'] },
      variant: 'neighbored',
      moment: { kind: 'divergence', n: 9 },
      question: { answer: (s) => s.metrics.divergentBranches },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', width: 'picture' },
      variant: 'interleaved',
      moment: { kind: 'after-barrier', n: 2 },
      highlight: { code: ['if (lid < s)'] },
      question: { answer: divergentWarps },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', figures: ['divergent_branch'], width: 'picture' },
      variant: 'interleaved',
      moment: { kind: 'end' },
      question: { answer: (s) => s.metrics.divergentBranches },
    },
  ],
});
