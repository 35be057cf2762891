import type { LabUi } from '../../ui.ts';
import { MergePathPanel } from './MergePathPanel.tsx';

/** The merge lab's stage: the merge-path grid with every co-rank probe read from the trace. */
export const mergeUi: LabUi = {
  panels: [{ id: 'merge-path', title: 'Merge path and co-rank probes', component: MergePathPanel }],
};
