import type { BindingData } from '../../kernel/types.ts';
import type { LabDefinition, LabParams, LabVariant } from '../lab.ts';
import { arrayFor } from '../types.ts';
import { randomF32, randomU32, seededRandom } from '../../util/random.ts';
import { bytesMoved, passPlan, passRun, reduce, timingPasses } from './driver.ts';
import { padToVec4 } from '../types.ts';
import { additionTreeHeight, f32ErrorBound, referenceSum } from './reference.ts';
import { REDUCE_VARIANTS, reduceVariant, type ReduceVariantId } from './variants.ts';

const variants: LabVariant[] = REDUCE_VARIANTS.map((v) => ({
  id: v.id,
  title: `${v.step}. ${v.title}`,
  summary: v.description,
  file: v.file,
  wgsl: v.wgsl,
  cuda: v.cuda,
  workgroupSizes: v.workgroupSizes,
  elementTypes: v.elementTypes,
  needsSubgroups: v.needsSubgroups,
  ...(v.racy
    ? {
        racy: 'Its last warp reads and writes workgroup memory without a barrier: a data race in WGSL, so the GPU may return any sum. The simulator reports the race.',
      }
    : {}),
}));

const id = (variant: string): ReduceVariantId => reduceVariant(variant).id;

/** The reduction lab as the app sees it; the kernels and drivers live beside this file. */
export const reduceLab: LabDefinition = {
  id: 'reduce',
  title: 'Parallel reduction',
  summary:
    'Sum an array with thousands of threads: from a tree in global memory, through divergent and conflicting shared-memory trees, to a bandwidth-bound grid-stride kernel.',
  variants,
  defaultVariant: 'neighbored',
  defaultParams: { n: 1024, workgroupSize: 256, type: 'u32' },
  stepSizes: [64, 256, 1000, 1024, 4096],
  tree: 'reduction',
  timingNote:
    'Published ladders for comparison: the seeds measured 16M ints on a Tesla M2070 at 11.7 ms (neighbored), 9.3 ms (less divergent, 1.26×) and 7.0 ms (interleaved, 1.69×); Harris’s seven kernels reached 30× cumulative on a G80.',
  makeInput(params: LabParams, seed: number): BindingData {
    const rng = seededRandom(seed);
    if (params.type === 'f32') return randomF32(rng, params.n, -1, 1);
    const words = randomU32(rng, params.n, 1000);
    if (params.type === 'u32') return words;
    const out = new Int32Array(params.n);
    for (let i = 0; i < params.n; i++) out[i] = words[i]! - 500;
    return out;
  },
  stepRun(variant, params, input) {
    const v = id(variant);
    const shape = passPlan(v, input.length, { workgroupSize: params.workgroupSize })[0];
    if (!shape) throw new RangeError('A reduction needs at least one element.');
    const data = reduceVariant(v).layout === 'grid-stride' ? padToVec4(input) : input;
    return passRun(v, params.type, shape, data, { workgroupSize: params.workgroupSize });
  },
  async runAll(executor, variant, params, input) {
    const result = await reduce(executor, id(variant), input, { workgroupSize: params.workgroupSize });
    const out = arrayFor(params.type, 1);
    out[0] = result.value;
    return out;
  },
  reference(_params, input) {
    const out =
      input instanceof Float32Array
        ? new Float64Array(1)
        : arrayFor(input instanceof Int32Array ? 'i32' : 'u32', 1);
    out[0] = referenceSum(input);
    return out as BindingData;
  },
  agrees(variant, params, input, output, reference) {
    const got = output[0];
    const want = reference[0];
    if (got === undefined || want === undefined) return false;
    if (params.type !== 'f32') return got === want;
    // f32: the kernels add in tree order, the reference in double precision; within the bound.
    const height = additionTreeHeight(id(variant), input.length, { workgroupSize: params.workgroupSize });
    return Math.abs(got - want) <= f32ErrorBound(input as Float32Array, height);
  },
  timingPasses(variant, n, params) {
    return timingPasses(id(variant), n, { workgroupSize: params.workgroupSize, elementType: params.type });
  },
  bytesMoved: (n) => bytesMoved(n),
  cpuBaseline(input) {
    let acc = 0;
    for (let i = 0; i < input.length; i++) acc += input[i]!;
    return acc;
  },
};
