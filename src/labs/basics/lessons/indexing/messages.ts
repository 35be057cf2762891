/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../../../i18n/catalog.ts';

const en = {
  'title': 'Threads, blocks and grids',
  'summary': 'How each invocation finds the element it works on, in a 1-D grid and a 2-D one, and how warps cut through both.',
  's1.title': 'One invocation per element',
  's1.narrative': 'Vector add launches 4 workgroups of 256 invocations for 1 024 elements — in CUDA, a grid of 4 blocks of 256 threads. Every invocation runs the same code; only its ids differ. We trace workgroup 0 here: 8 warps of 32 lanes.',
  's1.lookAt': 'the code pane and the warp grid',
  's2.title': 'The global index',
  's2.narrative': 'Invocation i of workgroup w works on element w × 256 + i — global_invocation_id.x in WGSL, blockIdx.x × blockDim.x + threadIdx.x in CUDA. Warp 1 holds invocations 32 to 63, so its lanes read a[32] to a[63] together: one neat run of 128 bytes.',
  's2.lookAt': 'the step description and the lane details',
  's2.prompt': 'Which element of a does lane 5 of warp 1 read?',
  's3.title': 'More invocations than elements',
  's3.narrative': 'For 1 000 elements the grid is still rounded up to whole workgroups, so some invocations have no element. The loop condition i < n keeps them idle — and in a larger run the same loop, stepping by the whole grid, lets a small grid cover any n.',
  's4.title': 'A 2-D grid for a matrix',
  's4.narrative': 'For a 32 × 32 matrix the grid is 2 × 2 tiles of 16 × 16. Invocation (x, y) takes column x and row y, and finds its element at row × 32 + col in row-major storage. Invocations are numbered x fastest, so warp 1 (invocations 32–63 of the tile) covers rows 2 and 3.',
  's4.prompt': 'Which row of the matrix does lane 0 of warp 1 work on?',
  's5.title': 'Warps and memory in 2-D',
  's5.narrative': 'A warp of a 16-wide tile reads two rows of 16 floats: two separate 64-byte runs instead of one 128-byte run. Memory is served in 32-byte sectors, so what matters is how many sectors a warp request touches.',
  's5.prompt': 'How many 32-byte sectors does this warp request touch?',
  's2.explain': 'Warp 1 starts at invocation 32, so lane 5 is invocation 37 of workgroup 0 and reads a[{answer}]. Hover lane 5 of warp 1 to see it.',
  's4.explain': 'Lane 0 of warp 1 is invocation 32 of the tile: x = 32 mod 16 = 0, y = 32 ÷ 16 = 2 — row {addressOfLane} (element a[{addressOfLane2}]).',
  's5.explain': 'Two rows of 16 floats are 2 × 64 bytes = 2 × 2 sectors: {answer}. The Metrics panel shows it for the current step.',
} as const;

export const m = createCatalog('lesson-indexing', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
