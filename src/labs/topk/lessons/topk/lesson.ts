import { TOPK_FILES } from '../../kernel.ts';
import { LOWEST } from '../../reference.ts';
import { laneList, readTopkTrace, threshold } from '../../trace.ts';
import type { Lesson, MomentState } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const base = { lab: 'topk', params: { n: 4096, k: 20, dist: 'random', semantics: 'distinct' } } as const;

const seedView = (s: MomentState) => readTopkTrace(s.trace, TOPK_FILES.seed.wgsl);
const lane0 = (s: MomentState) => laneList(seedView(s), s.step, 0);

/** Top-k from the course seed: sorted lists, a merge tree, two launches, and what "distinct" means. */
export const topkLesson: Lesson = {
  id: 'topk',
  courseOrder: 7.6,
  get title() {
    return m('title');
  },
  get summary() {
    return m('summary');
  },
  steps: [
    {
      ...base,
      get title() {
        return m('s1.title');
      },
      variant: 'seed',
      moment: { kind: 'lab', name: 'merge-level', arg: '0' },
      get narrative() {
        return m('s1.narrative');
      },
      get lookAt() {
        return m('s1.lookAt');
      },
      highlight: { code: ['insert_value(lid, input[x]);'] },
      question: {
        get prompt() {
          return m('s1.prompt');
        },
        answer: (s) => seedView(s).accepted[0] ?? 0,
        explain: (s) => m('s1.explain', { accepted: seedView(s).accepted[0] ?? 0 }),
      },
    },
    {
      ...base,
      get title() {
        return m('s2.title');
      },
      variant: 'seed',
      moment: { kind: 'lab', name: 'merge-level', arg: '1' },
      get narrative() {
        return m('s2.narrative');
      },
      get lookAt() {
        return m('s2.lookAt');
      },
      question: {
        get prompt() {
          return m('s2.prompt');
        },
        answer: (s) => seedView(s).levels[0]?.stride ?? 0,
        explain: (s) => m('s2.explain', { stride: seedView(s).levels[0]?.stride ?? '?' }),
      },
    },
    {
      ...base,
      get title() {
        return m('s3.title');
      },
      variant: 'seed',
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
        answer: (s) => threshold(seedView(s), s.step),
        explain: (s) => m('s3.explain', { step: threshold(seedView(s), s.step) }),
      },
    },
    {
      ...base,
      get title() {
        return m('s4.title');
      },
      variant: 'seed',
      params: { ...base.params, dist: 'duplicates' },
      moment: { kind: 'end' },
      get narrative() {
        return m('s4.narrative');
      },
      get lookAt() {
        return m('s4.lookAt');
      },
      highlight: { code: ['if (lists[s * WORKGROUP_SIZE + me] == v) {'] },
      question: {
        get prompt() {
          return m('s4.prompt');
        },
        answer: (s) => lane0(s).filter((v) => v !== LOWEST).length,
        explain: (s) => m('s4.explain', { length: lane0(s).filter((v) => v !== LOWEST).length }),
      },
    },
    {
      ...base,
      get title() {
        return m('s5.title');
      },
      variant: 'seed',
      params: { ...base.params, dist: 'duplicates', semantics: 'all' },
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
        answer: (s) => lane0(s).filter((v) => v === lane0(s)[0]).length,
        explain: (s) => m('s5.explain', { length: lane0(s).filter((v) => v === lane0(s)[0]).length }),
      },
    },
    {
      ...base,
      stage: { panel: 'topk-stage', drawer: 'metrics' },
      get title() {
        return m('s6.title');
      },
      variant: 'fast',
      moment: { kind: 'lab', name: 'merge-level', arg: '1' },
      get narrative() {
        return m('s6.narrative');
      },
      get lookAt() {
        return m('s6.lookAt');
      },
      question: {
        get prompt() {
          return m('s6.prompt');
        },
        answer: (s) => readTopkTrace(s.trace, TOPK_FILES.fast.wgsl).levels[0]?.stride ?? 0,
        explain: () => m('s6.explain'),
      },
    },
  ],
};
