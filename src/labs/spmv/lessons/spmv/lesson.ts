import { activeLanesNow, type Lesson, type MomentState } from '../../../../workbench/lesson.ts';
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
export const spmvLesson: Lesson = {
  id: 'spmv',
  courseOrder: 4.5,
  get title() {
    return m('title');
  },
  get summary() {
    return m('summary');
  },
  steps: [
    {
      get title() {
        return m('s1.title');
      },
      lab: 'spmv',
      variant: 'csr-scalar',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      get narrative() {
        return m('s1.narrative');
      },
      get lookAt() {
        return m('s1.lookAt');
      },
      highlight: { code: ['sum += values[j] * x[col_index[j]];'] },
      question: {
        get prompt() {
          return m('s1.prompt');
        },
        answer: activeLanesNow,
        explain: (s, given) => m('s1.explain', { activeLanesNow: activeLanesNow(s), given }),
      },
    },
    {
      get title() {
        return m('s2.title');
      },
      lab: 'spmv',
      variant: 'csr-scalar',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'last' },
      get narrative() {
        return m('s2.narrative');
      },
      get lookAt() {
        return m('s2.lookAt');
      },
      question: {
        get prompt() {
          return m('s2.prompt');
        },
        answer: idleNow,
        explain: (s) => m('s2.explain', { idleNow: idleNow(s) }),
      },
    },
    {
      get title() {
        return m('s3.title');
      },
      lab: 'spmv',
      variant: 'ell',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      get narrative() {
        return m('s3.narrative');
      },
      get lookAt() {
        return m('s3.lookAt');
      },
      highlight: { code: ['let k = i * params.rows + row;'] },
      question: {
        get prompt() {
          return m('s3.prompt');
        },
        answer: activeLanesNow,
        explain: (s) => m('s3.explain', { activeLanesNow: activeLanesNow(s) }),
      },
    },
    {
      get title() {
        return m('s4.title');
      },
      lab: 'spmv',
      variant: 'ell',
      params: uniform,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      get narrative() {
        return m('s4.narrative');
      },
      get lookAt() {
        return m('s4.lookAt');
      },
      question: {
        get prompt() {
          return m('s4.prompt');
        },
        answer: valueSectors,
        explain: (s) => m('s4.explain', { valueSectors: valueSectors(s) }),
      },
    },
    {
      get title() {
        return m('s5.title');
      },
      lab: 'spmv',
      variant: 'csr-vector',
      params: uniform,
      moment: { kind: 'lab', name: 'gather', arg: 'first' },
      get narrative() {
        return m('s5.narrative');
      },
      get lookAt() {
        return m('s5.lookAt');
      },
      highlight: { code: ['subgroupShuffleXor(sum, offset)'] },
      question: {
        get prompt() {
          return m('s5.prompt');
        },
        answer: activeLanesNow,
        explain: (s) => m('s5.explain', { activeLanesNow: activeLanesNow(s) }),
      },
    },
    {
      get title() {
        return m('s6.title');
      },
      lab: 'spmv',
      variant: 'coo',
      params: seed,
      moment: { kind: 'lab', name: 'atomic', arg: 'first' },
      get narrative() {
        return m('s6.narrative');
      },
      get lookAt() {
        return m('s6.lookAt');
      },
      highlight: { code: ['atomicCompareExchangeWeak'] },
      question: {
        get prompt() {
          return m('s6.prompt');
        },
        answer: (s) => atomicLaneOps(s.trace),
        explain: (s) => m('s6.explain', { atomicLaneOps: atomicLaneOps(s.trace) }),
      },
    },
    {
      get title() {
        return m('s7.title');
      },
      lab: 'spmv',
      variant: 'hybrid',
      params: seed,
      moment: { kind: 'lab', name: 'gather', arg: 'last' },
      get narrative() {
        return m('s7.narrative');
      },
      get lookAt() {
        return m('s7.lookAt');
      },
      question: {
        get prompt() {
          return m('s7.prompt');
        },
        answer: (s) => iterationStrip(s.trace, 0).length,
        explain: (s) => m('s7.explain', { length: iterationStrip(s.trace, 0).length }),
      },
    },
    {
      get title() {
        return m('s8.title');
      },
      lab: 'spmv',
      variant: 'jds',
      params: powerlaw,
      moment: { kind: 'lab', name: 'gather', arg: 'idle' },
      get narrative() {
        return m('s8.narrative');
      },
      get lookAt() {
        return m('s8.lookAt');
      },
      question: {
        get prompt() {
          return m('s8.prompt');
        },
        answer: (s) => stripTotals(s.trace).idle,
        explain: (s) => m('s8.explain', { idle: stripTotals(s.trace).idle, active: stripTotals(s.trace).active }),
      },
    },
  ],
};
