import type { BindingData } from '../../kernel/types.ts';
import type { LabDefinition, LabParams, LabVariant } from '../lab.ts';
import { seededRandom } from '../../util/random.ts';
import { matrixShape, scan, singlePassRunOf, summedAreaRowsRun, tileScanRun, timingPasses } from './driver.ts';
import { scanInput } from './inputs.ts';
import { bytesMoved, scanReference, scanReferenceF64, summedAreaReference } from './reference.ts';
import { SCAN_VARIANTS, scanVariant, type ScanVariantId } from './variants.ts';

const variants: LabVariant[] = SCAN_VARIANTS.map((v) => ({
  id: v.id,
  title: v.title,
  summary: v.description,
  file: v.file,
  wgsl: v.code,
  cuda: v.cuda,
  workgroupSizes: v.workgroupSizes,
  elementTypes: v.elementTypes,
  needsSubgroups: v.needsSubgroups,
}));

const id = (variant: string): ScanVariantId => scanVariant(variant as ScanVariantId).id;

/** The lab scans inclusively; the kernels' EXCLUSIVE override is exercised by the tests and the bench. */
const options = (params: LabParams) => ({ exclusive: false, workgroupSize: params.workgroupSize, type: params.type });

/** The scan lab as the app sees it; kernels and drivers live beside this file. */
export const scanLab: LabDefinition = {
  id: 'scan',
  title: 'Prefix sum (scan)',
  summary:
    'Every element becomes the sum of those before it: Hillis–Steele’s log-step network against Blelloch’s work-efficient up-sweep and down-sweep, conflict-free padding, warp scans and a single-pass scan.',
  variants,
  defaultVariant: 'blelloch',
  defaultParams: { n: 512, workgroupSize: 256, type: 'u32' },
  stepSizes: [64, 256, 512, 1000, 1024, 4096],
  tree: 'scan',
  makeInput(params: LabParams, seed: number): BindingData {
    return scanInput(seededRandom(seed), params.n, params.type, 'small-integers');
  },
  stepRun(variant, params, input) {
    const v = scanVariant(id(variant));
    const o = options(params);
    if (v.shape === 'single-pass') return singlePassRunOf(v.id, input, o);
    if (v.shape === 'matrix') {
      const { width, height } = matrixShape(input.length);
      return summedAreaRowsRun(input, width, height, o);
    }
    return tileScanRun(v.id, input, o);
  },
  async runAll(executor, variant, params, input) {
    const v = scanVariant(id(variant));
    const width = v.shape === 'matrix' ? matrixShape(input.length).width : undefined;
    return (await scan(executor, v.id, input, { ...options(params), ...(width !== undefined ? { width } : {}) })).output;
  },
  reference(params, input) {
    // The summed-area variant reads the input as a near-square matrix; the lab's reference for it
    // is computed in `agrees`, which knows the variant.
    return params.type === 'f32' ? scanReferenceF64(input, false) as unknown as BindingData : scanReference(input, false);
  },
  agrees(variant, params, input, output, reference) {
    const v = scanVariant(id(variant));
    let want: ArrayLike<number> = reference;
    if (v.shape === 'matrix') {
      const { width, height } = matrixShape(input.length);
      want = summedAreaReference(input, width, height, false);
    }
    if (output.length !== input.length) return false;
    if (params.type !== 'f32') {
      for (let i = 0; i < output.length; i++) if (output[i] !== want[i]) return false;
      return true;
    }
    // f32: any summation order stays within n·u·Σ|x| of the double-precision prefix.
    let abs = 0;
    for (let i = 0; i < input.length; i++) {
      abs += Math.abs(input[i]!);
      const bound = (input.length * 2 ** -24 * abs) / (1 - input.length * 2 ** -24);
      if (!(Math.abs(output[i]! - want[i]!) <= bound)) return false;
    }
    return true;
  },
  timingPasses(variant, n, params) {
    return timingPasses(id(variant), n, options(params));
  },
  baseline: 'copy',
  bytesMoved: (n) => bytesMoved(n),
  cpuBaseline(input) {
    let acc = 0;
    const out = new Float64Array(input.length);
    for (let i = 0; i < input.length; i++) out[i] = acc += input[i]!;
    return out[out.length - 1] ?? 0;
  },
};
