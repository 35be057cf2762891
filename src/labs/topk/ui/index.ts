import type { LabUi } from '../../../workbench/panel.ts';
import { m } from '../messages.ts';
import { TopkPanel } from './TopkPanel.tsx';

/** The top-k lab's stage: the lanes' lists filling, the merge tree and the threshold, from the trace. */
export const topkUi: LabUi = {
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
