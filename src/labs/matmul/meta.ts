/**
 * What the app knows of this lab before its module loads (src/labs/catalog.ts): its name, summary,
 * place in the course and URL parameters. The start page and the address read only this.
 */
import { elementTypeField, intField, type ParamField } from '../lab.ts';
import { TILE_SIZES } from './kernel.ts';

/** The most rows, columns or depth the step-through simulates (the timings go further, on the GPU). */
export const MAX_STEP_DIM = 128;
/** The kernels that read whole vec4s along K and N (`MATMUL_KERNELS[v].vec4`, which a test holds this to). */
export const VEC4_MATMULS: readonly string[] = ['vec4-2d', 'fast'];
const DIM_CHOICES = [16, 33, 48, 64, 100, 128];

function dimField(key: 'm' | 'n' | 'k', label: string, vec4Bound: boolean): ParamField<number> {
  return intField({
    key,
    label,
    min: 1,
    max: 16384,
    choices: (variant, params) => {
      const current = Number(params[key] ?? 64);
      const vec4 = vec4Bound && VEC4_MATMULS.includes(variant.id);
      return [...new Set([...DIM_CHOICES, current])]
        .filter((v) => !vec4 || v % 4 === 0)
        .sort((x, y) => x - y);
    },
    resolve(value, variant) {
      if (value > MAX_STEP_DIM) {
        return {
          value: MAX_STEP_DIM,
          notice: `Stepping through ${label} = ${value.toLocaleString('en')} would trace too much; simulating ${MAX_STEP_DIM}. The timings and npm run bench go to 4096.`,
        };
      }
      if (vec4Bound && VEC4_MATMULS.includes(variant.id) && value % 4 !== 0) {
        const use = Math.ceil(value / 4) * 4;
        return {
          value: use,
          notice: `${variant.title} reads whole vec4s, so ${label} must be a multiple of 4; using ${use}.`,
        };
      }
      return { value };
    },
  });
}

const tileField = intField({
  key: 'tile',
  label: 'TILE',
  min: 1,
  max: 64,
  choices: () => TILE_SIZES,
  resolve(value) {
    if ((TILE_SIZES as readonly number[]).includes(value)) return { value };
    return { value: 16, notice: `The tiled kernel takes TILE ${TILE_SIZES.join(' or ')}; using 16.` };
  },
});

/** The lab's parameter spec: M, N, K, then TILE and the element type. */
export const matmulSpec = {
  m: dimField('m', 'rows M', false),
  n: dimField('n', 'columns N', true),
  k: dimField('k', 'depth K', true),
  tile: tileField,
  type: elementTypeField('f32'),
};

export const matmulMeta = {
  id: 'matmul',
  courseOrder: 2.7,
  title: 'Matrix multiply (tiles in workgroup memory)',
  summary:
    'C = A × B six ways: from one output per invocation reading everything from global memory, through TILE × TILE tiles in workgroup memory with a barrier pair, to register tiles and a double-buffered vec4 kernel. Count the loads, see the banks, place each on the roofline.',
  params: matmulSpec,
  variantCount: 6,
} as const;
