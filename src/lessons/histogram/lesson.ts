import { atomicAt, atomicSummary } from '../../labs/histogram/trace.ts';
import { activeLanesNow, type Lesson, type MomentState } from '../types.ts';

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
  title: 'Histograms: atomics, queues and private bins',
  summary: 'Count letters of a long text into seven bins with atomicAdd, see lanes queue on one bin, then count privately in workgroup memory and merge once.',
  steps: [
    {
      ...letters,
      stage: { panel: 'histogram-stage' },
      title: 'A grid-stride loop and one atomic per letter',
      variant: 'grid-stride',
      moment: { kind: 'lab', name: 'atomic', arg: 'first' },
      narrative:
        'Two workgroups of 256 invocations walk 4 096 bytes of text: in each round, invocation i reads byte i and then byte i + 512, so a warp reads 32 neighbouring bytes. Each letter is one atomicAdd to its bin in global memory: a–d, e–h, and so on. Lanes that hit the same bin in one instruction queue on one address.',
      lookAt: 'the queues column of the bins table',
      highlight: { code: ['atomicAdd(&histo[bin], 1u);'] },
      question: {
        prompt: 'How many lanes of this warp queue on bin 0 (a–d) in this instruction?',
        answer: lanesOnBin0,
        explain: (s) => `The bins table shows ${lanesOnBin0(s)} lane numbers in the row of bin 0: they are served one after another.`,
      },
    },
    {
      ...letters,
      stage: { panel: 'histogram-stage' },
      title: 'The longest queue',
      variant: 'grid-stride',
      moment: { kind: 'lab', name: 'atomic', arg: 'longest' },
      narrative:
        'Letters are not spread evenly: e–h, m–p and q–t are heavy, y–z almost empty. The busiest bin of an instruction sets how long the atomic unit takes to serve it.',
      lookAt: 'the longest queue and the mean same-address count',
      question: {
        prompt: 'How many lanes stand in the longest queue of this instruction?',
        answer: longestQueue,
        explain: (s) => `“Longest queue” jumped here: ${longestQueue(s)} lanes on one bin.`,
      },
    },
    {
      ...zeros,
      stage: { panel: 'histogram-stage' },
      title: 'All one value: every lane on one address',
      variant: 'grid-stride',
      moment: { kind: 'lab', name: 'atomic', arg: 'first' },
      narrative:
        'Now every byte is 0 and there are 256 bins. Every lane of the warp adds to bin 0, so the atomic unit serves all of them in turn: the worst case of contention.',
      lookAt: 'the queue in bin 0',
      question: {
        prompt: 'How many lanes of warp 0 hit bin 0 in this instruction?',
        answer: lanesOnBin0,
        explain: (s) => `All ${lanesOnBin0(s)} lanes of the warp are queued in bin 0's row.`,
      },
    },
    {
      ...letters,
      stage: { panel: 'histogram-stage' },
      title: 'Private bins in workgroup memory',
      variant: 'privatized',
      moment: { kind: 'lab', name: 'atomic', arg: 'first-workgroup' },
      narrative:
        'The seed’s second kernel gives each workgroup its own seven bins in workgroup memory: the counting atomics stay on the chip, and only at the end does the workgroup add its bins to the global histogram.',
      lookAt: 'the Private column filling while Global stays at 0',
      highlight: { code: ['atomicAdd(&histo_private[bin], 1u);'] },
      question: {
        prompt: 'How many global atomics does workgroup 0 make in the whole run?',
        answer: (s) => atomicSummary(s.trace).globalLaneOps,
        explain: (s) => `“Global atomics” under the table reads ${atomicSummary(s.trace).globalLaneOps}: one per bin, in the merge.`,
      },
    },
    {
      ...letters,
      stage: { panel: 'warp-grid', warp: 0 },
      title: 'The merge, and its divergence',
      variant: 'privatized',
      moment: { kind: 'lab', name: 'atomic', arg: 'merge' },
      narrative:
        'After the barrier, invocation b adds private bin b to global bin b. With 7 bins and 256 invocations, only the first 7 lanes of warp 0 work; the other lanes and warps skip the loop. That is the control divergence the seed warns about, and it costs little because it happens once.',
      lookAt: 'the warp grid: 7 active lanes in warp 0',
      highlight: { warps: [0], code: ['atomicAdd(&histo[b], atomicLoad(&histo_private[b]));'] },
      question: {
        prompt: 'How many lanes of warp 0 take part in the merge instruction?',
        answer: activeLanesNow,
        explain: (s) => `Count the active lanes in warp 0: ${activeLanesNow(s)}, one per bin.`,
      },
    },
    {
      ...zeros,
      stage: { panel: 'histogram-stage' },
      title: 'Runs aggregated in registers',
      variant: 'aggregated',
      moment: { kind: 'end' },
      narrative:
        'The aggregating variant keeps the current bin and a count in registers and makes one atomic per run of equal bins. On all-zero bytes a run never ends, so each invocation makes exactly one workgroup-memory atomic at the end of its loop.',
      lookAt: 'workgroup-memory atomics under the table',
      question: {
        prompt: 'How many workgroup-memory atomics did workgroup 0 make (clearing left out)?',
        answer: (s) => atomicSummary(s.trace).workgroupLaneOps,
        explain: (s) => `${atomicSummary(s.trace).workgroupLaneOps}: one run per invocation of the workgroup.`,
      },
    },
  ],
};
