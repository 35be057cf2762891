import { convolutionPicture } from '../../trace.ts';
import { isConvolutionVariant } from '../../kernel.ts';
import { activeLanesNow, lessonFrom, type MomentState } from '../../../../workbench/lesson.ts';
import { m } from './messages.ts';

const image = { width: 48, height: 48, maskWidth: 5, outTile: 12 } as const;
const base = { lab: 'convolution', params: image } as const;

/** The picture of a step's trace, for the variant the step names. */
const pictureOf = (s: MomentState, variant: string) => convolutionPicture(s.trace, isConvolutionVariant(variant) ? variant : 'basic2d', image);

/** Convolution from the course seed: ghost cells, global loads per output, and a halo tile. */
export const convolutionLesson = lessonFrom(m, {
  id: 'convolution',
  courseOrder: 3.7,
  steps: [
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      variant: 'basic2d',
      moment: { kind: 'lab', name: 'phase', arg: 'store' },
      highlight: { code: ['if (y >= 0 && y < i32(params.height) && x >= 0 && x < i32(params.width)) {'] },
      question: { answer: (s) => pictureOf(s, 'basic2d').ghosts.size },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      variant: 'basic2d',
      moment: { kind: 'end' },
      question: { answer: (s) => Math.max(...pictureOf(s, 'basic2d').reads.values()) },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      variant: 'tiled',
      moment: { kind: 'after-barrier', n: 1 },
      highlight: { code: ['tile[ty * IN_TILE + tx] = 0.0; // a ghost cell'] },
      question: { answer: (s) => pictureOf(s, 'tiled').loadedBy.size },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      variant: 'tiled',
      moment: { kind: 'lab', name: 'phase', arg: 'compute' },
      highlight: { code: ['if (tx < OUT_TILE && ty < OUT_TILE) {'] },
      question: {
        answer: (s) => pictureOf(s, 'tiled').invocations - pictureOf(s, 'tiled').idle.length,
        explain: (s) => m('s4.explain', { length: pictureOf(s, 'tiled').invocations - pictureOf(s, 'tiled').idle.length, length2: pictureOf(s, 'tiled').idle.length }),
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', warp: 0 },
      variant: 'tiled',
      moment: { kind: 'lab', name: 'phase', arg: 'compute' },
      highlight: { warps: [0] },
      question: { answer: activeLanesNow },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      variant: 'tiled-vec4',
      moment: { kind: 'end' },
      question: { answer: (s) => pictureOf(s, 'tiled-vec4').idle.length },
    },
  ],
});
