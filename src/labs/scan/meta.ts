/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { m } from './messages.ts';
import { described, linearSpec } from '../../workbench/lab.ts';

export const scanMeta = described(
  { id: 'scan', courseOrder: 3, params: linearSpec([64, 256, 512, 1000, 1024, 4096], 'u32'), variantCount: 9 },
  () => m('scan.title'),
  () => m('scan.summary'),
);
