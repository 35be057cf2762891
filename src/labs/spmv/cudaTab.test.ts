/**
 * The SpMV lab's CUDA tab runs each twin (`cuda/*.cu`) in place of the variant's WGSL, as the
 * editor does (`cudaPass` over the lab's own dispatch): arrays and numbers from the lab's
 * bindings and uniform fields, CSR vector's instance from the pass's VECTOR_WIDTH, and y handed
 * back as the lab reads it (the atomic variants' f32 bits in u32 words). y is the CPU's.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { seededRandom } from '../../util/random.ts';
import { compileCudaDraft, cudaPass } from '../../workbench/cudaDraft.ts';
import { SPMV_CUDA } from './cuda.ts';
import { makeMatrix, spmvReference, type Csr, type MatrixKind } from './formats.ts';
import { spmvRun, vectorWidth, Y_BINDING, yOf, type SpmvVariant } from './kernel.ts';
import { iterationStrip, loadSteps, touchesAt } from './trace.ts';

const TWINNED: readonly SpmvVariant[] = ['csr-scalar', 'csr-vector', 'ell', 'coo', 'hybrid', 'jds', 'csr-adaptive', 'sell'];

function matrix(kind: MatrixKind, rows: number, seed: number): { a: Csr; x: Float32Array } {
  const rng = seededRandom(seed);
  const m = makeMatrix(kind, rows, rng);
  // Small whole numbers: every sum exact, whatever the order the atomics add in.
  const a: Csr = { ...m, values: Float32Array.from(m.values, () => Math.floor(rng() * 7) - 3) };
  return { a, x: Float32Array.from({ length: a.cols }, () => Math.floor(rng() * 9) - 4) };
}

describe('the SpMV lab’s CUDA tab runs the twins in place of their WGSL', () => {
  it.each(TWINNED.flatMap((v) => (['powerlaw', 'banded'] as const).map((kind) => [v, kind] as const)))('%s, %s matrix', (variant, kind) => {
    const { a, x } = matrix(kind, 500, variant.length + kind.length);
    const program = compileCudaDraft(SPMV_CUDA[variant]).program!;
    const run = spmvRun(variant, a, x);
    const pass = cudaPass(program, run);
    if (variant === 'csr-vector') expect(pass.run.entryPoint).toBe(`spmvCsrVector_${vectorWidth(a)}`);
    const result = simulate(pass.run, { trace: 'summary' });
    expect(result.diagnostics.filter((d) => d.kind === 'out-of-bounds' || d.kind === 'race')).toEqual([]);
    const y = pass.outputs(result.buffers)[0]![Y_BINDING[variant]]!;
    expect(Array.from(yOf(variant, y, a.rows))).toEqual(Array.from(spmvReference(a, x)));
  });
});

describe('a kernel with renamed parameters, replayed, shows the stage by the lab’s names', () => {
  it('csr-scalar with rowPtr, colIndex, values and x renamed: the loads are found by the buffers they took', () => {
    const { a, x } = matrix('banded', 40, 7);
    const renamed = SPMV_CUDA['csr-scalar']
      .replace(/\browPtr\b/g, 'starts')
      .replace(/\bcolIndex\b/g, 'cols')
      .replace(/\bvalues\b/g, 'nz')
      .replace('const float *x', 'const float *vec')
      .replace('* x[', '* vec[');
    const program = compileCudaDraft(renamed).program!;
    const trace = simulate(cudaPass(program, spmvRun('csr-scalar', a, x)).run, { trace: 'full', traceWorkgroups: [0] }).trace!;
    // The trace keeps the kernel's names and carries the lab's beside them.
    const names = trace.memories.filter((m) => m.space === 'storage').map((m) => [m.name, m.alias]);
    expect(names).toEqual(expect.arrayContaining([['starts', 'row_ptr'], ['cols', 'col_index'], ['nz', 'values'], ['vec', 'x']]));
    // Every role the stage draws has its loads, and warp 0 its strip of gathers of x.
    for (const role of ['rows', 'indices', 'values', 'x'] as const) expect(loadSteps(trace, role).length, role).toBeGreaterThan(0);
    expect(iterationStrip(trace, 0).length).toBeGreaterThan(0);
    const gather = touchesAt(trace, loadSteps(trace, 'x')[0]!);
    expect([gather.name, gather.own, gather.role]).toEqual(['x', 'vec', 'x']);
  });
});
