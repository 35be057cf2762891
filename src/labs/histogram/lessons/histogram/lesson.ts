import { atomicAt, atomicSummary } from '../../trace.ts';
import { activeLanesNow, lessonFrom, type MomentState } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const letters = { lab: 'histogram', params: { n: 4096, bins: 7, dist: 'letters' } } as const;
const zeros = { lab: 'histogram', params: { n: 4096, bins: 256, dist: 'one-value' } } as const;

/** Lanes of the current atomic instruction queued on the busiest word. */
const longestQueue = (s: MomentState) => atomicAt(s.trace, s.step)?.sameAddress ?? 0;
/** Lanes of the current atomic instruction on bin 0 (word 0 of the memory it updates). */
const lanesOnBin0 = (s: MomentState) => atomicAt(s.trace, s.step)?.queues.find((q) => q.addr === 0)?.lanes.length ?? 0;

/** Histograms from the course seed: atomics, their queues, and private bins merged at the end. */
export const histogramLesson = lessonFrom(m, {
  id: 'histogram',
  courseOrder: 3.6,
  steps: [
    {
      ...letters,
      stage: { panel: 'histogram-stage' },
      variant: 'grid-stride',
      moment: { kind: 'lab', name: 'atomic', arg: 'first' },
      highlight: { code: ['atomicAdd(&histo[bin], 1u);'] },
      question: { answer: lanesOnBin0 },
    },
    {
      ...letters,
      stage: { panel: 'histogram-stage' },
      variant: 'grid-stride',
      moment: { kind: 'lab', name: 'atomic', arg: 'longest' },
      question: { answer: longestQueue },
    },
    {
      ...zeros,
      stage: { panel: 'histogram-stage' },
      variant: 'grid-stride',
      moment: { kind: 'lab', name: 'atomic', arg: 'first' },
      question: { answer: lanesOnBin0 },
    },
    {
      ...letters,
      stage: { panel: 'histogram-stage' },
      variant: 'privatized',
      moment: { kind: 'lab', name: 'atomic', arg: 'first-workgroup' },
      highlight: { code: ['atomicAdd(&histo_private[bin], 1u);'] },
      question: { answer: (s) => atomicSummary(s.trace).globalLaneOps },
    },
    {
      ...letters,
      stage: { panel: 'warp-grid', warp: 0 },
      variant: 'privatized',
      moment: { kind: 'lab', name: 'atomic', arg: 'merge' },
      highlight: { warps: [0], code: ['atomicAdd(&histo[b], atomicLoad(&histo_private[b]));'] },
      question: { answer: activeLanesNow },
    },
    {
      ...zeros,
      stage: { panel: 'histogram-stage' },
      variant: 'aggregated',
      moment: { kind: 'end' },
      question: { answer: (s) => atomicSummary(s.trace).workgroupLaneOps },
    },
  ],
});
