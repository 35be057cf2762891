import { labPanel, type LabUi } from '../../../workbench/panel.ts';
import { MatmulStage, WHOLE_DISPATCH, WHOLE_DISPATCH_FMAS } from './MatmulStage.tsx';
import { Roofline, rooflineCompanions } from './Roofline.tsx';
import { m } from '../messages.ts';

/**
 * The matrix-multiply lab's panels: the stage (A, B, C, the tiles, load counts, banks) and the
 * roofline, which simulates every other variant as a companion to place it by intensity.
 */
export const matmulUi: LabUi = {
  panels: [
    labPanel(() => m('ui.stage'), {
      id: 'matmul-stage',
      // The same variant with every workgroup traced, for the whole-dispatch counts (small multiplies only).
      companions: (variant, params) =>
        Number(params.m) * Number(params.n) * Number(params.k) <= WHOLE_DISPATCH_FMAS ? [{ id: WHOLE_DISPATCH, variant: variant.id, traceAll: true }] : [],
      component: MatmulStage,
    }),
    labPanel(() => m('ui.roofline'), {
      id: 'matmul-roofline',
      companions: rooflineCompanions,
      component: Roofline,
    }),
  ],
};
