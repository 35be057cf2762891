import type { LabUi } from '../../ui.ts';
import { TopkPanel } from './TopkPanel.tsx';

/** The top-k lab's stage: the lanes' lists filling, the merge tree and the threshold, from the trace. */
export const topkUi: LabUi = {
  panels: [{ id: 'topk-stage', title: 'Lists, merge tree and threshold', component: TopkPanel }],
};
