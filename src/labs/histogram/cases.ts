/** Kernel test cases of the histogram: every variant on seeded bytes, 7 letter bins, 100 and 256 byte bins. */
import type { KernelCase } from '../../kernel/cases.ts';
import { BYTE_RANGE, HISTOGRAM_KERNELS, HISTOGRAM_VARIANTS, histogramRun, LETTER_RANGE, packBytes, type BinRange } from './kernel.ts';

/** 100 bins: not a multiple of the workgroup size, so the clearing and merge loops end mid-warp. */
const SETUPS: readonly { bins: number; range: BinRange; label: string; bytes: (rng: () => number) => number }[] = [
  { bins: 7, range: LETTER_RANGE, label: '7 letter bins', bytes: (rng) => 96 + Math.floor(rng() * 32) },
  { bins: 100, range: BYTE_RANGE, label: '100 byte bins', bytes: (rng) => Math.floor(rng() * 256) },
  // Long runs of one byte, so the aggregating variants flush runs of every length.
  { bins: 256, range: BYTE_RANGE, label: '256 byte bins, runs', bytes: (rng) => (rng() < 0.9 ? 7 : Math.floor(rng() * 256)) },
];

export const histogramCases: KernelCase[] = HISTOGRAM_VARIANTS.flatMap((variant) =>
  SETUPS.map(
    (setup): KernelCase => ({
      file: HISTOGRAM_KERNELS[variant].file,
      name: `histogram/${variant} ${setup.label}`,
      // Bytes; 1 and 4097 are not multiples of anything the kernels step by.
      sizes: [1, 37, 1000, 4097, 20_000],
      build: (rng, n) => {
        const bytes = new Uint8Array(n);
        for (let i = 0; i < n; i++) bytes[i] = setup.bytes(rng);
        return histogramRun(variant, packBytes(bytes), n, setup.bins, setup.range);
      },
    }),
  ),
);
