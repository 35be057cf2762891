import type { BindingData } from '../../kernel/types.ts';
import { defineLab, OPENING_MOMENT, elementTypeOfParams, withSource, type LabInputs, type LabVariant, type LinearParams } from '../../workbench/lab.ts';
import { firstDivergence, firstFound, firstGlobalAtomic, treeLevelEnd } from '../../workbench/openings.ts';
import { arrayFor } from '../../workbench/labTypes.ts';
import { benchReduce } from './bench.ts';
import { reduceCases } from './cases.ts';
import { randomF32, randomU32, seededRandom } from '../../util/random.ts';
import { bytesMoved, passPlan, passRun, reduce, timingPasses } from './driver.ts';
import { padToVec4 } from '../../workbench/labTypes.ts';
import { additionTreeHeight, f32ErrorBound, referenceSum } from './reference.ts';
import { REDUCE_VARIANTS, reduceVariant, type ReduceVariantId } from './variants.ts';
import { REDUCE_EXERCISES } from './exercises.ts';
import { reduceMeta } from './meta.ts';
import { m } from './messages.ts';

const variants: LabVariant[] = REDUCE_VARIANTS.map((v) => {
  const variant: LabVariant = {
    id: v.id,
    get title() {
      return `${v.step}. ${v.title}`;
    },
    get summary() {
      return v.description;
    },
    file: v.file,
    wgsl: v.wgsl,
    cuda: v.cuda,
    workgroupSizes: v.workgroupSizes,
    elementTypes: v.elementTypes,
    needsSubgroups: v.needsSubgroups,
  };
  // A getter, not a copied string, so the reason reads in the language of the moment.
  return v.racy ? Object.defineProperty(variant, 'racy', { get: () => m('racy'), enumerable: true }) : variant;
});

const id = (variant: string): ReduceVariantId => reduceVariant(variant).id;

function makeInput(params: LinearParams, seed: number): BindingData {
  const rng = seededRandom(seed);
  if (params.type === 'f32') return randomF32(rng, params.n, -1, 1);
  const words = randomU32(rng, params.n, 1000);
  if (params.type === 'u32') return words;
  const out = new Int32Array(params.n);
  for (let i = 0; i < params.n; i++) out[i] = words[i]! - 500;
  return out;
}

/** The reduction lab as the app sees it; the kernels and drivers live beside this file. */
export const reduceLab = defineLab<'reduce', LinearParams>(reduceMeta, {
  variants,
  defaultVariant: 'neighbored',
  defaults: { n: 1024, workgroupSize: 256, type: 'u32' },
  inputs: (params, seed): LabInputs => ({ input: makeInput(params, seed) }),
  stepRun(variant, params, inputs, source) {
    const input = inputs.input!;
    const v = id(variant);
    const shape = passPlan(v, input.length, { workgroupSize: params.workgroupSize })[0];
    if (!shape) throw new RangeError('A reduction needs at least one element.');
    const data = reduceVariant(v).layout === 'grid-stride' ? padToVec4(input) : input;
    const run = passRun(v, elementTypeOfParams(params), shape, data, { workgroupSize: params.workgroupSize });
    return source === undefined ? run : { ...run, code: withSource(run.code, reduceVariant(v).wgsl, source) };
  },
  async runAll(executor, variant, params, inputs) {
    const result = await reduce(executor, id(variant), inputs.input!, { workgroupSize: params.workgroupSize });
    const out = arrayFor(elementTypeOfParams(params), 1);
    out[0] = result.value;
    return out;
  },
  check(variant, params, inputs, output) {
    const input = inputs.input!;
    const got = output[0];
    const want = referenceSum(input);
    if (got === undefined) return { ok: false, message: 'the output is empty' };
    if (params.type !== 'f32') return got === want ? { ok: true } : { ok: false, message: `the sum is ${got} where the CPU reference has ${want}` };
    // f32: the kernels add in tree order, the reference in double precision; within the bound.
    const height = additionTreeHeight(id(variant), input.length, { workgroupSize: params.workgroupSize });
    const bound = f32ErrorBound(input as Float32Array, height);
    return Math.abs(got - want) <= bound
      ? { ok: true }
      : { ok: false, message: `the sum ${got} is ${Math.abs(got - want)} from the double-precision ${want}, beyond the bound ${bound}` };
  },
  bench: {
    elements: (p) => p.n,
    at: (p, n) => ({ ...p, n }),
    passes: (variant, p) => timingPasses(id(variant), p.n, { workgroupSize: p.workgroupSize, elementType: elementTypeOfParams(p) }),
    bytes: (p) => bytesMoved(p.n),
    flops: (p) => Math.max(0, p.n - 1),
    cpu(inputs) {
      const input = inputs.input!;
      let acc = 0;
      for (let i = 0; i < input.length; i++) acc += input[i]!;
      return acc;
    },
    get note() {
      return m('reduce.note');
    },
    section: (gpu, baselines, opts) => benchReduce(gpu, baselines, opts),
  },
  exercises: REDUCE_EXERCISES,
  cases: reduceCases,
  moments: {
    // The first level of the addition tree complete; kernels without a tree in workgroup memory
    // open at their first divergent warp, or their first atomic.
    [OPENING_MOMENT]: (index) => firstFound(() => treeLevelEnd(index, 1), () => firstDivergence(index), () => firstGlobalAtomic(index)),
  },
  // docs/benchmarks.md, “Reduction ladder (u32, N = 2^26)”, NVIDIA H100 80GB HBM3, 2026-11-21.
  recorded: {
    device: 'NVIDIA H100 80GB HBM3 (Vulkan)',
    n: 2 ** 26,
    source: 'docs/benchmarks.md',
    rows: [
      { variant: 'global-inplace', ms: 2.4829, gbps: 108.1 },
      { variant: 'neighbored', ms: 0.8428, gbps: 318.5 },
      { variant: 'neighbored-less-divergent', ms: 0.4904, gbps: 547.4 },
      { variant: 'interleaved', ms: 0.4413, gbps: 608.3 },
      { variant: 'first-add-during-load', ms: 0.2226, gbps: 1206 },
      { variant: 'last-warp-subgroup', ms: 0.1588, gbps: 1691 },
      { variant: 'last-warp-naive', ms: 0.1424, gbps: 1885 },
      { variant: 'unrolled', ms: 0.1391, gbps: 1930 },
      { variant: 'vec4-grid-stride', ms: 0.0927, gbps: 2896 },
      { variant: 'vec4-atomic', ms: 0.0892, gbps: 3009 },
    ],
  },
});
