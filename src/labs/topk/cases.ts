/** Kernel cases of the top-k lab: every kernel, the semantics it computes, several k, every distribution. */
import type { KernelCase } from '../../kernel/cases.ts';
import { TOPK_DISTRIBUTIONS, topkInput } from './inputs.ts';
import { firstPass, supportsDistinct, TOPK_FILES, TOPK_VARIANTS, topkRun, type TopkVariant } from './kernel.ts';

const SIZES = [0, 1, 5, 37, 300, 1000, 2100];

const pick = (rng: () => number) => TOPK_DISTRIBUTIONS[Math.floor(rng() * TOPK_DISTRIBUTIONS.length)]!;

export const topkCases: KernelCase[] = [
  ...TOPK_VARIANTS.flatMap((variant: TopkVariant) =>
    ([true, false] as const)
      .filter((distinct) => !distinct || supportsDistinct(variant))
      .flatMap((distinct) =>
        [3, 20].map(
          (k): KernelCase => ({
            file: TOPK_FILES[variant].file,
            name: `topk/${variant} k=${k} ${distinct ? 'distinct' : 'duplicates kept'}`,
            sizes: SIZES,
            // The seeded generator picks the distribution, so a run's inputs cover all four.
            build: (rng, n) => firstPass(variant, topkInput(rng, n, pick(rng)), { k, distinct }),
          }),
        ),
      ),
  ),
  {
    // One workgroup over several rounds of 2048 values: the pool is cut (radix select in
    // workgroup memory) after the first round, and after every round on ascending input.
    file: TOPK_FILES.radix.file,
    name: 'topk/radix one workgroup, many rounds, k=64',
    sizes: [2049, 4099, 9001],
    build: (rng, n) => topkRun('radix', topkInput(rng, n, pick(rng)), 1, { k: 64, distinct: false }),
  },
  {
    // radix-ahead over several rounds in one workgroup: short cuts during the read, the exact one
    // at the end.
    file: TOPK_FILES['radix-ahead'].file,
    name: 'topk/radix-ahead one workgroup, many rounds, k=64',
    sizes: [2049, 4099, 9001],
    build: (rng, n) => topkRun('radix-ahead', topkInput(rng, n, pick(rng)), 1, { k: 64, distinct: false }),
  },
  {
    // radix-ahead's pass 2: lists (here any values) and the shared floor at their median, so values
    // below, equal to and above it all occur.
    file: TOPK_FILES['radix-ahead'].file,
    name: 'topk/radix-ahead pass 2 from a shared floor, k=20',
    sizes: [40, 300, 2100, 5000],
    build: (rng, n) => {
      const values = topkInput(rng, n, pick(rng));
      const median = Int32Array.from(values).sort()[n >> 1]!;
      return topkRun('radix-ahead', values, 1, { k: 20, distinct: false, floorKey: (median ^ -2147483648) >>> 0 });
    },
  },
];
