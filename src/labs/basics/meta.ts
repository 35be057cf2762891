/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { m } from './messages.ts';
import { described, linearSpec } from '../../workbench/lab.ts';

export const basicsMeta = described(
  { id: 'basics', courseOrder: 1, params: linearSpec([256, 1000, 1024, 4096], 'f32'), variantCount: 2 },
  () => m('title'),
  () => m('summary'),
);
