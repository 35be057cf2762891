/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../../../i18n/catalog.ts';

const en = {
  'title': 'Warps and control divergence',
  'summary': 'Why a branch on the thread index can cost a whole warp, and how to arrange the work so it does not.',
  's1.title': 'Invocations come in warps',
  's1.narrative': 'One workgroup of 256 invocations — a CUDA block of 256 threads. The hardware never runs one invocation alone: it issues an instruction for a warp of 32 consecutive invocations at once, one lane each. The warp grid draws one row per warp.',
  's1.lookAt': 'the warp grid',
  's1.prompt': 'How many warps does this workgroup have?',
  's2.title': 'A branch on the lane index',
  's2.narrative': 'At the first tree level, only invocations whose index is a multiple of 2 add (lid % 2 == 0). The warp cannot run half an instruction: it runs the add with the odd lanes masked off. Masked lanes are hatched; they wait, doing nothing, while the others work.',
  's2.lookAt': 'the hatched lanes of the current warp',
  's2.prompt': 'How many lanes of the current warp are active in this step?',
  's3.title': 'Every warp diverges, every level',
  's3.narrative': 'Later levels pick every 4th, 8th, 16th lane. Each warp still holds some working lanes, so each warp still executes the branch and splits. The metrics count one divergent branch per warp per split.',
  's3.lookAt': 'the divergence marks and the Divergent branches metric',
  's3.prompt': 'How many divergent branches does this kernel take in its one workgroup?',
  's4.title': 'Pack the workers together',
  's4.narrative': 'The interleaved tree adds lid and lid + s for lid < s. The working invocations are always the first s, so whole warps work or whole warps rest: for s = 128, 64 and 32 no warp splits at all.',
  's4.lookAt': 'warps with no divergence mark',
  's4.prompt': 'How many warps are split by a branch right now?',
  's5.title': 'Only the last levels split a warp',
  's5.narrative': 'Once s drops below 32, only warp 0 splits: five levels, plus invocation 0’s final store. Far fewer divergent branches, and 1.69× faster on the course posts’ Tesla M2070.',
  's5.prompt': 'How many divergent branches does the interleaved kernel take?',
  's1.explain': 'Count the rows of the warp grid: 256 invocations ÷ 32 lanes = {answer}, not {given}.',
  's2.explain': 'Count the solid squares in the marked row: {answer} lanes run this instruction; the hatched ones are masked. (You answered {given}.)',
  's3.explain': 'The Metrics panel says {answer}: 8 warps split at the levels with stride 1 to 16 (40), then 4, 2 and 1 warps, plus the final lid == 0.',
  's4.explain': 'Look for divergence marks in the warp grid: there are {answer}. Whole warps rest instead of splitting.',
  's5.explain': 'The Metrics panel counts {answer}: s = 16, 8, 4, 2, 1 in warp 0, and the final lid == 0.',
} as const;

export const m = createCatalog('lesson-divergence', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
