/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { linearSpec } from '../lab.ts';

export const basicsMeta = {
  id: 'basics',
  courseOrder: 1,
  title: 'Threads, blocks and grids',
  summary:
    'How each invocation finds its element: global indices in a 1-D grid, rows and columns in a 2-D one, and how warps cut through them.',
  params: linearSpec([256, 1000, 1024, 4096], 'f32'),
  variantCount: 2,
} as const;
