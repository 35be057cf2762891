/**
 * Warp divergence patterns (course seed 001): the same two branches, chosen by tid % 2 (every
 * warp splits) or by (tid / warpSize) % 2 (whole warps go one way). The warp grid shows the split
 * warps; the metrics count the divergent branches.
 */
import {
  defineLab,
  exactCheck,
  OPENING_MOMENT,
  type LabInputs,
  type LabVariant,
  variantFrom,
} from '../../workbench/lab.ts';
import { firstDivergence, firstFound, firstOp } from '../../workbench/openings.ts';
import { OpKind } from '../../sim/index.ts';
import { randomF32, seededRandom } from '../../util/random.ts';
import { divergenceCases } from './cases.ts';
import {
  DIVERGENCE_KERNELS,
  DIVERGENCE_WORKGROUP_SIZES,
  divergenceReference,
  divergenceRun,
  isDivergenceVariant,
  PATTERN_WARP_SIZE,
  type DivergenceVariant,
} from './kernel.ts';
import { divergenceMeta } from './meta.ts';
import { m } from './messages.ts';
// The CUDA tab shows the .cu files the tests translate and run beside the WGSL (cudaTwins.ts).
import EVEN_ODD_CUDA from './cuda/even-odd.cu?raw';
import WARP_ALIGNED_CUDA from './cuda/warp-aligned.cu?raw';

type DivergenceParams = { readonly n: number; readonly workgroupSize: number };

const variant = (id: DivergenceVariant, cuda: string): LabVariant => variantFrom(m, '', {
  id,
  file: DIVERGENCE_KERNELS[id].file,
  wgsl: DIVERGENCE_KERNELS[id].wgsl,
  cuda,
  workgroupSizes: DIVERGENCE_WORKGROUP_SIZES,
  elementTypes: ['f32'],
  needsSubgroups: false,
});

const variants: LabVariant[] = [
  variant('even-odd', EVEN_ODD_CUDA),
  variant('warp-aligned', WARP_ALIGNED_CUDA),
];

const variantOf = (id: string): DivergenceVariant => {
  if (!isDivergenceVariant(id))
    throw new RangeError(`The divergence lab has no variant “${id}”; use even-odd or warp-aligned.`);
  return id;
};

const xOf = (inputs: LabInputs): Float32Array => inputs.x as Float32Array;

export const divergenceLab = defineLab<'divergence', DivergenceParams>(divergenceMeta, {
  variants,
  defaultVariant: 'even-odd',
  defaults: { n: 1024, workgroupSize: 256 },
  inputs: (p, seed) => ({ x: randomF32(seededRandom(seed), p.n, -1000, 1000) }),
  stepRun: (id, p, inputs, source) => divergenceRun(variantOf(id), xOf(inputs), p.workgroupSize, source),
  async runAll(executor, id, p, inputs) {
    const c = (await executor.run(divergenceRun(variantOf(id), xOf(inputs), p.workgroupSize)))[0]![1]!;
    return c.slice(0, p.n);
  },
  check: (id, _p, inputs, output) =>
    exactCheck(output, divergenceReference(variantOf(id), xOf(inputs)).slice(0, xOf(inputs).length)),
  bench: {
    elements: (p) => p.n,
    at: (p, n) => ({ ...p, n }),
    passes: (id, p) => [divergenceRun(variantOf(id), new Float32Array(p.n), p.workgroupSize)],
    // Reads x and writes c.
    bytes: (p) => 8 * p.n,
    baseline: 'copy',
    flops: (p) => p.n,
    cpu(inputs) {
      const x = xOf(inputs);
      let last = 0;
      for (let tid = 0; tid < x.length; tid++) last = tid % 2 === 0 ? x[tid]! * 2 : x[tid]! + 100;
      return last;
    },
  },
  cases: divergenceCases,
  moments: {
    // The first warp split at the branch (warp-aligned has none: its first store, where whole warps agree).
    [OPENING_MOMENT]: (index) =>
      firstFound(
        () => firstDivergence(index),
        () => firstOp(index, OpKind.storeGlobal, 'c', 0),
      ),
  },
  metrics: (_metrics, p) => {
    const warps =
      Math.max(1, Math.ceil(p.n / p.workgroupSize)) * Math.ceil(p.workgroupSize / PATTERN_WARP_SIZE);
    return [{ label: m('metric.warps'), value: warps.toLocaleString('en'), hint: m('metric.warps.hint') }];
  },
});
