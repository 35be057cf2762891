import { addressOfLane, type Lesson } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

/** Threads, blocks and grids: how every invocation finds its element, in 1-D and 2-D. */
export const indexingLesson: Lesson = {
  id: 'indexing',
  courseOrder: 1,
  get title() {
    return m('title');
  },
  get summary() {
    return m('summary');
  },
  steps: [
    {
      lab: 'basics',
      variant: 'vector-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid' },
      get title() {
        return m('s1.title');
      },
      moment: { kind: 'start' },
      get narrative() {
        return m('s1.narrative');
      },
      get lookAt() {
        return m('s1.lookAt');
      },
    },
    {
      lab: 'basics',
      variant: 'vector-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid', warp: 1 },
      get title() {
        return m('s2.title');
      },
      moment: { kind: 'first-access', memory: 'a', warp: 1 },
      get narrative() {
        return m('s2.narrative');
      },
      get lookAt() {
        return m('s2.lookAt');
      },
      highlight: { warps: [1], code: ['for (var i = gid.x'] },
      question: {
        get prompt() {
          return m('s2.prompt');
        },
        answer: (s) => addressOfLane(s, 5),
        explain: (s) => m('s2.explain', { addressOfLane: addressOfLane(s, 5) }),
      },
    },
    {
      lab: 'basics',
      variant: 'vector-add',
      params: { n: 1000, workgroupSize: 256 },
      stage: { panel: 'warp-grid', workgroup: 3 },
      get title() {
        return m('s3.title');
      },
      moment: { kind: 'end' },
      get narrative() {
        return m('s3.narrative');
      },
    },
    {
      lab: 'basics',
      variant: 'matrix-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid', warp: 1, lane: 0 },
      get title() {
        return m('s4.title');
      },
      moment: { kind: 'first-access', memory: 'a', warp: 1 },
      highlight: { warps: [1], code: ['let i = row * params.cols + col;'] },
      get narrative() {
        return m('s4.narrative');
      },
      question: {
        get prompt() {
          return m('s4.prompt');
        },
        answer: (s) => Math.floor(addressOfLane(s, 0) / 32),
        explain: (s) =>
          m('s4.explain', { addressOfLane: Math.floor(addressOfLane(s, 0) / 32), addressOfLane2: addressOfLane(s, 0) }),
      },
    },
    {
      lab: 'basics',
      variant: 'matrix-add',
      params: { n: 1024, workgroupSize: 256 },
      stage: { panel: 'warp-grid', warp: 1 },
      get title() {
        return m('s5.title');
      },
      moment: { kind: 'first-access', memory: 'a', warp: 1 },
      get narrative() {
        return m('s5.narrative');
      },
      question: {
        get prompt() {
          return m('s5.prompt');
        },
        answer: (s) => s.index.sectors[s.step]!,
        explain: (s) => m('s5.explain', { sectors: s.index.sectors[s.step]! }),
      },
    },
  ],
};
