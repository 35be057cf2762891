import { withTexts } from '../../../i18n/catalog.ts';
import { labPanel, type LabUi } from '../../../workbench/panel.ts';
import { m } from '../messages.ts';
import { TopkPanel } from './TopkPanel.tsx';

/** The top-k lab's stage: the lanes' lists filling, the merge tree and the threshold, from the trace. */
export const topkUi: LabUi = withTexts(
  {
    panels: [labPanel(() => m('ui.panel'), { id: 'topk-stage', component: TopkPanel })],
  },
  // The "Tree" tab shows how the invocations' lists merge, not a sum: named in the lab's terms.
  { treeTitle: () => m('ui.treeTitle') },
);
