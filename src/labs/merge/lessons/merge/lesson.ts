import { coRankIterationBound } from '../../reference.ts';
import { elementsOfATaken, mergeViewOf } from '../../moments.ts';
import { lessonFrom, type MomentState } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const base = { lab: 'merge', params: { m: 24, n: 40, input: 'random', type: 'i32' } } as const;
const tiledBase = { lab: 'merge', params: { m: 100, n: 156, input: 'random', type: 'i32' } } as const;

/** Invocation `inv`'s latest probe at or before the moment (a warp's lanes probe in one step). */
const probeNow = (s: MomentState, inv: number) => mergeViewOf(s.trace).probes.filter((p) => p.step <= s.step && p.invocation === inv).at(-1);

/** Parallel merge from the course seed: co-rank, the merge path, and tiles in workgroup memory. */
export const mergeLesson = lessonFrom(m, {
  id: 'merge',
  courseOrder: 7.5,
  steps: [
    {
      ...base,
      variant: 'basic',
      moment: { kind: 'start' },
      question: { answer: (s) => mergeViewOf(s.trace).slices.filter((x) => x !== undefined).length },
    },
    {
      ...base,
      variant: 'basic',
      moment: { kind: 'lab', name: 'probe', arg: '3' },
      highlight: { code: ['if (a[mid] <= b[k - 1u - mid])'] },
      question: {
        answer: (s) => probeNow(s, 3)?.i ?? -1,
        explain: (s) => m('s2.explain', { i: probeNow(s, 3)?.i ?? '?', j: probeNow(s, 3)?.j ?? '?' }),
      },
    },
    {
      ...base,
      variant: 'basic',
      moment: { kind: 'lab', name: 'probe', arg: '3:last' },
      question: {
        answer: (s) => elementsOfATaken(mergeViewOf(s.trace), 3),
        explain: (s) => m('s3.explain', { mergeViewOf: elementsOfATaken(mergeViewOf(s.trace), 3), mergeViewOf2: 4 - elementsOfATaken(mergeViewOf(s.trace), 3) }),
      },
    },
    {
      ...base,
      variant: 'basic',
      moment: { kind: 'end' },
      values: { coRankIterationBound: coRankIterationBound(24, 40) },
      question: {
        answer: (s) => mergeViewOf(s.trace).probesPerInvocation[3] ?? 0,
        explain: (s) => m('s4.explain', { probesPerInvocation: mergeViewOf(s.trace).probesPerInvocation[3] ?? 0, coRankIterationBound: coRankIterationBound(24, 40) }),
      },
    },
    {
      ...base,
      variant: 'basic',
      params: { ...base.params, input: 'duplicates' },
      moment: { kind: 'end' },
      question: { answer: (s) => elementsOfATaken(mergeViewOf(s.trace), 3) },
    },
    {
      ...tiledBase,
      variant: 'tiled',
      moment: { kind: 'after-barrier', n: 1 },
      highlight: { code: ['bounds[lid] = co_rank(select(k0, k1, lid == 1u));'] },
      question: {
        answer: (s) => {
          const t = mergeViewOf(s.trace).tile;
          return t ? t.a1 - t.a0 : 0;
        },
        explain: (s) => {
          const t = mergeViewOf(s.trace).tile;
          return m('s6.explain', { a0: t ? t.a1 - t.a0 : '?' });
        },
      },
    },
    {
      ...tiledBase,
      variant: 'tiled',
      moment: { kind: 'end' },
      // The table's global loads, at invocation 5's row: what the narration and the question name.
      highlight: { part: 'loads', lanes: [[0, 5]] },
      question: { answer: (s) => mergeViewOf(s.trace).loadsPerInvocation[5] ?? 0 },
    },
  ],
});
