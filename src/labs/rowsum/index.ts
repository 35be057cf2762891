/**
 * Row sum (course seed 003): one workgroup reduces one row of an M × N matrix in workgroup
 * memory, each invocation loading two elements. "Simple" grows the stride and keeps invocations
 * with tx % stride == 0; "better" halves it and keeps tx < stride, so whole warps stay busy until
 * the stride falls below the warp size.
 */
import { defineLab, OPENING_MOMENT, exactCheck, type LabInputs, type LabVariant, variantFrom } from '../../workbench/lab.ts';
import { firstDivergence, firstFound, treeLevelEnd } from '../../workbench/openings.ts';
import { MAX_WORKGROUPS_PER_DIMENSION } from '../../kernel/types.ts';
import { randomU32, seededRandom } from '../../util/random.ts';
import { rowSumCases } from './cases.ts';
import { isRowSumVariant, ROW_LENGTHS, ROWSUM_KERNELS, rowSumReference, rowSumRun, type RowSumVariant } from './kernel.ts';
import { rowsumMeta } from './meta.ts';
import { m } from './messages.ts';
// The CUDA tab shows the .cu files the tests translate and run beside the WGSL (cudaTwins.ts).
import SIMPLE_CUDA from './cuda/simple.cu?raw';
import BETTER_CUDA from './cuda/better.cu?raw';

export { rowSumSpec } from './meta.ts';

/** N columns (key `n`) and M rows (key `m`); the workgroup size follows from N. */
type RowSumParams = { readonly cols: number; readonly rows: number };

const variant = (id: RowSumVariant, cuda: string): LabVariant =>
  variantFrom(m, '', {
    id,
    file: ROWSUM_KERNELS[id].file,
    wgsl: ROWSUM_KERNELS[id].wgsl,
    cuda,
    workgroupSizes: ROW_LENGTHS.map((n) => n / 2),
    elementTypes: ['u32'],
    needsSubgroups: false,
  });

const variants: LabVariant[] = [variant('simple', SIMPLE_CUDA), variant('better', BETTER_CUDA)];

const variantOf = (id: string): RowSumVariant => {
  if (!isRowSumVariant(id)) throw new RangeError(`The row-sum lab has no variant “${id}”; use simple or better.`);
  return id;
};


function matrixOf(inputs: LabInputs): Uint32Array {
  return inputs.matrix as Uint32Array;
}

export const rowsumLab = defineLab<'rowsum', RowSumParams>(rowsumMeta, {
  variants,
  defaultVariant: 'simple',
  defaults: { cols: 512, rows: 4 },
  inputs: (p, seed) => ({ matrix: randomU32(seededRandom(seed), p.rows * p.cols, 1000) }),
  stepRun: (variant, p, inputs, source) => rowSumRun(variantOf(variant), matrixOf(inputs), p.rows, p.cols, source),
  async runAll(executor, variant, p, inputs) {
    const out = (await executor.run(rowSumRun(variantOf(variant), matrixOf(inputs), p.rows, p.cols)))[0]![1]!;
    return out.slice(0, p.rows);
  },
  check: (_variant, p, inputs, output) => exactCheck(output, rowSumReference(matrixOf(inputs), p.rows, p.cols)),
  bench: {
    elements: (p) => p.rows * p.cols,
    // Whole rows of the chosen length, one workgroup each, up to the dispatch limit.
    at: (p, n) => ({ ...p, rows: Math.min(MAX_WORKGROUPS_PER_DIMENSION, Math.max(1, Math.floor(n / p.cols))) }),
    passes: (variant, p) => [rowSumRun(variantOf(variant), new Uint32Array(p.rows * p.cols), p.rows, p.cols)],
    bytes: (p) => 4 * (p.rows * p.cols + p.rows),
    flops: (p) => p.rows * (p.cols - 1),
    cpu(inputs, p) {
      const m = matrixOf(inputs);
      let last = 0;
      for (let r = 0; r < p.rows; r++) {
        let acc = 0;
        for (let c = 0; c < p.cols; c++) acc = (acc + m[r * p.cols + c]!) >>> 0;
        last ^= acc;
      }
      return last;
    },
  },
  cases: rowSumCases,
  moments: {
    // The row's first level of additions complete in workgroup memory (simple: its warps already split).
    [OPENING_MOMENT]: (index) => firstFound(() => treeLevelEnd(index, 1), () => firstDivergence(index)),
  },
  metrics: (_m, p) => [
    { label: m('metric.levels'), value: String(Math.log2(p.cols)), hint: m('metric.levels.hint') },
    { label: m('metric.adds'), value: (p.cols - 1).toLocaleString('en'), hint: m('metric.adds.hint') },
  ],
});
