/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../../../i18n/catalog.ts';

const en = {
  'title': 'Row sums: which invocations keep working',
  'summary': 'Sum each row of a matrix in one workgroup, two elements per invocation, and see why halving the stride keeps whole warps busy.',
  's1.title': 'One workgroup per row, two elements each',
  's1.narrative': 'A 4 × 512 matrix, one workgroup per row. A row has twice as many elements as the workgroup has invocations, so each invocation loads two: word tx and word tx + 256. After the first barrier the whole row sits in workgroup memory.',
  's1.lookAt': 'the workgroup-memory strip, filled with the row',
  's1.prompt': 'How many warps does the workgroup summing one row have?',
  's2.title': 'A growing stride: tx % stride == 0',
  's2.narrative': 'With stride 2, only invocations whose index is a multiple of 2 add word 2·tx + 2 into word 2·tx. Every warp has such lanes and such idle lanes, so every warp splits and runs the add with half its lanes masked.',
  's2.lookAt': 'the hatched lanes of the current warp',
  's2.prompt': 'How many lanes of the current warp run the add?',
  's3.title': 'The bill for the simple version',
  's3.narrative': 'Level after level the working invocations spread further apart, and each warp with any worker splits. The Metrics panel counts every divergent branch of the four rows.',
  's3.lookAt': 'Divergent branches in the Metrics panel',
  's3.prompt': 'How many divergent branches did the simple row sum take in all?',
  's4.title': 'A halving stride: tx < stride',
  's4.narrative': 'Now the stride starts at 256 and halves. The first stride invocations add word tx + stride into word tx: they are contiguous, so a warp is either all working or all resting, and no warp splits until the stride falls below 32.',
  's4.lookAt': 'whole rows of the warp grid working or resting together',
  's4.prompt': 'How many warps are split at this moment?',
  's5.title': 'Fewer splits for the same sums',
  's5.narrative': 'Only warp 0 splits, once the stride is 16 or less, plus invocation 0’s final store: far fewer divergent branches than the simple version.',
  's5.lookAt': 'Divergent branches in the Metrics panel',
  's5.prompt': 'How many divergent branches did the better row sum take in all?',
  's1.explain': '256 invocations ÷ 32 lanes = {answer} rows in the warp grid, not {given}.',
  's2.explain': 'Count the solid squares in the marked row: {answer} lanes add, the others are masked. (You answered {given}.)',
  's3.explain': 'The Metrics panel reads {answer}: every warp splits at strides 2 to 32, fewer after.',
  's4.explain': 'The warp grid marks {answer} divergent warps: with stride 64 the workers fill warps 0 and 1 completely.',
  's5.explain': 'The Metrics panel reads {answer}: strides 16, 8, 4, 2 and 1 in warp 0, and tx == 0, for each of the four rows.',
} as const;

export const m = createCatalog('lesson-rowsum', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
