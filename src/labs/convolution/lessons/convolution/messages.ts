/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../../../i18n/catalog.ts';

const en = {
  'title': 'Convolution: ghost cells, halos and idle invocations',
  'summary': 'Convolve a 48 × 48 image with a 5 × 5 mask: zeros past the border, how often each pixel is read, and a tile with its halo in workgroup memory.',
  's1.title': 'Ghost cells at the border',
  's1.narrative': 'One invocation per output pixel. Output (row, col) sums the 5 × 5 neighbourhood centred on it, times the mask. Near the border part of that neighbourhood lies outside the image: those are ghost cells, counted as 0, so the invocation skips them. Workgroup 0 sits in the top-left corner.',
  's1.lookAt': 'the crossed cells above and left of the image',
  's1.prompt': 'How many ghost cells surround workgroup 0’s 16 × 16 outputs?',
  's2.title': 'Every output reads 25 values from global memory',
  's2.narrative': 'Inside the image each output makes 25 global loads, and its neighbours load almost the same 25 values. The shading shows how many outputs read each input cell: up to 25 in the middle of the tile.',
  's2.lookAt': 'the darkest cells of the plane, and Global loads of the image',
  's2.prompt': 'How many times do this workgroup’s outputs read the input cell read most often?',
  's3.title': 'A tile with its halo',
  's3.narrative': 'The course post’s tiled kernel: a 16 × 16 workgroup loads a 16 × 16 input tile into workgroup memory, one cell per invocation. It covers a 12 × 12 output tile plus a halo ring of 2 cells on every side, because a 5 × 5 mask reaches 2 cells out; for workgroup 0 the top and left rings are ghost cells, loaded as zeros.',
  's3.lookAt': 'the dashed halo ring and the crossed ghost cells',
  's3.prompt': 'How many input cells did the workgroup bring into its tile, ghosts included?',
  's4.title': 'Only the inner invocations compute',
  's4.narrative': 'After the barrier only invocations with tx < 12 and ty < 12 compute an output; the others loaded halo cells and now wait. The hatched squares below the plane are those idle invocations.',
  's4.lookAt': 'the hatched invocations',
  's4.prompt': 'How many of the 256 invocations compute an output?',
  's5.title': 'Idle lanes inside a warp',
  's5.narrative': 'A warp here is two rows of 16 invocations. In each row the last 4 invocations are idle, so the warps that compute run with lanes masked off, and the last two warps (rows 12 to 15) do not compute at all.',
  's5.lookAt': 'the warp grid: masked lanes in warp 0',
  's5.prompt': 'How many lanes of warp 0 are active in the first instruction of the compute phase?',
  's6.title': 'Every invocation computes',
  's6.narrative': 'The fast tile: 256 invocations load a 72 × 36 tile (64 × 32 outputs and the halo) as vec4s, and each computes a 4 × 2 block of outputs. None is idle, and the halo is a smaller share.',
  's6.lookAt': 'the invocations: none hatched',
  's6.prompt': 'How many invocations are idle in the compute phase now?',
  's1.explain': 'The summary counts {answer}: the 20 × 20 box within 2 cells of the outputs, less the 18 × 18 of it inside the image.',
  's2.explain': 'The darkest cells read {answer} times: once per mask position that covers them.',
  's3.explain': '{answer} = 16 × 16: every invocation loaded one cell.',
  's4.explain': '{length} = 12 × 12 compute; {length2} are hatched.',
  's5.explain': 'Warp 0 holds rows 0 and 1, 12 computing invocations each: {answer} active lanes.',
  's6.explain': '{answer}: every invocation computes and stores eight outputs, a 4 × 2 block. It reads three vec4s per tile row and stores each row of four outputs as one vec4.',
} as const;

export const m = createCatalog('lesson-convolution', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
