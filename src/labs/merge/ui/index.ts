import { labPanel, type LabUi } from '../../../workbench/panel.ts';
import { m } from '../messages.ts';
import { MergePathPanel } from './MergePathPanel.tsx';

/** The merge lab's stage: the merge-path grid with every co-rank probe read from the trace. */
export const mergeUi: LabUi = {
  panels: [
    labPanel(() => m('ui.panel'), { id: 'merge-path', component: MergePathPanel }),
  ],
};
