import { activeLanesNow, divergentWarps, type Lesson } from '../types.ts';

const base = { lab: 'reduce', params: { n: 256, workgroupSize: 256 } } as const;

/** Warps and control divergence, on the shared-memory reductions of the reduction lab. */
export const divergenceLesson: Lesson = {
  id: 'divergence',
  courseOrder: 2,
  title: 'Warps and control divergence',
  summary: 'Why a branch on the thread index can cost a whole warp, and how to arrange the work so it does not.',
  steps: [
    {
      ...base,
      stage: { panel: 'warp-grid' },
      title: 'Invocations come in warps',
      variant: 'neighbored',
      moment: { kind: 'start' },
      narrative:
        'One workgroup of 256 invocations — a CUDA block of 256 threads. The hardware never runs one invocation alone: it issues an instruction for a warp of 32 consecutive invocations at once, one lane each. The warp grid draws one row per warp.',
      lookAt: 'the warp grid',
      question: {
        prompt: 'How many warps does this workgroup have?',
        answer: (s) => s.index.warpCount,
        explain: (s, given) => `Count the rows of the warp grid: 256 invocations ÷ 32 lanes = ${s.index.warpCount}, not ${given}.`,
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      title: 'A branch on the lane index',
      variant: 'neighbored',
      moment: { kind: 'divergence' },
      narrative:
        'At the first tree level, only invocations whose index is a multiple of 2 add (lid % 2 == 0). The warp cannot run half an instruction: it runs the add with the odd lanes masked off. Masked lanes are hatched; they wait, doing nothing, while the others work.',
      lookAt: 'the hatched lanes of the current warp',
      highlight: { warps: [0], code: ['lid % (2u * s) == 0u'] },
      question: {
        prompt: 'How many lanes of the current warp are active in this step?',
        answer: activeLanesNow,
        explain: (s, given) =>
          `Count the solid squares in the marked row: ${activeLanesNow(s)} lanes run this instruction; the hatched ones are masked. (You answered ${given}.)`,
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      title: 'Every warp diverges, every level',
      variant: 'neighbored',
      moment: { kind: 'divergence', n: 9 },
      narrative:
        'Later levels pick every 4th, 8th, 16th lane. Each warp still holds some working lanes, so each warp still executes the branch and splits. The metrics count one divergent branch per warp per split.',
      lookAt: 'the divergence marks and the Divergent branches metric',
      question: {
        prompt: 'How many divergent branches does this kernel take in its one workgroup?',
        answer: (s) => s.metrics.divergentBranches,
        explain: (s) =>
          `The Metrics panel says ${s.metrics.divergentBranches}: 8 warps split at the levels with stride 1 to 16 (40), then 4, 2 and 1 warps, plus the final lid == 0.`,
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      title: 'Pack the workers together',
      variant: 'interleaved',
      moment: { kind: 'after-barrier', n: 2 },
      narrative:
        'The interleaved tree adds lid and lid + s for lid < s. The working invocations are always the first s, so whole warps work or whole warps rest: for s = 128, 64 and 32 no warp splits at all.',
      lookAt: 'warps with no divergence mark',
      highlight: { code: ['if (lid < s)'] },
      question: {
        prompt: 'How many warps are split by a branch right now?',
        answer: divergentWarps,
        explain: (s) => `Look for divergence marks in the warp grid: there are ${divergentWarps(s)}. Whole warps rest instead of splitting.`,
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid' },
      title: 'Only the last levels split a warp',
      variant: 'interleaved',
      moment: { kind: 'end' },
      narrative:
        'Once s drops below 32, fewer than 32 invocations work and only warp 0 splits: five levels, plus the final store by invocation 0. The same sums, far fewer divergent branches, and on the seeds’ Tesla M2070 a 1.69× faster kernel.',
      question: {
        prompt: 'How many divergent branches does the interleaved kernel take?',
        answer: (s) => s.metrics.divergentBranches,
        explain: (s) => `The Metrics panel counts ${s.metrics.divergentBranches}: s = 16, 8, 4, 2, 1 in warp 0, and the final lid == 0.`,
      },
    },
  ],
};
