import type { LabUi } from '../../ui.ts';
import { HistogramStage } from './HistogramStage.tsx';

/** The histogram lab's panel: the bins filling and the lanes queued on each bin by the current atomic. */
export const histogramUi: LabUi = {
  panels: [{ id: 'histogram-stage', title: 'Bins and atomic queues', component: HistogramStage }],
};
