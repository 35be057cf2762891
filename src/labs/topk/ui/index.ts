import type { LabUi } from '../../../workbench/panel.ts';
import { m } from '../messages.ts';
import { TopkPanel } from './TopkPanel.tsx';

/** The top-k lab's stage: the lanes' lists filling, the merge tree and the threshold, from the trace. */
export const topkUi: LabUi = {
  // The "Tree" tab shows how the invocations' lists merge, not a sum: named in the lab's terms.
  get treeTitle() {
    return m('ui.treeTitle');
  },
  panels: [
    {
      id: 'topk-stage',
      get title() {
        return m('ui.panel');
      },
      component: TopkPanel,
    },
  ],
};
