import { TOPK_FILES } from '../../kernel.ts';
import { LOWEST } from '../../reference.ts';
import { laneList, readTopkTrace, threshold } from '../../trace.ts';
import { lessonFrom, type MomentState } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const base = { lab: 'topk', params: { n: 4096, k: 20, dist: 'random', semantics: 'distinct' } } as const;

const seedView = (s: MomentState) => readTopkTrace(s.trace, TOPK_FILES.seed.wgsl);
const lane0 = (s: MomentState) => laneList(seedView(s), s.step, 0);

/** Top-k from the course seed: sorted lists, a merge tree, two launches, and what "distinct" means. */
export const topkLesson = lessonFrom(m, {
  id: 'topk',
  courseOrder: 7.6,
  steps: [
    {
      ...base,
      variant: 'seed',
      moment: { kind: 'lab', name: 'merge-level', arg: '0' },
      highlight: { code: ['insert_value(lid, input[x]);'] },
      question: { answer: (s) => seedView(s).accepted[0] ?? 0 },
    },
    {
      ...base,
      variant: 'seed',
      moment: { kind: 'lab', name: 'merge-level', arg: '1' },
      question: {
        answer: (s) => seedView(s).levels[0]?.stride ?? 0,
        explain: (s) => m('s2.explain', { stride: seedView(s).levels[0]?.stride ?? '?' }),
      },
    },
    {
      ...base,
      variant: 'seed',
      moment: { kind: 'end' },
      question: { answer: (s) => threshold(seedView(s), s.step) },
    },
    {
      ...base,
      variant: 'seed',
      params: { ...base.params, dist: 'duplicates' },
      moment: { kind: 'end' },
      highlight: { code: ['if (lists[s * WORKGROUP_SIZE + me] == v) {'] },
      question: { answer: (s) => lane0(s).filter((v) => v !== LOWEST).length },
    },
    {
      ...base,
      variant: 'seed',
      params: { ...base.params, dist: 'duplicates', semantics: 'all' },
      moment: { kind: 'end' },
      question: { answer: (s) => lane0(s).filter((v) => v === lane0(s)[0]).length },
    },
    {
      ...base,
      stage: { panel: 'topk-stage', drawer: 'metrics' },
      variant: 'fast',
      moment: { kind: 'lab', name: 'merge-level', arg: '1' },
      question: {
        answer: (s) => readTopkTrace(s.trace, TOPK_FILES.fast.wgsl).levels[0]?.stride ?? 0,
        explain: () => m('s6.explain'),
      },
    },
  ],
});
