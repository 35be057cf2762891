/** The basics lab's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../i18n/catalog.ts';

const en = {
  title: 'Threads, blocks and grids',
  summary: 'How each invocation finds its element: global indices in a 1-D grid, rows and columns in a 2-D one, and how warps cut through them.',
  'variant.vector-add.title': 'Vector add (1-D grid)',
  'variant.vector-add.summary': 'One invocation per element: its global index is workgroup × workgroup size + local index, and a grid-stride loop covers any n.',
  'variant.matrix-add.title': 'Matrix add (2-D grid)',
  'variant.matrix-add.summary': 'Invocations in 16 × 16 tiles: x picks the column, y the row, and row × cols + col finds the element in row-major storage.',
} as const;

export const m = createCatalog('lab-basics', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
