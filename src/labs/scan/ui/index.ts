import { withTexts } from '../../../i18n/catalog.ts';
import { labPanel, type LabUi } from '../../../workbench/panel.ts';
import { BLELLOCH_PAIR, ScanInsights } from './ScanInsights.tsx';
import { m } from '../messages.ts';

/**
 * The scan lab's panel: sweeps, work counter and bank table. Its bank table compares Blelloch with
 * its padded twin, so it declares the twin as a companion simulation.
 */
export const scanUi: LabUi = withTexts(
  {
    panels: [
      labPanel(() => m('ui.panel'), {
        id: 'scan-insights',
        companions: (variant) => {
          const twin = variant.id in BLELLOCH_PAIR ? BLELLOCH_PAIR[variant.id as keyof typeof BLELLOCH_PAIR] : undefined;
          return twin ? [{ id: 'bank-twin', variant: twin }] : [];
        },
        component: ScanInsights,
      }),
    ],
  },
  { treeTitle: () => m('ui.treeTitle') },
);
