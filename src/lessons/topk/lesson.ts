import { TOPK_FILES } from '../../labs/topk/kernel.ts';
import { LOWEST } from '../../labs/topk/reference.ts';
import { laneList, readTopkTrace, threshold } from '../../labs/topk/trace.ts';
import type { Lesson, MomentState } from '../types.ts';

const base = { lab: 'topk', params: { n: 4096, k: 20, dist: 'random', semantics: 'distinct' } } as const;

const seedView = (s: MomentState) => readTopkTrace(s.trace, TOPK_FILES.seed.wgsl);
const lane0 = (s: MomentState) => laneList(seedView(s), s.step, 0);

/** Top-k from the course seed: sorted lists, a merge tree, two launches, and what "distinct" means. */
export const topkLesson: Lesson = {
  id: 'topk',
  courseOrder: 7.6,
  title: 'Top-k: sorted lists and a merge tree',
  summary: 'Find the 20 largest of 4,096 values the way the course seed does, see where its workgroup memory goes, and what its insert_value does with repeats.',
  steps: [
    {
      ...base,
      title: 'A sorted list per invocation',
      variant: 'seed',
      moment: { kind: 'lab', name: 'merge-level', arg: '0' },
      narrative:
        'Four workgroups of 128 invocations share 4,096 values, so each invocation reads 8. It inserts each into its own descending list of 20 (insert_value): a value below the list’s 20th is dropped, any other shifts the smaller ones down a slot. Here the lists live in columns of workgroup memory, so the trace sees every insert; the columns on the stage have filled with what each lane kept.',
      lookAt: 'the columns of dots, one per lane, and lane 0’s list under them',
      highlight: { code: ['insert_value(lid, input[x]);'] },
      question: {
        prompt: 'How many values entered lane 0’s list during the insert phase?',
        answer: (s) => seedView(s).accepted[0] ?? 0,
        explain: (s) => `The line under the stage counts ${seedView(s).accepted[0] ?? 0} of lane 0’s 8 values: a list of 20 takes every value until it is full.`,
      },
    },
    {
      ...base,
      title: 'The tree: half the lanes merge the other half',
      variant: 'seed',
      moment: { kind: 'lab', name: 'merge-level', arg: '1' },
      narrative:
        'After the barrier, lanes 0–63 insert the 20 values of lanes 64–127 into their own lists, one insert_value at a time. The upper lists are merged away (hollow dots). Each level halves the live lists; 128 lists take log₂ 128 = 7 levels. The seed keeps 256 lists of 20 ints, 20 KB, more than the 16 KiB WebGPU promises, so here a workgroup has 128 invocations.',
      lookAt: 'the hollow, faded columns on the right half',
      question: {
        prompt: 'How many lanes still hold a live list during level 1?',
        answer: (s) => seedView(s).levels[0]?.stride ?? 0,
        explain: (s) => `${seedView(s).levels[0]?.stride ?? '?'}: the lanes below the stride; the others’ lists have been taken in.`,
      },
    },
    {
      ...base,
      title: 'The threshold rises',
      variant: 'seed',
      moment: { kind: 'end' },
      narrative:
        'Level by level, lane 0’s 20th value climbs: to enter the final list a value must beat it. After 7 levels lane 0 holds this workgroup’s top 20; the second launch does the same over the four workgroups’ lists.',
      lookAt: 'the dashed threshold line and its value',
      question: {
        prompt: 'What is lane 0’s 20th value (the threshold) at the end of the launch?',
        answer: (s) => threshold(seedView(s), s.step),
        explain: (s) => `The threshold line reads ${threshold(seedView(s), s.step)}.`,
      },
    },
    {
      ...base,
      title: 'Repeats: the seed keeps distinct values',
      variant: 'seed',
      params: { ...base.params, dist: 'duplicates' },
      moment: { kind: 'end' },
      narrative:
        'Now the 4,096 values take only 16 different values. The seed’s insert_value returns early when the list already holds the value, so the result is the largest distinct values, and with only 16 of them four slots keep INT_MIN, shown as —.',
      lookAt: 'lane 0’s list under the stage',
      highlight: { code: ['if (lists[s * WORKGROUP_SIZE + me] == v) {'] },
      question: {
        prompt: 'How many of lane 0’s 20 slots hold a value?',
        answer: (s) => lane0(s).filter((v) => v !== LOWEST).length,
        explain: (s) => `${lane0(s).filter((v) => v !== LOWEST).length}: one per distinct value; the rest stay INT_MIN.`,
      },
    },
    {
      ...base,
      title: 'The usual top-k keeps them',
      variant: 'seed',
      params: { ...base.params, dist: 'duplicates', semantics: 'all' },
      moment: { kind: 'end' },
      narrative:
        'With duplicates kept, the list is the 20 largest values counting repeats: with so many copies of the largest value, it can fill the whole list. Which one a library means by top-k matters: torch.topk keeps duplicates.',
      lookAt: 'lane 0’s list: one value repeated',
      question: {
        prompt: 'How many times does the largest value appear in lane 0’s list?',
        answer: (s) => lane0(s).filter((v) => v === lane0(s)[0]).length,
        explain: (s) => `${lane0(s).filter((v) => v === lane0(s)[0]).length} times: every copy counts.`,
      },
    },
    {
      ...base,
      stage: { panel: 'topk-stage', drawer: 'metrics' },
      title: 'Faster: one comparison for most values',
      variant: 'fast',
      moment: { kind: 'lab', name: 'merge-level', arg: '1' },
      narrative:
        'The fast kernel keeps each list’s smallest value in a register, so a value that cannot enter costs one comparison; values arrive four at a time; and two sorted lists merge in 2 × 20 steps instead of 20 inserts. On a big input most values are rejected at the register, and the kernel runs at the speed of reading them.',
      lookAt: 'the Metrics panel’s divergent branches against the seed’s',
      question: {
        prompt: 'How many live lists are there during level 1 of the fast kernel?',
        answer: (s) => readTopkTrace(s.trace, TOPK_FILES.fast.wgsl).levels[0]?.stride ?? 0,
        explain: () => 'The tree is the same shape as the seed’s: half of 128.',
      },
    },
  ],
};
