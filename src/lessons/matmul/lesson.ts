import { globalLoadCounts, loadsOfElement, matmulMemories, workgroupCounters } from '../../labs/matmul/queries.ts';
import type { Lesson, MomentState } from '../types.ts';

const square = { m: 64, n: 64, k: 64, tile: 16, type: 'f32' } as const;
const shape64 = { m: 64, n: 64, k: 64 };
const ragged = { m: 40, n: 40, k: 40, tile: 16, type: 'f32' } as const;

/** A[3][5]'s loads by the traced workgroup up to the moment, for a 64 × 64 × 64 multiply. */
const a35 = (s: MomentState) => loadsOfElement(s.trace, shape64, 'a', 3, 5, s.step);

/** Multiply-adds each word loaded from global memory feeds in the traced workgroup. */
const fmasPerLoad = (variant: 'tiled' | 'column') => (s: MomentState) => {
  const c = workgroupCounters(s.index, variant, shape64, 16);
  return c.usefulFmas / c.globalLoads;
};

/** Words of A the traced workgroup loaded from global memory for its last tile (40 × 40 × 40). */
const lastTileLoadsOfA = (s: MomentState) => {
  const mem = matmulMemories(s.trace).a;
  const sum = (x: Int32Array) => x.reduce((t, v) => t + v, 0);
  const all = sum(globalLoadCounts(s.trace, mem, 40 * 40, s.trace.stepCount - 1));
  // The first two tiles are whole: 16 rows × 16 columns each.
  return all - 2 * 16 * 16;
};

/** Matrix multiply from the course seed: tiles in workgroup memory, then reuse in registers. */
export const matmulLesson: Lesson = {
  id: 'matmul',
  courseOrder: 3.7,
  title: 'Matrix multiply: tiles, barriers and reuse you can count',
  summary:
    'Multiply two 64 × 64 matrices, count how often each element comes from global memory, and watch TILE × TILE tiles, a barrier pair and register tiles cut that count, up to the roofline.',
  steps: [
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage' },
      title: 'The redundant loads',
      variant: 'naive',
      moment: { kind: 'end' },
      narrative:
        'One invocation per element of C: each reads a whole row of A and a whole column of B from global memory. Neighbouring outputs in the same row need the same row of A, and each reads it again. The stage counts the loads of every element by workgroup 0, which owns a 16 × 16 block of C.',
      lookAt: 'the counts in the A grid of the stage',
      highlight: { code: ['acc += a[row * params.k + i] * b[i * params.n + col];'] },
      question: {
        prompt: 'How many times has workgroup 0 loaded A[3][5] by the end?',
        answer: a35,
        explain: (s, given) =>
          `The stage reads ${a35(s)}, not ${given}: all 16 columns of the block read row 3 of A once each. The four workgroups along that row of blocks make it 64 = N loads in all.`,
      },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage', drawer: 'metrics' },
      title: 'Who reads neighbouring words',
      variant: 'naive',
      moment: { kind: 'first-access', memory: 'a', warp: 0 },
      narrative:
        'In this kernel x runs down the rows of C, so the lanes of a warp take different rows and their reads of A lie K words apart: each lane needs its own 32-byte sector. Swapping x and y (the coalesced variant) makes a warp read one word of A and neighbouring words of B, with the same count of loads per element.',
      lookAt: 'the sectors of this step in the step facts',
      highlight: { code: ['let row = gid.x;'] },
      question: {
        prompt: 'How many 32-byte sectors does warp 0’s first load of A touch?',
        answer: (s) => s.index.sectors[s.step]!,
        explain: (s) => `${s.index.sectors[s.step]} sectors: lanes 0–15 read 16 different rows (lanes 16–31 repeat them), one sector each.`,
      },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage' },
      title: 'The tile',
      variant: 'tiled',
      moment: { kind: 'lab', name: 'tile-ready', arg: '1' },
      narrative:
        'The tiled kernel copies a 16 × 16 tile of A and one of B into workgroup memory, one word per invocation, then multiplies the tiles from there. Each word it loaded is read 16 times from workgroup memory instead of 16 times from global memory.',
      lookAt: 'the tiles marked ▣ in A and B',
      highlight: { code: ['tileA[ty * TILE + tx] = va;'] },
      question: {
        prompt: 'How many times has workgroup 0 loaded A[3][5] at this moment?',
        answer: a35,
        explain: (s) => `Once (${a35(s)}): the tile holds it for all 16 columns of the block.`,
      },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage' },
      title: 'The barrier pair',
      variant: 'tiled',
      moment: { kind: 'lab', name: 'tile-done', arg: '1' },
      narrative:
        'Two barriers per tile. The first waits until every word of both tiles is written: without it a fast warp would read words a slow warp has not loaded yet. The second waits until everyone is done reading: without it a fast warp would overwrite the tile with the next one while others still multiply.',
      lookAt: 'the barrier phase in the stage sentence and the timeline',
      highlight: { code: ['workgroupBarrier(); // everyone is done reading'] },
      question: {
        prompt: 'How many barriers does the workgroup complete per tile?',
        answer: (s) => {
          const c = workgroupCounters(s.index, 'tiled', shape64, 16);
          return c.barriers / c.tileSteps;
        },
        explain: () => 'Two: one after the loads, one after the reads, for each of the 4 tiles along K (8 barriers in all).',
      },
    },
    {
      lab: 'matmul',
      params: ragged,
      stage: { panel: 'matmul-stage' },
      title: 'The bounds',
      variant: 'tiled',
      moment: { kind: 'end' },
      narrative:
        'With 40 × 40 matrices the third tile along K would reach columns 32–47 of A, but A stops at 39. Invocations past the edge write zero into the tile instead of loading, so the products they add are zero; past the edge of C they skip the store.',
      lookAt: 'the A grid: columns 40 and on do not exist, and the last tile is narrower',
      highlight: { code: ['if (row < params.m && ka < params.k) {'] },
      question: {
        prompt: 'How many words of A did workgroup 0 load from global memory for its third and last tile?',
        answer: lastTileLoadsOfA,
        explain: (s) => `${lastTileLoadsOfA(s)}: 16 rows × the 8 columns 32–39 that exist. The other 128 tile words are zeros.`,
      },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage', drawer: 'metrics' },
      title: 'The reuse count',
      variant: 'column',
      moment: { kind: 'end' },
      narrative:
        'The 1-D register-tiled kernel gives a workgroup a 64 × 64 block and each invocation a column of 16 outputs. A word of the B tile is read into a register once and used 16 times. Bigger blocks mean fewer global loads per multiply-add; the metrics panel reads them from the trace.',
      lookAt: 'Global loads per FMA in the metrics panel',
      question: {
        prompt: 'How many multiply-adds does each word loaded from global memory feed in this kernel?',
        answer: fmasPerLoad('column'),
        explain: (s) => `${fmasPerLoad('column')(s)}: 64³ multiply-adds over 2 × 64² words loaded once each (the tiled kernel at TILE 16 gets 8).`,
      },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage' },
      title: 'Banks of a transposed tile',
      variant: 'vec4-2d',
      moment: { kind: 'bank-conflict' },
      narrative:
        'The 2-D register-tiled kernel stores its A tile transposed so that an invocation reads its four rows as neighbouring words. The transposed store writes words 64 apart, and 64 is a multiple of the 32 banks: lanes collide. Padding each row by 4 words would shift those lanes 16 banks apart, but the fastest kernel’s two buffers would then need 16 640 bytes, more than the 16 KiB WebGPU promises. It swizzles instead: rows 4–7 store column c at c XOR 4, the same 16-bank shift at no cost in memory, and the conflict disappears.',
      lookAt: 'the bank view: banks marked with a dashed border and ×',
      question: {
        prompt: 'How many wavefronts does this workgroup-memory request take?',
        answer: (s) => s.index.wavefronts[s.step]!,
        explain: (s) => `${s.index.wavefronts[s.step]}: the bank view counts the words asked of the busiest bank; one wavefront would be conflict-free.`,
      },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-roofline' },
      title: 'The roofline',
      variant: 'fast',
      moment: { kind: 'end' },
      narrative:
        'Each variant moves fewer bytes per FLOP than the one before: its arithmetic intensity rises. The roofline places them by intensity against the GFLOP/s your GPU measures; below the ridge a kernel waits on memory, above it on arithmetic. The double-buffered kernel needs one barrier per step, plus one before the first.',
      lookAt: 'the Roofline panel: press Measure on this GPU',
      question: {
        prompt: 'How many barriers does the double-buffered kernel complete for K = 64 (8 steps of 8)?',
        answer: (s) => workgroupCounters(s.index, 'fast', shape64, 16).barriers,
        explain: (s) => `${workgroupCounters(s.index, 'fast', shape64, 16).barriers}: one after the first tile is stored, then one per step.`,
      },
      timings: true,
    },
  ],
};

