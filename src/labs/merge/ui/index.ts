import type { LabUi } from '../../../workbench/panel.ts';
import { m } from '../messages.ts';
import { MergePathPanel } from './MergePathPanel.tsx';

/** The merge lab's stage: the merge-path grid with every co-rank probe read from the trace. */
export const mergeUi: LabUi = {
  panels: [
    {
      id: 'merge-path',
      get title() {
        return m('ui.panel');
      },
      component: MergePathPanel,
    },
  ],
};
