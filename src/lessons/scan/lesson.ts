import { additionsSoFar } from '../../labs/scan/moments.ts';
import type { Lesson } from '../types.ts';

const base = { lab: 'scan', params: { n: 512, workgroupSize: 256 } } as const;

/** Scan: Hillis–Steele's short network against Blelloch's work-efficient sweeps. */
export const scanLesson: Lesson = {
  id: 'scan',
  courseOrder: 4,
  title: 'Scan: Hillis–Steele against Blelloch',
  summary: 'Two ways to compute every prefix sum in parallel: fewer steps, or less work — and what padding does for the banks.',
  steps: [
    {
      ...base,
      params: { n: 256, workgroupSize: 256 },
      stage: { panel: 'scan-insights' },
      title: 'Hillis–Steele: log₂ n steps',
      variant: 'hillis-steele',
      moment: { kind: 'after', moment: { kind: 'lab', name: 'scan-phase', arg: 'network' }, barriers: 1 },
      narrative:
        'Every element adds the one 1, then 2, then 4 … places to its left. After log₂ n steps each holds its prefix sum. Short, but nearly every invocation adds at every step: about n·log₂ n additions where a loop needs n − 1.',
      lookAt: 'the Hillis–Steele network and the work counter',
    },
    {
      ...base,
      params: { n: 256, workgroupSize: 256 },
      stage: { panel: 'scan-insights' },
      title: 'Counting the work',
      variant: 'hillis-steele',
      moment: { kind: 'end' },
      narrative:
        'The work counter counts every addition the kernel really made, from the trace. Work out n·log₂ n − (n − 1) for 256 elements first, then compare it with the counter.',
      question: {
        prompt: 'How many additions did Hillis–Steele perform on this tile?',
        answer: additionsSoFar,
        explain: (s) => `The work counter shows ${additionsSoFar(s)}: eight steps of 255, 254, 252, … additions.`,
      },
    },
    {
      ...base,
      stage: { panel: 'scan-insights' },
      title: 'Blelloch’s up-sweep',
      variant: 'blelloch',
      moment: { kind: 'after', moment: { kind: 'lab', name: 'scan-phase', arg: 'up-sweep' }, barriers: 1 },
      narrative:
        'Blelloch builds a reduction tree first (the up-sweep): each level halves the number of active invocations, and the root ends up holding the total. Two elements per invocation, so 256 invocations cover 512 elements.',
      lookAt: 'the up-sweep tree growing level by level',
    },
    {
      ...base,
      stage: { panel: 'scan-insights' },
      title: 'Clear the root',
      variant: 'blelloch',
      moment: { kind: 'lab', name: 'scan-phase', arg: 'root-clear' },
      narrative:
        'The root, which holds the total, is set to zero: the sum of nothing, which is what the first element must receive in an exclusive scan. The down-sweep pushes it back down the tree; the inclusive result is then read one place over.',
    },
    {
      ...base,
      stage: { panel: 'scan-insights' },
      title: 'The down-sweep',
      variant: 'blelloch',
      moment: { kind: 'after', moment: { kind: 'lab', name: 'scan-phase', arg: 'down-sweep' }, barriers: 1 },
      narrative:
        'At each node going down, the left child takes the parent’s value and the right child takes the parent plus the left child’s old value. After log₂ n levels every element holds the sum of those before it — with 2(n − 1) additions in all.',
      lookAt: 'dashed (left) and solid (right) edges in the down-sweep tree',
    },
    {
      ...base,
      stage: { panel: 'scan-insights' },
      title: 'Work-efficient, and the bill for the banks',
      variant: 'blelloch',
      moment: { kind: 'end' },
      narrative:
        'Blelloch’s additions grow like n, not n·log₂ n: count them on the work counter. But its tree levels touch words 2, 4, 8 … apart, which pile onto the same banks. The bank table compares it with the padded variant, which inserts one spare word every 32.',
      question: {
        prompt: 'How many additions did Blelloch perform on this tile?',
        answer: additionsSoFar,
        explain: (s) => `The work counter shows ${additionsSoFar(s)} = 2·(512 − 1): n − 1 on the way up and n − 1 on the way down.`,
      },
    },
    {
      ...base,
      stage: { panel: 'scan-insights' },
      title: 'Padding removes the conflicts',
      variant: 'blelloch-padded',
      moment: { kind: 'end' },
      narrative:
        'The padded variant stores element i at i + ⌊i / 32⌋. Strided accesses now land on different banks, for the same number of additions: see what that does to the bank table.',
      question: {
        prompt: 'How many shared bank conflicts does the padded Blelloch scan have?',
        answer: (s) => s.metrics.sharedBankConflicts,
        explain: (s) => `The Metrics panel and the bank table read ${s.metrics.sharedBankConflicts}.`,
      },
    },
  ],
};
