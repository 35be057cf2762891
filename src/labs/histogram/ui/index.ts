import { labPanel, type LabUi } from '../../../workbench/panel.ts';
import { HistogramStage } from './HistogramStage.tsx';
import { m } from '../messages.ts';

/** The histogram lab's panel: the bins filling and the lanes queued on each bin by the current atomic. */
export const histogramUi: LabUi = {
  panels: [
    labPanel(() => m('ui.panel'), { id: 'histogram-stage', component: HistogramStage }),
  ],
};
