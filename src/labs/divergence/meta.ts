/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { m } from './messages.ts';
import { described, elementCountField, workgroupSizeField } from '../../workbench/lab.ts';

/** n (key `n`) elements, one invocation each, in workgroups of `wg` (whole warps). */
export const divergenceSpec = {
  n: elementCountField([256, 1000, 1024, 4096]),
  workgroupSize: workgroupSizeField(),
};

// Right after threads and blocks, before the reductions whose divergence it explains.
export const divergenceMeta = described(
  { id: 'divergence', courseOrder: 1.5, params: divergenceSpec, variantCount: 2 },
  () => m('divergence.title'),
  () => m('divergence.summary'),
);
