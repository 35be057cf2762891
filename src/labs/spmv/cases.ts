/**
 * Kernel cases of the SpMV lab: every variant over every matrix kind, plus matrices with many
 * empty rows and with one dense row. Values and x are small integers, so sums are exact and the
 * GPU and the simulator must agree bit for bit whatever order the atomics or subgroups add in.
 * CSR adaptive has one more case with chunks small enough that long rows span several.
 */
import type { KernelCase } from '../../kernel/cases.ts';
import { adaptiveGroup, bandedMatrix, denseRowMatrix, emptyRowsMatrix, laplacianMatrix, laplacianSide, makeVector, powerLawMatrix, rowBins, seedMatrix, uniformMatrix, type Csr } from './formats.ts';
import { ADAPTIVE_VEC4_FILE, adaptiveRun, needsSubgroups, SPMV_KERNELS, SPMV_VARIANTS, spmvRun } from './kernel.ts';
import { SELL_FILE, sellRun, toSell } from './sell.ts';

type Maker = (n: number, rng: () => number) => Csr;

/** Two groups, so each case's seeded inputs visit every kind of its group (chosen by the rng). */
const GROUPS: readonly { readonly name: string; readonly kinds: readonly Maker[] }[] = [
  { name: 'seed, banded, Laplacian, empty rows', kinds: [() => seedMatrix(), bandedMatrix, (n) => laplacianMatrix(laplacianSide(n)), emptyRowsMatrix] },
  { name: 'uniform, power-law, one dense row', kinds: [uniformMatrix, powerLawMatrix, denseRowMatrix] },
];

const variantCases: KernelCase[] = SPMV_VARIANTS.flatMap((variant) =>
  GROUPS.map(
    (group): KernelCase => ({
      file: SPMV_KERNELS[variant].file,
      name: `spmv/${variant} f32 ${group.name}`,
      // n: rows (the seed's matrix is always 4 × 4).
      sizes: [1, 5, 33, 100, 257],
      subgroups: needsSubgroups(variant),
      build(rng, n) {
        const a = group.kinds[Math.floor(rng() * group.kinds.length)]!(n, rng);
        return spmvRun(variant, a, makeVector(a.cols, rng), rng() < 0.5 ? 64 : 256);
      },
    }),
  ),
);

/**
 * CSR adaptive (or its vec4-load experiment) on one of `kinds`, with small chunks (8 to 64
 * nonzeros), so the long rows of these small matrices span several chunks and meet in y through
 * the compare-exchange add, with every group size, 1 to 3 passes and a random long-row threshold.
 */
function adaptiveCase(name: string, kinds: readonly Maker[], vec4: boolean): KernelCase {
  return {
    file: vec4 ? ADAPTIVE_VEC4_FILE : SPMV_KERNELS['csr-adaptive'].file,
    name,
    sizes: [1, 5, 33, 100, 257],
    subgroups: true,
    build(rng, n) {
      const a = kinds[Math.floor(rng() * kinds.length)]!(n, rng);
      const group = 2 ** Math.floor(rng() * 6);
      const chunk = 8 * 2 ** Math.floor(rng() * 4);
      const longAfter = Math.floor(rng() * 4) * adaptiveGroup(a);
      return adaptiveRun(a, makeVector(a.cols, rng), rng() < 0.5 ? 64 : 256, { group, passes: 1 + Math.floor(rng() * 3), bins: rowBins(a, longAfter, chunk), vec4 });
    },
  };
}

const adaptiveChunks = adaptiveCase('spmv/csr-adaptive f32 small chunks, groups 1–32, power-law, one dense row, empty rows', [powerLawMatrix, denseRowMatrix, emptyRowsMatrix], false);
/** The vec4-load experiment of CSR adaptive (not a lab variant), over every matrix kind. */
const adaptiveVec4 = adaptiveCase('spmv/csr-adaptive-vec4 f32 every kind, small chunks, groups 1–32', [...GROUPS[0]!.kinds, ...GROUPS[1]!.kinds], true);

/**
 * The sliced ELL (sell.ts) with options other than the lab's, over every matrix kind: rows cut
 * into pieces of 3 to 16 nonzeros (so the cut rows' pieces meet in the subgroup scan and in y),
 * sorted in windows of 1 to 256 rows, padded in steps of 1, 2 or 4.
 */
const sell: KernelCase = {
  file: SELL_FILE,
  name: 'spmv/sell f32 every kind, short pieces, windows and steps',
  sizes: [1, 5, 33, 100, 257],
  subgroups: true,
  build(rng, n) {
    const kinds = [...GROUPS[0]!.kinds, ...GROUPS[1]!.kinds];
    const a = kinds[Math.floor(rng() * kinds.length)]!(n, rng);
    const step = [1, 2, 4][Math.floor(rng() * 3)]!;
    const matrix = toSell(a, { limit: 3 + Math.floor(rng() * 14), window: 2 ** Math.floor(rng() * 9), step });
    return sellRun(matrix, a.rows, makeVector(a.cols, rng), step, rng() < 0.5 ? 64 : 256);
  },
};

export const spmvCases: KernelCase[] = [...variantCases, adaptiveChunks, adaptiveVec4, sell];
