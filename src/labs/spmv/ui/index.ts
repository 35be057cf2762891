import { labPanel, type LabUi } from '../../../workbench/panel.ts';
import { m } from '../messages.ts';
import { SpmvStage } from './SpmvStage.tsx';

/** The SpMV lab's panel: one matrix in every format with the current warp's lanes laid over it. */
export const spmvUi: LabUi = {
  panels: [
    labPanel(() => m('ui.panel'), { id: 'spmv-stage', component: SpmvStage }),
  ],
};
