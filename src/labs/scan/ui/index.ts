import type { LabUi } from '../../ui.ts';
import { BLELLOCH_PAIR, ScanInsights } from './ScanInsights.tsx';

/**
 * The scan lab's panel: sweeps, work counter and bank table. Its bank table compares Blelloch with
 * its padded twin, so it declares the twin as a companion simulation.
 */
export const scanUi: LabUi = {
  treeTitle: 'Scan dataflow',
  panels: [
    {
      id: 'scan-insights',
      title: 'Scan sweeps, work and banks',
      companions: (variant) => {
        const twin = variant.id in BLELLOCH_PAIR ? BLELLOCH_PAIR[variant.id as keyof typeof BLELLOCH_PAIR] : undefined;
        return twin ? [{ id: 'bank-twin', variant: twin }] : [];
      },
      component: ScanInsights,
    },
  ],
};
