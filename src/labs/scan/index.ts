import { defineLab, OPENING_MOMENT, elementTypeOfParams, exactCheck, withSource, type CheckResult, type LabVariant, type LinearParams } from '../../workbench/lab.ts';
import { firstDivergence, firstFound, treeLevelEnd } from '../../workbench/openings.ts';
import { benchScan } from './bench.ts';
import { scanCases } from './cases.ts';
import { scanMoments } from './moments.ts';
import { seededRandom } from '../../util/random.ts';
import { matrixShape, scan, singlePassRunOf, summedAreaRowsRun, tileScanRun, timingPasses } from './driver.ts';
import { scanInput } from './inputs.ts';
import { bytesMoved, scanReference, scanReferenceF64, summedAreaReference } from './reference.ts';
import type { KernelRun } from '../../kernel/types.ts';
import { SCAN_VARIANTS, scanVariant, type ScanVariantId } from './variants.ts';
import { SCAN_EXERCISES } from './exercises.ts';
import { scanMeta } from './meta.ts';
import { m } from './messages.ts';

const variants: LabVariant[] = SCAN_VARIANTS.map((v) => ({
  id: v.id,
  get title() {
    return v.title;
  },
  get summary() {
    return v.description;
  },
  file: v.file,
  wgsl: v.code,
  cuda: v.cuda,
  workgroupSizes: v.workgroupSizes,
  elementTypes: v.elementTypes,
  needsSubgroups: v.needsSubgroups,
}));

const id = (variant: string): ScanVariantId => scanVariant(variant as ScanVariantId).id;

/** The lab scans inclusively; the kernels' EXCLUSIVE override is exercised by the tests and the bench. */
const options = (params: LinearParams) => ({ exclusive: false, workgroupSize: params.workgroupSize, type: elementTypeOfParams(params) });

function stepRun(variant: string, params: LinearParams, input: Parameters<typeof tileScanRun>[1]): KernelRun {
  const v = scanVariant(id(variant));
  const o = options(params);
  if (v.shape === 'single-pass') return singlePassRunOf(v.id, input, o);
  if (v.shape === 'matrix') {
    const { width, height } = matrixShape(input.length);
    return summedAreaRowsRun(input, width, height, o);
  }
  return tileScanRun(v.id, input, o);
}

/** Whether every f32 summation order of `input` is exact: whole numbers with Σ|x| ≤ 2^24. */
function exactInF32(input: ArrayLike<number>): boolean {
  let abs = 0;
  for (let i = 0; i < input.length; i++) {
    const x = input[i]!;
    if (!Number.isInteger(x)) return false;
    abs += Math.abs(x);
  }
  return abs <= 2 ** 24;
}

/** The scan lab as the app sees it; kernels and drivers live beside this file. */
export const scanLab = defineLab<'scan', LinearParams>(scanMeta, {
  variants,
  defaultVariant: 'blelloch',
  defaults: { n: 512, workgroupSize: 256, type: 'u32' },
  inputs: (params, seed) => ({ input: scanInput(seededRandom(seed), params.n, elementTypeOfParams(params), 'small-integers') }),
  stepRun(variant, params, inputs, source) {
    const run = stepRun(variant, params, inputs.input!);
    return source === undefined ? run : { ...run, code: withSource(run.code, variants.find((v) => v.id === variant)?.wgsl ?? source, source) };
  },
  async runAll(executor, variant, params, inputs) {
    const input = inputs.input!;
    const v = scanVariant(id(variant));
    const width = v.shape === 'matrix' ? matrixShape(input.length).width : undefined;
    return (await scan(executor, v.id, input, { ...options(params), ...(width !== undefined ? { width } : {}) })).output;
  },
  check(variant, params, inputs, output): CheckResult {
    const input = inputs.input!;
    const v = scanVariant(id(variant));
    let want: ArrayLike<number>;
    if (v.shape === 'matrix') {
      // The summed-area variant reads the input as a near-square matrix.
      const { width, height } = matrixShape(input.length);
      want = summedAreaReference(input, width, height, false);
    } else {
      want = params.type === 'f32' ? scanReferenceF64(input, false) : scanReference(input, false);
    }
    if (params.type !== 'f32') return exactCheck(output, want);
    if (output.length !== input.length) return { ok: false, message: m('check.length', { got: output.length, want: input.length }) };
    // f32: whole numbers whose magnitudes sum to at most 2^24 make every partial sum exact in any
    // order, so nothing may differ (the lab's own inputs are such); otherwise any summation order
    // stays within n·u·Σ|x| of the double-precision prefix.
    const exact = exactInF32(input);
    let abs = 0;
    for (let i = 0; i < input.length; i++) {
      abs += Math.abs(input[i]!);
      const bound = exact ? 0 : (input.length * 2 ** -24 * abs) / (1 - input.length * 2 ** -24);
      if (!(Math.abs(output[i]! - want[i]!) <= bound)) return { ok: false, message: m('check.f32', { i, got: String(output[i]), bound: String(bound), want: String(want[i]) }) };
    }
    return { ok: true };
  },
  bench: {
    elements: (p) => p.n,
    at: (p, n) => ({ ...p, n }),
    passes: (variant, p) => timingPasses(id(variant), p.n, options(p)),
    bytes: (p) => bytesMoved(p.n),
    // Reads n and writes n: set against a copy.
    baseline: 'copy',
    flops: (p) => Math.max(0, p.n - 1),
    cpu(inputs) {
      const input = inputs.input!;
      let acc = 0;
      const out = new Float64Array(input.length);
      for (let i = 0; i < input.length; i++) out[i] = acc += input[i]!;
      return out[out.length - 1] ?? 0;
    },
    section: (gpu, _baselines, opts) => benchScan(gpu, opts),
  },
  exercises: SCAN_EXERCISES,
  cases: scanCases,
  moments: {
    ...scanMoments,
    // The first level of the sweep (or of the Hillis–Steele network) complete in workgroup memory.
    [OPENING_MOMENT]: (index) => firstFound(() => treeLevelEnd(index, 1), () => firstDivergence(index)),
  },
});
