/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../../../i18n/catalog.ts';

const en = {
  'title': 'Scan: Hillis–Steele against Blelloch',
  'summary': 'Two ways to compute every prefix sum in parallel: fewer steps, or less work — and what padding does for the banks.',
  's1.title': 'Hillis–Steele: log₂ n steps',
  's1.narrative': 'Every element adds the one 1, then 2, then 4 … places to its left. After log₂ n steps each holds its prefix sum. Short, but nearly every invocation adds at every step: about n·log₂ n additions where a loop needs n − 1.',
  's1.lookAt': 'the Hillis–Steele network and the work counter',
  's2.title': 'Counting the work',
  's2.narrative': 'The work counter counts every addition the kernel really made, from the trace. Work out n·log₂ n − (n − 1) for 256 elements first, then compare it with the counter.',
  's2.prompt': 'How many additions did Hillis–Steele perform on this tile?',
  's3.title': 'Blelloch’s up-sweep',
  's3.narrative': 'Blelloch builds a reduction tree first (the up-sweep): each level halves the number of active invocations, and the root ends up holding the total. Two elements per invocation, so 256 invocations cover 512 elements.',
  's3.lookAt': 'the up-sweep tree growing level by level',
  's4.title': 'Clear the root',
  's4.narrative': 'The root, which holds the total, is set to zero: the sum of nothing, which is what the first element must receive in an exclusive scan. The down-sweep pushes it back down the tree; the inclusive result is then read one place over.',
  's5.title': 'The down-sweep',
  's5.narrative': 'At each node going down, the left child takes the parent’s value and the right child takes the parent plus the left child’s old value. After log₂ n levels every element holds the sum of those before it — with 2(n − 1) additions in all.',
  's5.lookAt': 'dashed (left) and solid (right) edges in the down-sweep tree',
  's6.title': 'Work-efficient, and the bill for the banks',
  's6.narrative': 'Blelloch’s additions grow like n, not n·log₂ n: count them on the work counter. But its tree levels touch words 2, 4, 8 … apart, which pile onto the same banks. The bank table compares it with the padded variant, which inserts one spare word every 32.',
  's6.prompt': 'How many additions did Blelloch perform on this tile?',
  's7.title': 'Padding removes the conflicts',
  's7.narrative': 'The padded variant stores element i at i + ⌊i / 32⌋. Strided accesses now land on different banks, for the same number of additions: see what that does to the bank table.',
  's7.prompt': 'How many shared bank conflicts does the padded Blelloch scan have?',
  's2.explain': 'The work counter shows {answer}: eight steps of 255, 254, 252, … additions.',
  's6.explain': 'The work counter shows {answer} = 2·(512 − 1): n − 1 on the way up and n − 1 on the way down.',
  's7.explain': 'The Metrics panel and the bank table read {answer}.',
  's8.title': 'Look-back across tiles',
  's8.narrative': 'One dispatch, any length: each workgroup publishes its tile’s sum, then reads the slot of the tile before. Tile 3 finds tile 2’s prefix ready. Had tile 2 published nothing, tile 3 would not wait: after a few reads it sums tile 2’s input itself.',
  's8.lookAt': 'tiles 2 and 3',
  's8.prompt': 'Which prefix will tile 3 publish next?',
  's8.explain': 'Tile 3 adds its own sum to the prefix it read from tile 2: {answer}.',
} as const;

export const m = createCatalog('lesson-scan', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
