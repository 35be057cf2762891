import { atomicAt, atomicSummary } from '../../trace.ts';
import { activeLanesNow, type Lesson, type MomentState } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const letters = { lab: 'histogram', params: { n: 4096, bins: 7, dist: 'letters' } } as const;
const zeros = { lab: 'histogram', params: { n: 4096, bins: 256, dist: 'one-value' } } as const;

/** Lanes of the current atomic instruction queued on the busiest word. */
const longestQueue = (s: MomentState) => atomicAt(s.trace, s.step)?.sameAddress ?? 0;
/** Lanes of the current atomic instruction on bin 0 (word 0 of the memory it updates). */
const lanesOnBin0 = (s: MomentState) => atomicAt(s.trace, s.step)?.queues.find((q) => q.addr === 0)?.lanes.length ?? 0;

/** Histograms from the course seed: atomics, their queues, and private bins merged at the end. */
export const histogramLesson: Lesson = {
  id: 'histogram',
  courseOrder: 3.6,
  get title() {
    return m('title');
  },
  get summary() {
    return m('summary');
  },
  steps: [
    {
      ...letters,
      stage: { panel: 'histogram-stage' },
      get title() {
        return m('s1.title');
      },
      variant: 'grid-stride',
      moment: { kind: 'lab', name: 'atomic', arg: 'first' },
      get narrative() {
        return m('s1.narrative');
      },
      get lookAt() {
        return m('s1.lookAt');
      },
      highlight: { code: ['atomicAdd(&histo[bin], 1u);'] },
      question: {
        get prompt() {
          return m('s1.prompt');
        },
        answer: lanesOnBin0,
        explain: (s) => m('s1.explain', { lanesOnBin0: lanesOnBin0(s) }),
      },
    },
    {
      ...letters,
      stage: { panel: 'histogram-stage' },
      get title() {
        return m('s2.title');
      },
      variant: 'grid-stride',
      moment: { kind: 'lab', name: 'atomic', arg: 'longest' },
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
        answer: longestQueue,
        explain: (s) => m('s2.explain', { longestQueue: longestQueue(s) }),
      },
    },
    {
      ...zeros,
      stage: { panel: 'histogram-stage' },
      get title() {
        return m('s3.title');
      },
      variant: 'grid-stride',
      moment: { kind: 'lab', name: 'atomic', arg: 'first' },
      get narrative() {
        return m('s3.narrative');
      },
      get lookAt() {
        return m('s3.lookAt');
      },
      question: {
        get prompt() {
          return m('s3.prompt');
        },
        answer: lanesOnBin0,
        explain: (s) => m('s3.explain', { lanesOnBin0: lanesOnBin0(s) }),
      },
    },
    {
      ...letters,
      stage: { panel: 'histogram-stage' },
      get title() {
        return m('s4.title');
      },
      variant: 'privatized',
      moment: { kind: 'lab', name: 'atomic', arg: 'first-workgroup' },
      get narrative() {
        return m('s4.narrative');
      },
      get lookAt() {
        return m('s4.lookAt');
      },
      highlight: { code: ['atomicAdd(&histo_private[bin], 1u);'] },
      question: {
        get prompt() {
          return m('s4.prompt');
        },
        answer: (s) => atomicSummary(s.trace).globalLaneOps,
        explain: (s) => m('s4.explain', { globalLaneOps: atomicSummary(s.trace).globalLaneOps }),
      },
    },
    {
      ...letters,
      stage: { panel: 'warp-grid', warp: 0 },
      get title() {
        return m('s5.title');
      },
      variant: 'privatized',
      moment: { kind: 'lab', name: 'atomic', arg: 'merge' },
      get narrative() {
        return m('s5.narrative');
      },
      get lookAt() {
        return m('s5.lookAt');
      },
      highlight: { warps: [0], code: ['atomicAdd(&histo[b], atomicLoad(&histo_private[b]));'] },
      question: {
        get prompt() {
          return m('s5.prompt');
        },
        answer: activeLanesNow,
        explain: (s) => m('s5.explain', { activeLanesNow: activeLanesNow(s) }),
      },
    },
    {
      ...zeros,
      stage: { panel: 'histogram-stage' },
      get title() {
        return m('s6.title');
      },
      variant: 'aggregated',
      moment: { kind: 'end' },
      get narrative() {
        return m('s6.narrative');
      },
      get lookAt() {
        return m('s6.lookAt');
      },
      question: {
        get prompt() {
          return m('s6.prompt');
        },
        answer: (s) => atomicSummary(s.trace).workgroupLaneOps,
        explain: (s) => m('s6.explain', { workgroupLaneOps: atomicSummary(s.trace).workgroupLaneOps }),
      },
    },
  ],
};
