import { convolutionPicture } from '../../trace.ts';
import { isConvolutionVariant } from '../../kernel.ts';
import { activeLanesNow, type Lesson, type MomentState } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const image = { width: 48, height: 48, maskWidth: 5, outTile: 12 } as const;
const base = { lab: 'convolution', params: image } as const;

/** The picture of a step's trace, for the variant the step names. */
const pictureOf = (s: MomentState, variant: string) => convolutionPicture(s.trace, isConvolutionVariant(variant) ? variant : 'basic2d', image);

/** Convolution from the course seed: ghost cells, global loads per output, and a halo tile. */
export const convolutionLesson: Lesson = {
  id: 'convolution',
  courseOrder: 3.7,
  get title() {
    return m('title');
  },
  get summary() {
    return m('summary');
  },
  steps: [
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      get title() {
        return m('s1.title');
      },
      variant: 'basic2d',
      moment: { kind: 'lab', name: 'phase', arg: 'store' },
      get narrative() {
        return m('s1.narrative');
      },
      get lookAt() {
        return m('s1.lookAt');
      },
      highlight: { code: ['if (y >= 0 && y < i32(params.height) && x >= 0 && x < i32(params.width)) {'] },
      question: {
        get prompt() {
          return m('s1.prompt');
        },
        answer: (s) => pictureOf(s, 'basic2d').ghosts.size,
        explain: (s) => m('s1.explain', { size: pictureOf(s, 'basic2d').ghosts.size }),
      },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      get title() {
        return m('s2.title');
      },
      variant: 'basic2d',
      moment: { kind: 'end' },
      get narrative() {
        return m('s2.narrative');
      },
      get lookAt() {
        return m('s2.lookAt');
      },
      question: {
        get prompt() {
          return m('s2.prompt');
        },
        answer: (s) => Math.max(...pictureOf(s, 'basic2d').reads.values()),
        explain: (s) => m('s2.explain', { values: Math.max(...pictureOf(s, 'basic2d').reads.values()) }),
      },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      get title() {
        return m('s3.title');
      },
      variant: 'tiled',
      moment: { kind: 'after-barrier', n: 1 },
      get narrative() {
        return m('s3.narrative');
      },
      get lookAt() {
        return m('s3.lookAt');
      },
      highlight: { code: ['tile[ty * IN_TILE + tx] = 0.0; // a ghost cell'] },
      question: {
        get prompt() {
          return m('s3.prompt');
        },
        answer: (s) => pictureOf(s, 'tiled').loadedBy.size,
        explain: (s) => m('s3.explain', { size: pictureOf(s, 'tiled').loadedBy.size }),
      },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      get title() {
        return m('s4.title');
      },
      variant: 'tiled',
      moment: { kind: 'lab', name: 'phase', arg: 'compute' },
      get narrative() {
        return m('s4.narrative');
      },
      get lookAt() {
        return m('s4.lookAt');
      },
      highlight: { code: ['if (tx < OUT_TILE && ty < OUT_TILE) {'] },
      question: {
        get prompt() {
          return m('s4.prompt');
        },
        answer: (s) => pictureOf(s, 'tiled').invocations - pictureOf(s, 'tiled').idle.length,
        explain: (s) => m('s4.explain', { length: pictureOf(s, 'tiled').invocations - pictureOf(s, 'tiled').idle.length, length2: pictureOf(s, 'tiled').idle.length }),
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', warp: 0 },
      get title() {
        return m('s5.title');
      },
      variant: 'tiled',
      moment: { kind: 'lab', name: 'phase', arg: 'compute' },
      get narrative() {
        return m('s5.narrative');
      },
      get lookAt() {
        return m('s5.lookAt');
      },
      highlight: { warps: [0] },
      question: {
        get prompt() {
          return m('s5.prompt');
        },
        answer: activeLanesNow,
        explain: (s) => m('s5.explain', { activeLanesNow: activeLanesNow(s) }),
      },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      get title() {
        return m('s6.title');
      },
      variant: 'tiled-vec4',
      moment: { kind: 'end' },
      get narrative() {
        return m('s6.narrative');
      },
      get lookAt() {
        return m('s6.lookAt');
      },
      question: {
        get prompt() {
          return m('s6.prompt');
        },
        answer: (s) => pictureOf(s, 'tiled-vec4').idle.length,
        explain: (s) => m('s6.explain', { length: pictureOf(s, 'tiled-vec4').idle.length }),
      },
    },
  ],
};
