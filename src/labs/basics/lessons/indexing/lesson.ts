import { addressOfLane, lessonFrom } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

/** Threads, blocks and grids: how every invocation finds its element, in 1-D and 2-D. */
export const indexingLesson = lessonFrom(m, {
  id: 'indexing',
  courseOrder: 1,
  steps: [
    {
      lab: 'basics',
      variant: 'vector-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid', width: 'picture' },
      moment: { kind: 'start' },
    },
    {
      lab: 'basics',
      variant: 'vector-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid', warp: 1 },
      moment: { kind: 'first-access', memory: 'a', warp: 1 },
      highlight: { warps: [1], code: ['for (var i = gid.x'] },
      question: { answer: (s) => addressOfLane(s, 5) },
    },
    {
      lab: 'basics',
      variant: 'vector-add',
      params: { n: 1000, workgroupSize: 256 },
      stage: { panel: 'warp-grid', workgroup: 3 },
      moment: { kind: 'end' },
    },
    {
      lab: 'basics',
      variant: 'matrix-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid', warp: 1, lane: 0 },
      moment: { kind: 'first-access', memory: 'a', warp: 1 },
      highlight: { warps: [1], code: ['let i = row * params.cols + col;'] },
      question: {
        answer: (s) => Math.floor(addressOfLane(s, 0) / 32),
        explain: (s) =>
          m('s4.explain', { addressOfLane: Math.floor(addressOfLane(s, 0) / 32), addressOfLane2: addressOfLane(s, 0) }),
      },
    },
    {
      lab: 'basics',
      variant: 'matrix-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid', warp: 1, width: 'picture' },
      moment: { kind: 'first-access', memory: 'a', warp: 1 },
      question: { answer: (s) => s.index.sectors[s.step]! },
    },
  ],
});
