/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../../../i18n/catalog.ts';

const en = {
  'title': 'Histograms: atomics, queues and private bins',
  'summary': 'Count letters of a long text into seven bins with atomicAdd, see lanes queue on one bin, then count privately in workgroup memory and merge once.',
  's1.title': 'A grid-stride loop and one atomic per letter',
  's1.narrative': 'Two workgroups of 256 invocations walk 4 096 bytes of text; invocation i reads bytes i, i + 512, …, so a warp reads 32 neighbouring bytes. Each letter is one atomicAdd to its bin in global memory (a–d, e–h, …); lanes that hit one bin in the same instruction queue on it.',
  's1.lookAt': 'the queues in the bins table',
  's1.prompt': 'How many lanes of this warp queue on bin 0 (a–d) now?',
  's2.title': 'The longest queue',
  's2.narrative': 'Letters are not spread evenly: e–h, m–p and q–t are heavy, y–z almost empty. The busiest bin of an instruction sets how long the atomic unit takes to serve it.',
  's2.lookAt': 'the longest queue and the mean same-address count',
  's2.prompt': 'How many lanes stand in the longest queue of this instruction?',
  's3.title': 'All one value: every lane on one address',
  's3.narrative': 'Now every byte is 0 and there are 256 bins. Every lane of the warp adds to bin 0, so the atomic unit serves all of them in turn: the worst case of contention.',
  's3.lookAt': 'the queue in bin 0',
  's3.prompt': 'How many lanes of warp 0 hit bin 0 in this instruction?',
  's4.title': 'Private bins in workgroup memory',
  's4.narrative': 'The course post’s second kernel gives each workgroup its own seven bins in workgroup memory: the counting atomics stay on the chip, and only at the end does the workgroup add its bins to the global histogram.',
  's4.lookAt': 'the Private column filling while Global stays at 0',
  's4.prompt': 'How many global atomics does workgroup 0 make in the whole run?',
  's5.title': 'The merge, and its divergence',
  's5.narrative': 'After the barrier, invocation b adds private bin b to global bin b. With 7 bins and 256 invocations, only the first 7 lanes of warp 0 work; the other lanes and warps skip the loop. That is the control divergence the course post warns about, and it costs little because it happens once.',
  's5.lookAt': 'the warp grid: 7 active lanes in warp 0',
  's5.prompt': 'How many lanes of warp 0 take part in the merge instruction?',
  's6.title': 'Runs aggregated in registers',
  's6.narrative': 'The aggregating variant counts a run of equal bins in registers and makes one atomic per run. On all-zero bytes the run never ends.',
  's6.lookAt': 'workgroup-memory atomics under the table',
  's6.prompt': 'How many workgroup-memory atomics did workgroup 0 make (clearing left out)?',
  's1.explain': 'The bins table shows {answer} lane numbers in the row of bin 0: they are served one after another.',
  's2.explain': '“Longest queue” jumped here: {answer} lanes on one bin.',
  's3.explain': 'All {answer} lanes of the warp are queued in bin 0\'s row.',
  's4.explain': '“Global atomics” under the table reads {answer}: one per bin, in the merge.',
  's5.explain': 'Count the active lanes in warp 0: {answer}, one per bin.',
  's6.explain': '{answer}: one run per invocation of the workgroup, counted once its loop ends.',
} as const;

export const m = createCatalog('lesson-histogram', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
