/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../i18n/catalog.ts';

const en = {
  'divergence.title': 'Warp divergence patterns',
  'divergence.summary':
    'The same two branches chosen two ways: by whether a thread’s index is even, which splits every warp, and by whether its warp’s index is even, which sends whole warps one way or the other. Count the divergent branches.',
  'even-odd.title': 'Even–odd: if (tid % 2 == 0)',
  'even-odd.summary':
    'Even invocations take the first branch and odd ones the second. Neighbouring lanes disagree, so every warp runs both branches in turn with half its lanes masked: one divergent branch per warp.',
  'warp-aligned.title': 'Warp-aligned: if ((tid / warpSize) % 2 == 0)',
  'warp-aligned.summary':
    'The branch follows the warp number, so all 32 lanes of a warp agree: even warps take the first branch, odd warps the second. The same work, and no warp splits.',
  'metric.warps': 'Warps launched',
  'metric.warps.hint': 'each reaches the branch once',
} as const;

export const m = createCatalog('lab-divergence', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
