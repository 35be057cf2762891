import { defineLab, exactCheck, OPENING_MOMENT, type LabInputs, type LabVariant, type LinearParams, variantFrom } from '../../workbench/lab.ts';
import { basicsCases } from './cases.ts';
import { m } from './messages.ts';
import { benchBasics } from './bench.ts';
import { randomF32, seededRandom } from '../../util/random.ts';
import { matrixAddRun, matrixShape, MATRIX_ADD_FILE } from './matrixAdd.ts';
import { VECTOR_ADD_FILE, vectorAddBytes, vectorAddReference, vectorAddRun } from './vectorAdd.ts';
import VECTOR_ADD_WGSL from '../../../shaders/basics/vector-add.wgsl?raw';
import MATRIX_ADD_WGSL from '../../../shaders/basics/matrix-add.wgsl?raw';
import { basicsMeta } from './meta.ts';
import { firstFound, firstOp } from '../../workbench/openings.ts';
import { OpKind } from '../../sim/index.ts';
// The CUDA tab shows the .cu files the tests translate and run beside the WGSL (cudaTwins.ts).
import VECTOR_ADD_CUDA from './cuda/vector-add.cu?raw';
import MATRIX_ADD_CUDA from './cuda/matrix-add.cu?raw';

const variants: LabVariant[] = [
  variantFrom(m, 'variant.', {
    id: 'vector-add',
    file: VECTOR_ADD_FILE,
    wgsl: VECTOR_ADD_WGSL,
    cuda: VECTOR_ADD_CUDA,
    workgroupSizes: [32, 64, 128, 256],
    elementTypes: ['f32'],
    needsSubgroups: false,
  }),
  variantFrom(m, 'variant.', {
    id: 'matrix-add',
    file: MATRIX_ADD_FILE,
    wgsl: MATRIX_ADD_WGSL,
    cuda: MATRIX_ADD_CUDA,
    workgroupSizes: [256],
    elementTypes: ['f32'],
    needsSubgroups: false,
  }),
];

/** B for an input A: the same values reversed, so every element has a different partner. */
const partner = (a: Float32Array): Float32Array => a.slice().reverse();

function run(variant: string, params: LinearParams, inputs: LabInputs, source?: string) {
  const a = inputs.a as Float32Array;
  const b = inputs.b as Float32Array;
  const r =
    variant === 'matrix-add'
      ? matrixAddRun(a, b, matrixShape(a.length).rows, matrixShape(a.length).cols)
      : vectorAddRun({ a, b, workgroupSize: params.workgroupSize });
  return source === undefined ? r : { ...r, code: source };
}

function inputs(params: LinearParams, seed: number): LabInputs {
  const a = randomF32(seededRandom(seed), params.n, -100, 100);
  return { a, b: partner(a) };
}

/** Threads, blocks and grids: how an invocation finds its element, in 1-D and 2-D. */
export const basicsLab = defineLab<'basics', LinearParams>(basicsMeta, {
  variants,
  defaultVariant: 'vector-add',
  defaults: { n: 1024, workgroupSize: 256, type: 'f32' },
  inputs,
  stepRun: run,
  async runAll(executor, variant, params, data) {
    return (await executor.run(run(variant, params, data)))[0]![2]!;
  },
  check: (_variant, _params, data, output) => exactCheck(output, vectorAddReference(data.a as Float32Array, data.b as Float32Array)),
  bench: {
    elements: (p) => p.n,
    at: (p, n) => ({ ...p, n }),
    passes: (variant, p) => [run(variant, p, { a: new Float32Array(p.n), b: new Float32Array(p.n) })],
    bytes: (p) => vectorAddBytes(p.n),
    // Reads a and b and writes c: set against a copy, which reads and writes too.
    baseline: 'copy',
    flops: (p) => p.n,
    cpu(data) {
      const a = data.a as Float32Array;
      const b = data.b as Float32Array;
      const c = new Float32Array(a.length);
      for (let i = 0; i < a.length; i++) c[i] = a[i]! + b[i]!;
      return c[0] ?? 0;
    },
    section: benchBasics,
  },
  cases: basicsCases,
  moments: {
    // Every lane finding its element: the first load of a (matrix add: warp 1, rows 2 and 3 of the tile).
    [OPENING_MOMENT]: (index, variant) => firstFound(() => firstOp(index, OpKind.loadGlobal, 'a', variant === 'matrix-add' ? 1 : 0)),
  },
});
