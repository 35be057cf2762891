/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { m } from './messages.ts';
import { described, intField, listedIntField } from '../../workbench/lab.ts';
import { MASK_WIDTHS, outputTileWidths } from './kernel.ts';

/** Image sides: 37 and 100 are multiples of neither 12, 16 nor 64. */
const SIDES = [12, 24, 37, 48, 64, 100, 128];
const MAX_SIDE = 256;

const side = (key: string, label: 'param.width' | 'param.height', name: 'width' | 'height') =>
  intField({
    key,
    label: () => m(label),
    min: 1,
    max: 1 << 14,
    choices: (_v, params) => [...new Set([...SIDES, Number(params[name] ?? 48)])].sort((a, b) => a - b),
    resolve: (value) =>
      value > MAX_SIDE ? { value: MAX_SIDE, notice: m('notice.side', { n: value.toLocaleString('en'), max: MAX_SIDE }) } : { value },
  });

const maskWidth = listedIntField({
  key: 'm',
  label: () => m('param.mask'),
  max: 99,
  values: () => MASK_WIDTHS,
  instead(value) {
    const use = value < 4 ? 3 : value < 6 ? 5 : 7;
    return { value: use, notice: m('notice.mask', { use }) };
  },
});

const outTile = listedIntField({
  key: 't',
  label: () => m('param.tile'),
  max: 64,
  values: (_v, params) => outputTileWidths(Number(params.maskWidth)),
  instead(value, ok, v, params) {
    const mw = Number(params.maskWidth);
    const use = ok.reduce((best, t) => (Math.abs(t - value) < Math.abs(best - value) ? t : best), ok[ok.length - 1]!);
    return v.id === 'tiled'
      ? { value: use, notice: m('notice.tile', { value, mw, side: value + mw - 1, use }) }
      : { value: use };
  },
});

export const convolutionSpec = { width: side('w', 'param.width', 'width'), height: side('h', 'param.height', 'height'), maskWidth, outTile };

export const convolutionMeta = described(
  { id: 'convolution', courseOrder: 3.7, params: convolutionSpec, variantCount: 5 },
  () => m('title'),
  () => m('summary'),
);
