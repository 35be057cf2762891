import { activeLanesNow, lessonFrom, type MomentState } from '../../../../workbench/lesson.ts';
import { atomicLaneOps, iterationStrip, sectorsPerRequest } from '../../trace.ts';
import { m } from './messages.ts';

const seed = { kind: 'seed', rows: 4, workgroupSize: 128 } as const;
const uniform = { kind: 'uniform', rows: 256, workgroupSize: 128 } as const;
const powerlaw = { kind: 'powerlaw', rows: 256, workgroupSize: 128 } as const;

/** Idle lanes, among those with work, of the current warp at the current gather of x. */
function idleNow(s: MomentState): number {
  return iterationNow(s)?.idle ?? 0;
}

/** The current warp's iteration at the current gather of x (the one the strip outlines). */
function iterationNow(s: MomentState) {
  return iterationStrip(s.trace, s.trace.stepWarp[s.step]!).find((i) => i.step === s.step);
}

/** Sectors per request of the loads of the value array over the traced workgroup, rounded. */
const valueSectors = (s: MomentState) => Math.round(sectorsPerRequest(s.trace, 'values').perRequest);

/** Sparse matrix–vector products from the course seed: one matrix in five formats, warp by warp. */
export const spmvLesson = lessonFrom(m, {
  id: 'spmv',
  courseOrder: 4.5,
  steps: [
    {
      lab: 'spmv',
      variant: 'csr-scalar',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      highlight: { code: ['sum += values[j] * x[col_index[j]];'] },
      question: { answer: activeLanesNow },
    },
    {
      lab: 'spmv',
      variant: 'csr-scalar',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'last' },
      question: { answer: idleNow },
    },
    {
      lab: 'spmv',
      variant: 'ell',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      highlight: { code: ['let k = i * params.rows + row;'] },
      question: { answer: activeLanesNow },
    },
    {
      lab: 'spmv',
      variant: 'ell',
      params: uniform,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      question: { answer: valueSectors },
    },
    {
      lab: 'spmv',
      variant: 'csr-vector',
      params: uniform,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      highlight: { code: ['subgroupShuffleXor(sum, offset)'] },
      question: { answer: activeLanesNow },
    },
    {
      lab: 'spmv',
      variant: 'coo',
      params: seed,
      moment: { kind: 'lab', name: 'atomic', arg: 'first' },
      highlight: { code: ['atomicCompareExchangeWeak'] },
      question: { answer: (s) => atomicLaneOps(s.trace) },
    },
    {
      lab: 'spmv',
      variant: 'hybrid',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'last' },
      question: { answer: (s) => iterationStrip(s.trace, 0).length },
    },
    {
      lab: 'spmv',
      variant: 'jds',
      params: powerlaw,
      moment: { kind: 'lab', name: 'gather', arg: 'idle' },
      question: {
        // Read off the outlined iteration, not summed by hand over every warp's strip.
        answer: idleNow,
        explain: (s) => m('s8.explain', { idle: idleNow(s), active: iterationNow(s)?.active ?? 0 }),
      },
    },
    {
      lab: 'spmv',
      variant: 'sell',
      params: powerlaw,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
    },
  ],
});
