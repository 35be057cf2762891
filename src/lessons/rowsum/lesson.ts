import { activeLanesNow, divergentWarps, type Lesson } from '../types.ts';

const base = { lab: 'rowsum', params: { cols: 512, rows: 4 } } as const;

/** Row sums from the course seed: one workgroup per row, a growing stride against a halving one. */
export const rowsumLesson: Lesson = {
  id: 'rowsum',
  courseOrder: 3.5,
  title: 'Row sums: which invocations keep working',
  summary: 'Sum each row of a matrix in one workgroup, two elements per invocation, and see why halving the stride keeps whole warps busy.',
  steps: [
    {
      ...base,
      stage: { panel: 'shared-memory' },
      title: 'One workgroup per row, two elements each',
      variant: 'simple',
      moment: { kind: 'after-barrier', n: 1 },
      narrative:
        'A 4 × 512 matrix, one workgroup per row. A row has twice as many elements as the workgroup has invocations, so each invocation loads two: word tx and word tx + 256. After the first barrier the whole row sits in workgroup memory.',
      lookAt: 'the workgroup-memory strip, filled with the row',
      highlight: { code: ['partialSum[WORKGROUP_SIZE + tx] = input[start + WORKGROUP_SIZE + tx];'] },
      question: {
        prompt: 'How many warps does the workgroup summing one row have?',
        answer: (s) => s.index.warpCount,
        explain: (s, given) => `256 invocations ÷ 32 lanes = ${s.index.warpCount} rows in the warp grid, not ${given}.`,
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', warp: 0 },
      title: 'A growing stride: tx % stride == 0',
      variant: 'simple',
      moment: { kind: 'divergence' },
      narrative:
        'With stride 2, only invocations whose index is a multiple of 2 add word 2·tx + 2 into word 2·tx. Every warp has such lanes and such idle lanes, so every warp splits and runs the add with half its lanes masked.',
      lookAt: 'the hatched lanes of the current warp',
      highlight: { warps: [0], code: ['tx % stride == 0u'] },
      question: {
        prompt: 'How many lanes of the current warp run the add?',
        answer: activeLanesNow,
        explain: (s, given) => `Count the solid squares in the marked row: ${activeLanesNow(s)} lanes add, the others are masked. (You answered ${given}.)`,
      },
    },
    {
      ...base,
      stage: { panel: 'dataflow', drawer: 'metrics' },
      title: 'The bill for the simple version',
      variant: 'simple',
      moment: { kind: 'end' },
      narrative:
        'Level after level the working invocations spread further apart, and each warp with any worker splits. The Metrics panel counts every divergent branch of the four rows.',
      lookAt: 'Divergent branches in the Metrics panel',
      question: {
        prompt: 'How many divergent branches did the simple row sum take in all?',
        answer: (s) => s.metrics.divergentBranches,
        explain: (s) => `The Metrics panel reads ${s.metrics.divergentBranches}: every warp splits at strides 2 to 32, fewer after.`,
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      title: 'A halving stride: tx < stride',
      variant: 'better',
      moment: { kind: 'after-barrier', n: 3 },
      narrative:
        'Now the stride starts at 256 and halves. The first stride invocations add word tx + stride into word tx: they are contiguous, so a warp is either all working or all resting, and no warp splits until the stride falls below 32.',
      lookAt: 'whole rows of the warp grid working or resting together',
      highlight: { code: ['tx < stride'] },
      question: {
        prompt: 'How many warps are split at this moment?',
        answer: divergentWarps,
        explain: (s) => `The warp grid marks ${divergentWarps(s)} divergent warps: with stride 64 the workers fill warps 0 and 1 completely.`,
      },
    },
    {
      ...base,
      stage: { panel: 'dataflow', drawer: 'metrics' },
      title: 'Fewer splits for the same sums',
      variant: 'better',
      moment: { kind: 'end' },
      narrative:
        'Only warp 0 splits, and only once the stride is 16 or less, plus the final store by invocation 0. Same additions, same sums, far fewer divergent branches: compare the Metrics panel with the simple version.',
      lookAt: 'Divergent branches in the Metrics panel',
      question: {
        prompt: 'How many divergent branches did the better row sum take in all?',
        answer: (s) => s.metrics.divergentBranches,
        explain: (s) => `The Metrics panel reads ${s.metrics.divergentBranches}: strides 16, 8, 4, 2 and 1 in warp 0, and tx == 0, for each of the four rows.`,
      },
    },
  ],
};
