import { activeLanesNow, lessonFrom, type MomentState } from '../../../../workbench/lesson.ts';
import { atomicLaneOps, iterationStrip, sectorsPerRequest, stripTotals } from '../../trace.ts';
import { m } from './messages.ts';

const seed = { kind: 'seed', rows: 4, workgroupSize: 128 } as const;
const uniform = { kind: 'uniform', rows: 256, workgroupSize: 128 } as const;
const powerlaw = { kind: 'powerlaw', rows: 256, workgroupSize: 128 } as const;

/** Idle lanes, among those with work, of the current warp at the current gather of x. */
function idleNow(s: MomentState): number {
  const it = iterationStrip(s.trace, s.trace.stepWarp[s.step]!).find((i) => i.step === s.step);
  return it ? it.idle : 0;
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
      question: {
        answer: activeLanesNow,
        explain: (s, given) => m('s1.explain', { activeLanesNow: activeLanesNow(s), given }),
      },
    },
    {
      lab: 'spmv',
      variant: 'csr-scalar',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'last' },
      question: {
        answer: idleNow,
        explain: (s) => m('s2.explain', { idleNow: idleNow(s) }),
      },
    },
    {
      lab: 'spmv',
      variant: 'ell',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      highlight: { code: ['let k = i * params.rows + row;'] },
      question: {
        answer: activeLanesNow,
        explain: (s) => m('s3.explain', { activeLanesNow: activeLanesNow(s) }),
      },
    },
    {
      lab: 'spmv',
      variant: 'ell',
      params: uniform,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      question: {
        answer: valueSectors,
        explain: (s) => m('s4.explain', { valueSectors: valueSectors(s) }),
      },
    },
    {
      lab: 'spmv',
      variant: 'csr-vector',
      params: uniform,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      highlight: { code: ['subgroupShuffleXor(sum, offset)'] },
      question: {
        answer: activeLanesNow,
        explain: (s) => m('s5.explain', { activeLanesNow: activeLanesNow(s) }),
      },
    },
    {
      lab: 'spmv',
      variant: 'coo',
      params: seed,
      moment: { kind: 'lab', name: 'atomic', arg: 'first' },
      highlight: { code: ['atomicCompareExchangeWeak'] },
      question: {
        answer: (s) => atomicLaneOps(s.trace),
        explain: (s) => m('s6.explain', { atomicLaneOps: atomicLaneOps(s.trace) }),
      },
    },
    {
      lab: 'spmv',
      variant: 'hybrid',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'last' },
      question: {
        answer: (s) => iterationStrip(s.trace, 0).length,
        explain: (s) => m('s7.explain', { length: iterationStrip(s.trace, 0).length }),
      },
    },
    {
      lab: 'spmv',
      variant: 'jds',
      params: powerlaw,
      moment: { kind: 'lab', name: 'gather', arg: 'idle' },
      question: {
        answer: (s) => stripTotals(s.trace).idle,
        explain: (s) => m('s8.explain', { idle: stripTotals(s.trace).idle, active: stripTotals(s.trace).active }),
      },
    },
  ],
});
