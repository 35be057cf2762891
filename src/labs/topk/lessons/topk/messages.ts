/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../../../i18n/catalog.ts';

const en = {
  'title': 'Top-k: sorted lists and a merge tree',
  'summary': 'Find the 20 largest of 4,096 values the way the course post does, see where its workgroup memory goes, and what its insert_value does with repeats.',
  's1.title': 'A sorted list per invocation',
  's1.narrative': 'Four workgroups of 128 invocations share 4,096 values: each invocation reads 8 and inserts them into its own descending list of 20 (insert_value). A value below the list’s 20th is dropped; any other pushes the smaller ones down a slot. The lists live in columns of workgroup memory, so the stage shows what each lane kept.',
  's1.lookAt': 'the columns of dots, one per lane, and lane 0’s list',
  's1.prompt': 'How many values entered lane 0’s list during the insert phase?',
  's2.title': 'The tree: half the lanes merge the other half',
  's2.narrative': 'After the barrier, lanes 0–63 insert the 20 values of lanes 64–127 into their own lists, one insert_value at a time; the upper lists are merged away (hollow dots). Each level halves the live lists: 128 lists take log₂ 128 = 7 levels.',
  's2.lookAt': 'the hollow, faded columns on the right half',
  's2.prompt': 'How many lanes still hold a live list during level 1?',
  's3.title': 'The threshold rises',
  's3.narrative': 'Level by level, lane 0’s 20th value climbs: to enter the final list a value must beat it. After 7 levels lane 0 holds this workgroup’s top 20; the second launch does the same over the four workgroups’ lists.',
  's3.lookAt': 'the dashed threshold line and its value',
  's3.prompt': 'What is lane 0’s 20th value (the threshold) at the end of the launch?',
  's4.title': 'Repeats: the course post keeps distinct values',
  's4.narrative': 'Now the 4,096 values take only 16 different values. The course post’s insert_value returns early when the list already holds the value, so the result is the largest distinct values, and with only 16 of them four slots keep INT_MIN, shown as —.',
  's4.lookAt': 'lane 0’s list under the stage',
  's4.prompt': 'How many of lane 0’s 20 slots hold a value?',
  's5.title': 'The usual top-k keeps them',
  's5.narrative': 'With duplicates kept, the list is the 20 largest values counting repeats: with so many copies of the largest value, it can fill the whole list. Which one a library means by top-k matters: torch.topk keeps duplicates.',
  's5.lookAt': 'lane 0’s list: one value repeated',
  's5.prompt': 'How many times does the largest value appear in lane 0’s list?',
  's6.title': 'Faster: one comparison for most values',
  's6.narrative': 'The fast kernel keeps each list’s smallest value in a register, so a value that cannot enter costs one comparison, and merges lists in 2 × 20 steps, not 20 inserts.',
  's6.lookAt': 'divergent branches in Metrics',
  's6.prompt': 'How many lists are live during level 1 of the fast kernel?',
  's1.explain': 'The line under the stage counts {answer} of lane 0’s 8 values: a list of 20 takes every value until it is full.',
  's2.explain': '{stride}: the lanes below the stride; the others’ lists have been taken in. The course post keeps 256 lists of 20 ints, 20 KB, more than the 16 KiB WebGPU promises, so here a workgroup has 128 invocations.',
  's3.explain': 'The threshold line reads {answer}.',
  's4.explain': '{answer}: one per distinct value; the rest stay INT_MIN.',
  's5.explain': '{answer} times: every copy counts.',
  's6.explain': 'The tree is the same shape as the course post’s: half of 128. Values also arrive four at a time; on a big input most are rejected at the register, so the kernel runs at the speed of reading them.',
} as const;

export const m = createCatalog('lesson-topk', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
