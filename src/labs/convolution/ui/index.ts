import type { LabUi } from '../../ui.ts';
import { ConvolutionStage } from './ConvolutionStage.tsx';

/** The convolution lab's panel: the input plane of the traced workgroup, and its invocations. */
export const convolutionUi: LabUi = {
  panels: [{ id: 'convolution-stage', title: 'Input plane, halo and ghost cells', component: ConvolutionStage }],
};
