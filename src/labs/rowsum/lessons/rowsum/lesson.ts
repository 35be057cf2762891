import { activeLanesNow, divergentWarps, type Lesson } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const base = { lab: 'rowsum', params: { cols: 512, rows: 4 } } as const;

/** Row sums from the course seed: one workgroup per row, a growing stride against a halving one. */
export const rowsumLesson: Lesson = {
  id: 'rowsum',
  courseOrder: 3.5,
  get title() {
    return m('title');
  },
  get summary() {
    return m('summary');
  },
  steps: [
    {
      ...base,
      stage: { panel: 'shared-memory' },
      get title() {
        return m('s1.title');
      },
      variant: 'simple',
      moment: { kind: 'after-barrier', n: 1 },
      get narrative() {
        return m('s1.narrative');
      },
      get lookAt() {
        return m('s1.lookAt');
      },
      highlight: { code: ['partialSum[WORKGROUP_SIZE + tx] = input[start + WORKGROUP_SIZE + tx];'] },
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
      stage: { panel: 'warp-grid', warp: 0 },
      get title() {
        return m('s2.title');
      },
      variant: 'simple',
      moment: { kind: 'divergence' },
      get narrative() {
        return m('s2.narrative');
      },
      get lookAt() {
        return m('s2.lookAt');
      },
      highlight: { warps: [0], code: ['tx % stride == 0u'] },
      question: {
        get prompt() {
          return m('s2.prompt');
        },
        answer: activeLanesNow,
        explain: (s, given) => m('s2.explain', { activeLanesNow: activeLanesNow(s), given }),
      },
    },
    {
      ...base,
      stage: { panel: 'dataflow', drawer: 'metrics' },
      get title() {
        return m('s3.title');
      },
      variant: 'simple',
      moment: { kind: 'end' },
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
        explain: (s) => m('s3.explain', { divergentBranches: s.metrics.divergentBranches }),
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      get title() {
        return m('s4.title');
      },
      variant: 'better',
      moment: { kind: 'after-barrier', n: 3 },
      get narrative() {
        return m('s4.narrative');
      },
      get lookAt() {
        return m('s4.lookAt');
      },
      highlight: { code: ['tx < stride'] },
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
      stage: { panel: 'dataflow', drawer: 'metrics' },
      get title() {
        return m('s5.title');
      },
      variant: 'better',
      moment: { kind: 'end' },
      get narrative() {
        return m('s5.narrative');
      },
      get lookAt() {
        return m('s5.lookAt');
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
