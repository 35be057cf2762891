import type { LabUi } from '../../ui.ts';
import { MatmulStage } from './MatmulStage.tsx';
import { Roofline, rooflineCompanions } from './Roofline.tsx';

/**
 * The matrix-multiply lab's panels: the stage (A, B, C, the tiles, load counts, banks) and the
 * roofline, which simulates every other variant as a companion to place it by intensity.
 */
export const matmulUi: LabUi = {
  panels: [
    { id: 'matmul-stage', title: 'Stage: tiles, load counts and banks', component: MatmulStage },
    { id: 'matmul-roofline', title: 'Roofline', companions: rooflineCompanions, component: Roofline },
  ],
};
