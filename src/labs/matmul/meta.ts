/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { m } from './messages.ts';
import { described, elementTypeField, intField, listedIntField, type ParamField } from '../../workbench/lab.ts';
import { TILE_SIZES } from './tiles.ts';

/** The most rows, columns or depth the step-through simulates (the timings go further, on the GPU). */
export const MAX_STEP_DIM = 128;
/** The kernels that read whole vec4s along K and N (`MATMUL_KERNELS[v].vec4`, which a test holds this to). */
export const VEC4_MATMULS: readonly string[] = ['vec4-2d', 'fast', 'tile-16x8'];
const DIM_CHOICES = [16, 33, 48, 64, 100, 128];

function dimField(key: 'm' | 'n' | 'k', vec4Bound: boolean): ParamField<number> {
  const label = (): string => m(`param.${key}`);
  return intField({
    key,
    label: () => label(),
    min: 1,
    max: 16384,
    choices: (variant, params) => {
      const current = Number(params[key] ?? 64);
      const vec4 = vec4Bound && VEC4_MATMULS.includes(variant.id);
      return [...new Set([...DIM_CHOICES, current])].filter((v) => !vec4 || v % 4 === 0).sort((x, y) => x - y);
    },
    resolve(value, variant) {
      if (value > MAX_STEP_DIM) {
        return { value: MAX_STEP_DIM, notice: m('notice.dim', { label: label(), n: value.toLocaleString('en'), max: MAX_STEP_DIM }) };
      }
      if (vec4Bound && VEC4_MATMULS.includes(variant.id) && value % 4 !== 0) {
        const use = Math.ceil(value / 4) * 4;
        return { value: use, notice: m('notice.vec4', { variant: variant.title, label: label(), use }) };
      }
      return { value };
    },
  });
}

const tileField = listedIntField({
  key: 'tile',
  label: () => m('param.tile'),
  max: 64,
  values: () => TILE_SIZES,
  instead: () => ({ value: 16, notice: m('notice.tile', { a: TILE_SIZES[0], b: TILE_SIZES[1] }) }),
});

/** The lab's parameter spec: M, N, K, then TILE and the element type. */
export const matmulSpec = {
  m: dimField('m', false),
  n: dimField('n', true),
  k: dimField('k', true),
  tile: tileField,
  type: elementTypeField('f32'),
};

export const matmulMeta = described(
  { id: 'matmul', courseOrder: 2.7, params: matmulSpec, variantCount: 7 },
  () => m('title'),
  () => m('summary'),
);
