import { activeLanesNow, divergentWarps, type Lesson } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const base = { lab: 'reduce', params: { n: 256, workgroupSize: 256 } } as const;

/** Warps and control divergence, on the shared-memory reductions of the reduction lab. */
export const divergenceLesson: Lesson = {
  id: 'divergence',
  courseOrder: 2,
  get title() {
    return m('title');
  },
  get summary() {
    return m('summary');
  },
  steps: [
    {
      ...base,
      stage: { panel: 'warp-grid' },
      get title() {
        return m('s1.title');
      },
      variant: 'neighbored',
      moment: { kind: 'start' },
      get narrative() {
        return m('s1.narrative');
      },
      get lookAt() {
        return m('s1.lookAt');
      },
      question: {
        get prompt() {
          return m('s1.prompt');
        },
        answer: (s) => s.index.warpCount,
        explain: (s, given) => m('s1.explain', { warpCount: s.index.warpCount, given }),
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      get title() {
        return m('s2.title');
      },
      variant: 'neighbored',
      moment: { kind: 'divergence' },
      get narrative() {
        return m('s2.narrative');
      },
      get lookAt() {
        return m('s2.lookAt');
      },
      highlight: { warps: [0], code: ['lid % (2u * s) == 0u'] },
      question: {
        get prompt() {
          return m('s2.prompt');
        },
        answer: activeLanesNow,
        explain: (s, given) =>
          m('s2.explain', { activeLanesNow: activeLanesNow(s), given }),
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      get title() {
        return m('s3.title');
      },
      variant: 'neighbored',
      moment: { kind: 'divergence', n: 9 },
      get narrative() {
        return m('s3.narrative');
      },
      get lookAt() {
        return m('s3.lookAt');
      },
      question: {
        get prompt() {
          return m('s3.prompt');
        },
        answer: (s) => s.metrics.divergentBranches,
        explain: (s) =>
          m('s3.explain', { divergentBranches: s.metrics.divergentBranches }),
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      get title() {
        return m('s4.title');
      },
      variant: 'interleaved',
      moment: { kind: 'after-barrier', n: 2 },
      get narrative() {
        return m('s4.narrative');
      },
      get lookAt() {
        return m('s4.lookAt');
      },
      highlight: { code: ['if (lid < s)'] },
      question: {
        get prompt() {
          return m('s4.prompt');
        },
        answer: divergentWarps,
        explain: (s) => m('s4.explain', { divergentWarps: divergentWarps(s) }),
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      get title() {
        return m('s5.title');
      },
      variant: 'interleaved',
      moment: { kind: 'end' },
      get narrative() {
        return m('s5.narrative');
      },
      question: {
        get prompt() {
          return m('s5.prompt');
        },
        answer: (s) => s.metrics.divergentBranches,
        explain: (s) => m('s5.explain', { divergentBranches: s.metrics.divergentBranches }),
      },
    },
  ],
};
