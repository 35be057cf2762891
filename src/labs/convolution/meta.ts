/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { intField } from '../lab.ts';
import { MASK_WIDTHS, outputTileWidths } from './kernel.ts';

/** Image sides: 37 and 100 are multiples of neither 12, 16 nor 64. */
const SIDES = [12, 24, 37, 48, 64, 100, 128];
const MAX_SIDE = 256;

const side = (key: string, label: string, name: 'width' | 'height') =>
  intField({
    key,
    label,
    min: 1,
    max: 1 << 14,
    choices: (_v, params) => [...new Set([...SIDES, Number(params[name] ?? 48)])].sort((a, b) => a - b),
    resolve: (value) =>
      value > MAX_SIDE
        ? {
            value: MAX_SIDE,
            notice: `Stepping through an image ${value.toLocaleString('en')} wide or tall would trace too much; simulating ${MAX_SIDE}. The timings go further.`,
          }
        : { value },
  });

const maskWidth = intField({
  key: 'm',
  label: 'mask width',
  min: 1,
  max: 99,
  choices: () => MASK_WIDTHS,
  resolve(value) {
    if ((MASK_WIDTHS as readonly number[]).includes(value)) return { value };
    const use = value < 4 ? 3 : value < 6 ? 5 : 7;
    return {
      value: use,
      notice: `The mask width must be 3, 5 or 7 (odd, so the mask has a centre); using ${use}.`,
    };
  },
});

const outTile = intField({
  key: 't',
  label: 'output tile width',
  min: 1,
  max: 64,
  choices: (_v, params) => outputTileWidths(Number(params.maskWidth)),
  resolve(value, v, params) {
    const m = Number(params.maskWidth);
    const ok = outputTileWidths(m);
    if (ok.includes(value)) return { value };
    const use = ok.reduce(
      (best, t) => (Math.abs(t - value) < Math.abs(best - value) ? t : best),
      ok[ok.length - 1]!,
    );
    return v.id === 'tiled'
      ? {
          value: use,
          notice: `An output tile ${value} wide with a ${m} × ${m} mask needs an input tile of (${value + m - 1})² invocations; a workgroup has at most 256, so using ${use}.`,
        }
      : { value: use };
  },
});

export const convolutionSpec = {
  width: side('w', 'image width', 'width'),
  height: side('h', 'image height', 'height'),
  maskWidth,
  outTile,
};

export const convolutionMeta = {
  id: 'convolution',
  courseOrder: 3.7,
  title: 'Convolution (ghost cells and halo tiles)',
  summary:
    'Convolve an image with a small mask: ghost cells at the borders, the mask in constant memory, an input tile with its halo in workgroup memory where only the inner invocations compute, and a tile in which all of them do.',
  params: convolutionSpec,
  variantCount: 5,
} as const;
