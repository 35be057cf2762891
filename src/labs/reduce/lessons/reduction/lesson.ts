import { barriersCompleted, type Lesson } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const base = { lab: 'reduce', params: { n: 1024, workgroupSize: 256 } } as const;

/** The reduction ladder, from a tree in global memory to a bandwidth-bound kernel. */
export const reductionLesson: Lesson = {
  id: 'reduction',
  courseOrder: 3,
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
      variant: 'global-inplace',
      moment: { kind: 'after-barrier', n: 1 },
      get narrative() {
        return m('s1.narrative');
      },
      question: {
        get prompt() {
          return m('s1.prompt');
        },
        answer: barriersCompleted,
        explain: (s) => m('s1.explain', { barriersCompleted: barriersCompleted(s) }),
      },
    },
    {
      ...base,
      stage: { panel: 'dataflow' },
      get title() {
        return m('s2.title');
      },
      variant: 'neighbored',
      moment: { kind: 'after-barrier', n: 3 },
      get narrative() {
        return m('s2.narrative');
      },
      get lookAt() {
        return m('s2.lookAt');
      },
    },
    {
      ...base,
      stage: { panel: 'shared-memory', words: [0, 64] },
      get title() {
        return m('s3.title');
      },
      variant: 'neighbored-less-divergent',
      moment: { kind: 'bank-conflict' },
      get narrative() {
        return m('s3.narrative');
      },
      get lookAt() {
        return m('s3.lookAt');
      },
      // Lanes 0 and 16 of warp 0 read words 0 and 32: both in bank 0.
      highlight: { code: ['let index = 2u * s * lid;'], lanes: [[0, 0], [0, 16]], words: [0, 32] },
      question: {
        get prompt() {
          return m('s3.prompt');
        },
        answer: (s) => s.index.wavefronts[s.step]!,
        explain: (s) =>
          m('s3.explain', { wavefronts: s.index.wavefronts[s.step]! }),
      },
    },
    {
      ...base,
      stage: { panel: 'dataflow' },
      get title() {
        return m('s4.title');
      },
      variant: 'interleaved',
      moment: { kind: 'after-barrier', n: 3 },
      get narrative() {
        return m('s4.narrative');
      },
      get lookAt() {
        return m('s4.lookAt');
      },
      question: {
        get prompt() {
          return m('s4.prompt');
        },
        answer: (s) => s.metrics.sharedBankConflicts,
        explain: (s) => m('s4.explain', { sharedBankConflicts: s.metrics.sharedBankConflicts }),
      },
    },
    {
      ...base,
      stage: { panel: 'dataflow' },
      get title() {
        return m('s5.title');
      },
      variant: 'first-add-during-load',
      moment: { kind: 'after-barrier', n: 1 },
      get narrative() {
        return m('s5.narrative');
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', drawer: 'metrics' },
      get title() {
        return m('s6.title');
      },
      variant: 'unrolled',
      moment: { kind: 'end' },
      get narrative() {
        return m('s6.narrative');
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      get title() {
        return m('s7.title');
      },
      variant: 'vec4-atomic',
      moment: { kind: 'end' },
      get narrative() {
        return m('s7.narrative');
      },
      timings: true,
    },
  ],
};
