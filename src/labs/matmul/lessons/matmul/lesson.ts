import { globalLoadCounts, loadsOfElement, matmulMemories, workgroupCounters } from '../../queries.ts';
import { lessonFrom, type MomentState } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

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
export const matmulLesson = lessonFrom(m, {
  id: 'matmul',
  courseOrder: 3.7,
  steps: [
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage', width: 'picture' },
      variant: 'naive',
      moment: { kind: 'end' },
      highlight: { code: ['acc += a[row * params.k + i] * b[i * params.n + col];'] },
      question: { answer: a35 },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage', drawer: 'metrics', figures: ['sectors'], width: 'picture' },
      variant: 'naive',
      moment: { kind: 'first-access', memory: 'a', warp: 0 },
      highlight: { code: ['let row = gid.x;'] },
      question: { answer: (s) => s.index.sectors[s.step]! },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage', width: 'picture' },
      variant: 'tiled',
      moment: { kind: 'lab', name: 'tile-ready', arg: '1' },
      highlight: { code: ['tileA[ty * TILE + tx] = va;'] },
      question: { answer: a35 },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage', width: 'picture' },
      variant: 'tiled',
      moment: { kind: 'lab', name: 'tile-done', arg: '1' },
      highlight: { code: ['workgroupBarrier(); // everyone is done reading'] },
      question: {
        answer: (s) => {
          const c = workgroupCounters(s.index, 'tiled', shape64, 16);
          return c.barriers / c.tileSteps;
        },
        explain: () => m('s4.explain'),
      },
    },
    {
      lab: 'matmul',
      params: ragged,
      stage: { panel: 'matmul-stage', width: 'picture' },
      variant: 'tiled',
      moment: { kind: 'end' },
      highlight: { code: ['if (row < params.m && ka < params.k) {'] },
      question: { answer: lastTileLoadsOfA },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage', drawer: 'metrics', figures: ['global_loads_per_fma'], width: 'picture' },
      variant: 'column',
      moment: { kind: 'end' },
      question: { answer: fmasPerLoad('column') },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-stage', width: 'picture' },
      variant: 'vec4-2d',
      moment: { kind: 'bank-conflict' },
      question: { answer: (s) => s.index.wavefronts[s.step]! },
    },
    {
      lab: 'matmul',
      params: square,
      stage: { panel: 'matmul-roofline', width: 'picture' },
      variant: 'fast',
      moment: { kind: 'end' },
      question: { answer: (s) => workgroupCounters(s.index, 'fast', shape64, 16).barriers },
      timings: true,
    },
  ],
});
