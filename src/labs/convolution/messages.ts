/** This folder's texts in English; other languages load on demand (messages.zh-CN.ts). */
import { createCatalog } from '../../i18n/catalog.ts';

const en = {
  'variant.conv1d.title': '1. 1-D with ghost cells',
  'variant.conv1d.summary': 'The image read as one long signal: output i sums mask[k] · input[i − r + k], and the values that would lie before the first or past the last element are ghost cells, counted as 0 by skipping them.',
  'variant.basic2d.title': '2. 2-D, basic (seed)',
  'variant.basic2d.summary': 'One invocation per output pixel in 16 × 16 workgroups; each reads its m × m neighbourhood straight from global memory, skipping ghost cells. Neighbouring outputs read almost the same values again and again.',
  'variant.uniform-mask.title': '3. 2-D, mask in a uniform buffer',
  'variant.uniform-mask.summary': 'As 2, with the mask in a uniform buffer, WGSL’s constant memory: read-only, and every lane reads the same mask value at once, which a constant cache broadcasts.',
  'variant.tiled.title': '4. 2-D tiled with a halo (seed)',
  'variant.tiled.summary': 'A (T + m − 1)² workgroup loads an input tile, its T × T output tile plus a halo ring, into workgroup memory, one cell per invocation, zeros for ghost cells; after the barrier only T × T invocations compute. 16 × 16 loading, 12 × 12 computing for a 5 × 5 mask.',
  'variant.tiled-vec4.title': '5. Tiled, every invocation computes, vec4 reads (fast)',
  'variant.tiled-vec4.summary': 'A 16 × 16 workgroup owns a 64 × 32 output tile: it loads the tile with its halo as vec4s in a loop over all invocations, then each invocation computes a 4 × 2 block of outputs from three vec4s per tile row and stores each row of four as one vec4. Nobody idles.',
  'param.width': 'image width',
  'param.height': 'image height',
  'notice.side': 'Stepping through an image {n} wide or tall would trace too much; simulating {max}. The timings go further.',
  'param.mask': 'mask width',
  'notice.mask': 'The mask width must be 3, 5 or 7 (odd, so the mask has a centre); using {use}.',
  'param.tile': 'output tile width',
  'notice.tile': 'An output tile {value} wide with a {mw} × {mw} mask needs an input tile of ({side})² invocations; a workgroup has at most 256, so using {use}.',
  'metric.loads.basic': 'm² = {n}, fewer at the borders',
  'metric.loads': 'Global loads per output (workgroup 0)',
  'metric.halo': 'Halo overhead (workgroup 0)',
  'metric.halo.hint': 'input cells brought in beyond the output tile, ghosts included, per output cell',
  'metric.idle': 'Idle in the compute phase (workgroup 0)',
  'metric.idle.value': '{idle} of {all}',
  'metric.idle.hint': 'invocations that compute no output',
  'title': 'Convolution (ghost cells and halo tiles)',
  'summary': 'Convolve an image with a small mask: ghost cells at the borders, the mask in constant memory, an input tile with its halo in workgroup memory where only the inner invocations compute, and a tile in which all of them do.',
  'check.length': 'the output has {got} pixels where {want} were expected',
  'check.pixel': 'pixel (row {row}, column {col}) is {got} where the CPU reference has {want}',
  'note': 'GB/s count one read and one write per pixel, the least traffic; npm run bench times 8192 × 8192 with a 5 × 5 mask against the copy baseline.',
  'ui.panel': 'Input plane, halo and ghost cells',
} as const;

export const m = createCatalog('lab-convolution', en, { 'zh-CN': () => import('./messages.zh-CN.ts') });
export type Messages = typeof en;
