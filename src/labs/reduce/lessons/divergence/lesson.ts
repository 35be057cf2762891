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
      stage: { panel: 'warp-grid' },
      variant: 'neighbored',
      moment: { kind: 'start' },
      question: {
        answer: (s) => s.index.warpCount,
        explain: (s, given) => m('s1.explain', { warpCount: s.index.warpCount, given }),
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      variant: 'neighbored',
      moment: { kind: 'divergence' },
      highlight: { warps: [0], code: ['lid % (2u * s) == 0u'] },
      question: {
        answer: activeLanesNow,
        explain: (s, given) =>
          m('s2.explain', { activeLanesNow: activeLanesNow(s), given }),
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', figures: ['divergent_branch'] },
      variant: 'neighbored',
      moment: { kind: 'divergence', n: 9 },
      question: {
        answer: (s) => s.metrics.divergentBranches,
        explain: (s) =>
          m('s3.explain', { divergentBranches: s.metrics.divergentBranches }),
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      variant: 'interleaved',
      moment: { kind: 'after-barrier', n: 2 },
      highlight: { code: ['if (lid < s)'] },
      question: {
        answer: divergentWarps,
        explain: (s) => m('s4.explain', { divergentWarps: divergentWarps(s) }),
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', figures: ['divergent_branch'] },
      variant: 'interleaved',
      moment: { kind: 'end' },
      question: {
        answer: (s) => s.metrics.divergentBranches,
        explain: (s) => m('s5.explain', { divergentBranches: s.metrics.divergentBranches }),
      },
    },
  ],
});
