/**
 * Kernel cases of the SpMV lab: every variant over every matrix kind, plus matrices with many
 * empty rows and with one dense row. Values and x are small integers, so sums are exact and the
 * GPU and the simulator must agree bit for bit whatever order the atomics or subgroups add in.
 */
import type { KernelCase } from '../../kernel/cases.ts';
import { bandedMatrix, denseRowMatrix, emptyRowsMatrix, laplacianMatrix, laplacianSide, makeVector, powerLawMatrix, seedMatrix, uniformMatrix, type Csr } from './formats.ts';
import { SPMV_KERNELS, SPMV_VARIANTS, spmvRun } from './kernel.ts';

type Maker = (n: number, rng: () => number) => Csr;

/** Two groups, so each case's seeded inputs visit every kind of its group (chosen by the rng). */
const GROUPS: readonly { readonly name: string; readonly kinds: readonly Maker[] }[] = [
  { name: 'seed, banded, Laplacian, empty rows', kinds: [() => seedMatrix(), bandedMatrix, (n) => laplacianMatrix(laplacianSide(n)), emptyRowsMatrix] },
  { name: 'uniform, power-law, one dense row', kinds: [uniformMatrix, powerLawMatrix, denseRowMatrix] },
];

export const spmvCases: KernelCase[] = SPMV_VARIANTS.flatMap((variant) =>
  GROUPS.map(
    (group): KernelCase => ({
      file: SPMV_KERNELS[variant].file,
      name: `spmv/${variant} f32 ${group.name}`,
      // n: rows (the seed's matrix is always 4 × 4).
      sizes: [1, 5, 33, 100, 257],
      subgroups: variant === 'csr-vector' || variant === 'hybrid' || variant === 'csr-merge' || variant === 'csr-adaptive',
      build(rng, n) {
        const a = group.kinds[Math.floor(rng() * group.kinds.length)]!(n, rng);
        return spmvRun(variant, a, makeVector(a.cols, rng), rng() < 0.5 ? 64 : 256);
      },
    }),
  ),
);
