import { convolutionPicture } from '../../labs/convolution/trace.ts';
import { isConvolutionVariant } from '../../labs/convolution/kernel.ts';
import { activeLanesNow, type Lesson, type MomentState } from '../types.ts';

const image = { width: 48, height: 48, maskWidth: 5, outTile: 12 } as const;
const base = { lab: 'convolution', params: image } as const;

/** The picture of a step's trace, for the variant the step names. */
const pictureOf = (s: MomentState, variant: string) => convolutionPicture(s.trace, isConvolutionVariant(variant) ? variant : 'basic2d', image);

/** Convolution from the course seed: ghost cells, global loads per output, and a halo tile. */
export const convolutionLesson: Lesson = {
  id: 'convolution',
  courseOrder: 3.7,
  title: 'Convolution: ghost cells, halos and idle invocations',
  summary: 'Convolve a 48 × 48 image with a 5 × 5 mask: zeros past the border, how often each pixel is read, and a tile with its halo in workgroup memory.',
  steps: [
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      title: 'Ghost cells at the border',
      variant: 'basic2d',
      moment: { kind: 'lab', name: 'phase', arg: 'store' },
      narrative:
        'One invocation per output pixel. Output (row, col) sums the 5 × 5 neighbourhood centred on it, times the mask. Near the border part of that neighbourhood lies outside the image: those are ghost cells, counted as 0, so the invocation skips them. Workgroup 0 sits in the top-left corner.',
      lookAt: 'the crossed cells above and left of the image',
      highlight: { code: ['if (y >= 0 && y < i32(params.height) && x >= 0 && x < i32(params.width)) {'] },
      question: {
        prompt: 'How many ghost cells surround workgroup 0’s 16 × 16 outputs?',
        answer: (s) => pictureOf(s, 'basic2d').ghosts.size,
        explain: (s) => `The summary counts ${pictureOf(s, 'basic2d').ghosts.size}: the 20 × 20 box within 2 cells of the outputs, less the 18 × 18 of it inside the image.`,
      },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      title: 'Every output reads 25 values from global memory',
      variant: 'basic2d',
      moment: { kind: 'end' },
      narrative:
        'Inside the image each output makes 25 global loads, and its neighbours load almost the same 25 values. The shading shows how many outputs read each input cell: up to 25 in the middle of the tile.',
      lookAt: 'the darkest cells of the plane, and Global loads of the image',
      question: {
        prompt: 'How many times do this workgroup’s outputs read the input cell read most often?',
        answer: (s) => Math.max(...pictureOf(s, 'basic2d').reads.values()),
        explain: (s) => `The darkest cells read ${Math.max(...pictureOf(s, 'basic2d').reads.values())} times: once per mask position that covers them.`,
      },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      title: 'A tile with its halo',
      variant: 'tiled',
      moment: { kind: 'after-barrier', n: 1 },
      narrative:
        'The seed’s tiled kernel: a 16 × 16 workgroup loads a 16 × 16 input tile into workgroup memory, one cell per invocation. It covers a 12 × 12 output tile plus a halo ring of 2 cells on every side, because a 5 × 5 mask reaches 2 cells out; for workgroup 0 the top and left rings are ghost cells, loaded as zeros.',
      lookAt: 'the dashed halo ring and the crossed ghost cells',
      highlight: { code: ['tile[ty * IN_TILE + tx] = 0.0; // a ghost cell'] },
      question: {
        prompt: 'How many input cells did the workgroup bring into its tile, ghosts included?',
        answer: (s) => pictureOf(s, 'tiled').loadedBy.size,
        explain: (s) => `${pictureOf(s, 'tiled').loadedBy.size} = 16 × 16: every invocation loaded one cell.`,
      },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      title: 'Only the inner invocations compute',
      variant: 'tiled',
      moment: { kind: 'lab', name: 'phase', arg: 'compute' },
      narrative:
        'After the barrier only invocations with tx < 12 and ty < 12 compute an output; the others loaded halo cells and now wait. The hatched squares below the plane are those idle invocations.',
      lookAt: 'the hatched invocations',
      highlight: { code: ['if (tx < OUT_TILE && ty < OUT_TILE) {'] },
      question: {
        prompt: 'How many of the 256 invocations compute an output?',
        answer: (s) => pictureOf(s, 'tiled').invocations - pictureOf(s, 'tiled').idle.length,
        explain: (s) => `${pictureOf(s, 'tiled').invocations - pictureOf(s, 'tiled').idle.length} = 12 × 12 compute; ${pictureOf(s, 'tiled').idle.length} are hatched.`,
      },
    },
    {
      ...base,
      stage: { panel: 'warp-grid', warp: 0 },
      title: 'Idle lanes inside a warp',
      variant: 'tiled',
      moment: { kind: 'lab', name: 'phase', arg: 'compute' },
      narrative:
        'A warp here is two rows of 16 invocations. In each row the last 4 invocations are idle, so the warps that compute run with lanes masked off, and the last two warps (rows 12 to 15) do not compute at all.',
      lookAt: 'the warp grid: masked lanes in warp 0',
      highlight: { warps: [0] },
      question: {
        prompt: 'How many lanes of warp 0 are active in the first instruction of the compute phase?',
        answer: activeLanesNow,
        explain: (s) => `Warp 0 holds rows 0 and 1, 12 computing invocations each: ${activeLanesNow(s)} active lanes.`,
      },
    },
    {
      ...base,
      stage: { panel: 'convolution-stage' },
      title: 'Every invocation computes',
      variant: 'tiled-vec4',
      moment: { kind: 'end' },
      narrative:
        'The fast tile turns it around: 256 invocations load a 72 × 36 tile (64 × 32 outputs and the halo) as vec4s in a loop, then each computes a 4 × 2 block of outputs from three vec4s per tile row and stores each row of four as one vec4. No invocation is idle and the halo is a smaller share of the tile.',
      lookAt: 'the invocations: none hatched',
      question: {
        prompt: 'How many invocations are idle in the compute phase now?',
        answer: (s) => pictureOf(s, 'tiled-vec4').idle.length,
        explain: (s) => `${pictureOf(s, 'tiled-vec4').idle.length}: every invocation stores eight outputs.`,
      },
    },
  ],
};
