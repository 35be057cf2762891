/** Kernel cases of the top-k lab: both kernels, both semantics, several k, every distribution. */
import type { KernelCase } from '../../kernel/cases.ts';
import { TOPK_DISTRIBUTIONS, topkInput } from './inputs.ts';
import { firstPass, TOPK_FILES, type TopkVariant } from './kernel.ts';

const SIZES = [0, 1, 5, 37, 300, 1000, 2100];

export const topkCases: KernelCase[] = (['seed', 'fast'] as const).flatMap((variant: TopkVariant) =>
  ([true, false] as const).flatMap((distinct) =>
    [3, 20].map(
      (k): KernelCase => ({
        file: TOPK_FILES[variant].file,
        name: `topk/${variant} k=${k} ${distinct ? 'distinct' : 'duplicates kept'}`,
        sizes: SIZES,
        // The seeded generator picks the distribution, so a run's inputs cover all four.
        build: (rng, n) => firstPass(variant, topkInput(rng, n, TOPK_DISTRIBUTIONS[Math.floor(rng() * TOPK_DISTRIBUTIONS.length)]!), { k, distinct }),
      }),
    ),
  ),
);
