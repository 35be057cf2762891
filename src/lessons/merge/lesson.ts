import { coRankIterationBound } from '../../labs/merge/reference.ts';
import { elementsOfATaken, mergeViewOf } from '../../labs/merge/moments.ts';
import type { Lesson, MomentState } from '../types.ts';

const base = { lab: 'merge', params: { m: 24, n: 40, input: 'random', type: 'i32' } } as const;
const tiledBase = { lab: 'merge', params: { m: 100, n: 156, input: 'random', type: 'i32' } } as const;

/** Invocation `inv`'s latest probe at or before the moment (a warp's lanes probe in one step). */
const probeNow = (s: MomentState, inv: number) => mergeViewOf(s.trace).probes.filter((p) => p.step <= s.step && p.invocation === inv).at(-1);

/** Parallel merge from the course seed: co-rank, the merge path, and tiles in workgroup memory. */
export const mergeLesson: Lesson = {
  id: 'merge',
  courseOrder: 7.5,
  title: 'Parallel merge: every invocation finds its own share',
  summary: 'Merge two sorted arrays with each invocation binary-searching where its outputs start in A and B, then stage tiles in workgroup memory so each word is read once.',
  steps: [
    {
      ...base,
      title: 'Each invocation owns four outputs',
      variant: 'basic',
      moment: { kind: 'start' },
      narrative:
        'A has 24 sorted keys and B 40. The basic merge gives every invocation four consecutive outputs of C: invocation 3 owns outputs 12 to 15. Before it can write them it must know how many of the first 12 outputs come from A: the co-rank of 12. In the grid, A runs across and B down; the merged order is a staircase path from the top-left corner, and output k lies on the cross-diagonal i + j = k.',
      lookAt: 'the dashed cross-diagonals of the merge-path grid, one per invocation',
      question: {
        prompt: 'How many invocations own outputs (each owns four of the 64)?',
        answer: (s) => mergeViewOf(s.trace).slices.filter((x) => x !== undefined).length,
        explain: (s) => `64 outputs ÷ 4 per invocation = ${mergeViewOf(s.trace).slices.filter((x) => x !== undefined).length} invocations with a diagonal; the rest of the workgroup finds nothing to do.`,
      },
    },
    {
      ...base,
      title: 'Co-rank: a binary search on the cross-diagonal',
      variant: 'basic',
      moment: { kind: 'lab', name: 'probe', arg: '3' },
      narrative:
        'Invocation 3 searches diagonal 12. Each probe compares A[i] with B[11 − i]: if A[i] ≤ B[11 − i], A[i] is among the first 12 outputs and the answer lies above i; otherwise below. Equal keys count as A first, which keeps the merge stable. Every probed index is inside both arrays, so the search needs no bounds guard.',
      lookAt: 'the probe marker on invocation 3’s diagonal and the sentence above the grid',
      highlight: { code: ['if (a[mid] <= b[k - 1u - mid])'] },
      question: {
        prompt: 'Which index of A does this first probe read?',
        answer: (s) => probeNow(s, 3)?.i ?? -1,
        explain: (s) => `The search starts in the middle of i ∈ [0, 12]: A[${probeNow(s, 3)?.i ?? '?'}] against B[${probeNow(s, 3)?.j ?? '?'}].`,
      },
    },
    {
      ...base,
      title: 'Where the search lands',
      variant: 'basic',
      moment: { kind: 'lab', name: 'probe', arg: '3:last' },
      narrative:
        'After its last probe on the second diagonal (16), invocation 3 knows both ends of its share: i₀ elements of A precede output 12 and i₁ precede output 16. It merges A[i₀…i₁) with B[12 − i₀ … 16 − i₁) one output at a time.',
      lookAt: 'the invocation 3 line under the grid: where each search landed',
      question: {
        prompt: 'How many elements of A does invocation 3 take?',
        answer: (s) => elementsOfATaken(mergeViewOf(s.trace), 3),
        explain: (s) => `Subtract where its two searches landed: i₁ − i₀ = ${elementsOfATaken(mergeViewOf(s.trace), 3)}; the other ${4 - elementsOfATaken(mergeViewOf(s.trace), 3)} outputs come from B.`,
      },
    },
    {
      ...base,
      title: 'What the searches cost',
      variant: 'basic',
      moment: { kind: 'end' },
      narrative: `A search on a diagonal of r + 1 points takes ⌈log₂(r + 1)⌉ probes, never more than ⌈log₂ min(m, n)⌉ + 1 = ${coRankIterationBound(24, 40)} here. Every invocation runs two searches in global memory and then reads each candidate again while merging, so neighbours read the same words over and over.`,
      lookAt: 'the per-invocation table: probes and global loads per output',
      question: {
        prompt: 'How many probes did invocation 3 make in its two searches?',
        answer: (s) => mergeViewOf(s.trace).probesPerInvocation[3] ?? 0,
        explain: (s) => `The table’s row for invocation 3 reads ${mergeViewOf(s.trace).probesPerInvocation[3] ?? 0}: two searches of at most ${coRankIterationBound(24, 40)} each.`,
      },
    },
    {
      ...base,
      title: 'Many equal keys: A first',
      variant: 'basic',
      params: { ...base.params, input: 'duplicates' },
      moment: { kind: 'end' },
      narrative:
        'Now A and B hold only four distinct keys. On a tie the merge takes A’s element first, so the path runs across through all of A’s copies of a key before it goes down through B’s. The searches still land on one exact point per diagonal because ≤ breaks every tie the same way.',
      lookAt: 'the long horizontal runs of the path through equal keys',
      question: {
        prompt: 'How many elements of A does invocation 3 take now?',
        answer: (s) => elementsOfATaken(mergeViewOf(s.trace), 3),
        explain: (s) => `Its two searches landed ${elementsOfATaken(mergeViewOf(s.trace), 3)} apart along A.`,
      },
    },
    {
      ...tiledBase,
      title: 'Tiles: co-rank once per workgroup',
      variant: 'tiled',
      moment: { kind: 'after-barrier', n: 1 },
      narrative:
        'The tiled merge gives a workgroup of 32 invocations 128 outputs. Invocations 0 and 1 co-rank the tile’s two ends in global memory and store them in workgroup memory; after the barrier everyone knows which words of A and B the tile needs. The grid marks the tile as a dashed box.',
      lookAt: 'the dashed tile box in the grid',
      highlight: { code: ['bounds[lid] = co_rank(select(k0, k1, lid == 1u));'] },
      question: {
        prompt: 'How many elements of A does tile 0 hold?',
        answer: (s) => {
          const t = mergeViewOf(s.trace).tile;
          return t ? t.a1 - t.a0 : 0;
        },
        explain: (s) => {
          const t = mergeViewOf(s.trace).tile;
          return `bounds[1] − bounds[0] = ${t ? t.a1 - t.a0 : '?'}: the rest of its 128 outputs come from B.`;
        },
      },
    },
    {
      ...tiledBase,
      title: 'Each word read once',
      variant: 'tiled',
      moment: { kind: 'end' },
      narrative:
        'The workgroup loads its share of A and B into workgroup memory with consecutive invocations reading consecutive words, then every invocation co-ranks its four outputs again inside the tile and merges from workgroup memory. Global memory sees each input word once; the searches and the merge hit the tile instead.',
      lookAt: 'global loads per invocation in the table, against the basic merge',
      question: {
        prompt: 'How many words of A or B did invocation 5 read from global memory?',
        answer: (s) => mergeViewOf(s.trace).loadsPerInvocation[5] ?? 0,
        explain: (s) => `${mergeViewOf(s.trace).loadsPerInvocation[5] ?? 0}: its share of the coalesced tile load (128 words ÷ 32 invocations); invocation 5 makes no global probe at all.`,
      },
    },
  ],
};
