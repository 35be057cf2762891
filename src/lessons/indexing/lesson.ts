import { addressOfLane, type Lesson } from '../types.ts';

/** Threads, blocks and grids: how every invocation finds its element, in 1-D and 2-D. */
export const indexingLesson: Lesson = {
  id: 'indexing',
  courseOrder: 1,
  title: 'Threads, blocks and grids',
  summary: 'How each invocation finds the element it works on, in a 1-D grid and a 2-D one, and how warps cut through both.',
  steps: [
    {
      lab: 'basics',
      variant: 'vector-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid' },
      title: 'One invocation per element',
      moment: { kind: 'start' },
      narrative:
        'Vector add launches 4 workgroups of 256 invocations for 1 024 elements — in CUDA, a grid of 4 blocks of 256 threads. Every invocation runs the same code; only its ids differ. We trace workgroup 0 here: 8 warps of 32 lanes.',
      lookAt: 'the code pane and the warp grid',
    },
    {
      lab: 'basics',
      variant: 'vector-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid', warp: 1, lane: 5 },
      title: 'The global index',
      moment: { kind: 'first-access', memory: 'a', warp: 1 },
      narrative:
        'Invocation i of workgroup w works on element w × 256 + i — global_invocation_id.x in WGSL, blockIdx.x × blockDim.x + threadIdx.x in CUDA. Warp 1 holds invocations 32 to 63, so its lanes read a[32] to a[63] together: one neat run of 128 bytes.',
      lookAt: 'the step description and the lane details',
      highlight: { warps: [1], code: ['for (var i = gid.x'] },
      question: {
        prompt: 'Which element of a does lane 5 of warp 1 read?',
        answer: (s) => addressOfLane(s, 5),
        explain: (s) => `Warp 1 starts at invocation 32, so lane 5 is invocation 37 of workgroup 0 and reads a[${addressOfLane(s, 5)}]. Hover lane 5 of warp 1 to see it.`,
      },
    },
    {
      lab: 'basics',
      variant: 'vector-add',
      params: { n: 1000, workgroupSize: 256 },
      stage: { panel: 'warp-grid', workgroup: 3 },
      title: 'More invocations than elements',
      moment: { kind: 'end' },
      narrative:
        'For 1 000 elements the grid is still rounded up to whole workgroups, so some invocations have no element. The loop condition i < n keeps them idle — and in a larger run the same loop, stepping by the whole grid, lets a small grid cover any n.',
    },
    {
      lab: 'basics',
      variant: 'matrix-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid', warp: 1, lane: 0 },
      title: 'A 2-D grid for a matrix',
      moment: { kind: 'first-access', memory: 'a', warp: 1 },
      highlight: { warps: [1], code: ['let i = row * params.cols + col;'] },
      narrative:
        'For a 32 × 32 matrix the grid is 2 × 2 tiles of 16 × 16. Invocation (x, y) takes column x and row y, and finds its element at row × 32 + col in row-major storage. Invocations are numbered x fastest, so warp 1 (invocations 32–63 of the tile) covers rows 2 and 3.',
      question: {
        prompt: 'Which row of the matrix does lane 0 of warp 1 work on?',
        answer: (s) => Math.floor(addressOfLane(s, 0) / 32),
        explain: (s) =>
          `Lane 0 of warp 1 is invocation 32 of the tile: x = 32 mod 16 = 0, y = 32 ÷ 16 = 2 — row ${Math.floor(addressOfLane(s, 0) / 32)} (element a[${addressOfLane(s, 0)}]).`,
      },
    },
    {
      lab: 'basics',
      variant: 'matrix-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid', warp: 1 },
      title: 'Warps and memory in 2-D',
      moment: { kind: 'first-access', memory: 'a', warp: 1 },
      narrative:
        'A warp of a 16-wide tile reads two rows of 16 floats: two separate 64-byte runs instead of one 128-byte run. Memory is served in 32-byte sectors, so what matters is how many sectors a warp request touches.',
      question: {
        prompt: 'How many 32-byte sectors does this warp request touch?',
        answer: (s) => s.index.sectors[s.step]!,
        explain: (s) => `Two rows of 16 floats are 2 × 64 bytes = 2 × 2 sectors: ${s.index.sectors[s.step]}. The Metrics panel shows it for the current step.`,
      },
    },
  ],
};
