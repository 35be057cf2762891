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
