/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { linearSpec } from '../lab.ts';

export const reduceMeta = {
  id: 'reduce',
  courseOrder: 2,
  title: 'Parallel reduction',
  summary:
    'Sum an array with thousands of threads: from a tree in global memory, through divergent and conflicting shared-memory trees, to a bandwidth-bound grid-stride kernel.',
  params: linearSpec([64, 256, 1000, 1024, 4096], 'u32'),
  variantCount: 10,
} as const;
