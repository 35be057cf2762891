import { labPanel, type LabUi } from '../../../workbench/panel.ts';
import { m } from '../messages.ts';
import { ConvolutionStage } from './ConvolutionStage.tsx';

/** The convolution lab's panel: the input plane of the traced workgroup, and its invocations. */
export const convolutionUi: LabUi = {
  panels: [
    labPanel(() => m('ui.panel'), { id: 'convolution-stage', component: ConvolutionStage }),
  ],
};
