/** Kernel test cases of the histogram: every variant on seeded bytes, 7 letter bins, 100 and 256 byte bins. */
import type { KernelCase } from '../../kernel/cases.ts';
import {
  BYTE_RANGE,
  HISTOGRAM_KERNELS,
  HISTOGRAM_VARIANTS,
  histogramRun,
  isPackedVariant,
  LANES16_KERNEL,
  lanes16Run,
  LETTER_RANGE,
  packBytes,
  type BinRange,
} from './kernel.ts';

/** 100 bins: not a multiple of the workgroup size, so the clearing and merge loops end mid-warp. */
const SETUPS: readonly {
  bins: number;
  range: BinRange;
  label: string;
  bytes: (rng: () => number) => number;
}[] = [
  { bins: 7, range: LETTER_RANGE, label: '7 letter bins', bytes: (rng) => 96 + Math.floor(rng() * 32) },
  { bins: 100, range: BYTE_RANGE, label: '100 byte bins', bytes: (rng) => Math.floor(rng() * 256) },
  // Long runs of one byte, so the aggregating variants flush runs of every length.
  {
    bins: 256,
    range: BYTE_RANGE,
    label: '256 byte bins, runs',
    bytes: (rng) => (rng() < 0.9 ? 7 : Math.floor(rng() * 256)),
  },
];

/**
 * The packed variants on one workgroup, so every invocation runs several rounds and flushes between
 * them. 30 735 bytes, all zero: two full rounds of 64 × 240 bytes and a ragged end of 15, which
 * invocation 0 adds to a round of 240 of its own, so its counter of bin 0 reaches 255, the most it
 * holds. 47 000 bytes: mostly zeros with some bytes of every value, and a partly empty last round.
 */
const packedFlushCases: KernelCase[] = HISTOGRAM_VARIANTS.filter(isPackedVariant).map(
  (variant): KernelCase => ({
    file: HISTOGRAM_KERNELS[variant].file,
    name: `histogram/${variant} one workgroup, several flushes`,
    sizes: [30_735, 47_000],
    build: (rng, n) => {
      const zeros = n === 30_735 ? 1 : 0.8;
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = rng() < zeros ? 0 : Math.floor(rng() * 256);
      return histogramRun(variant, packBytes(bytes), n, 256, BYTE_RANGE, undefined, 1);
    },
  }),
);

/**
 * The batched variant on one workgroup, so its pipelined batches (one, two and three per
 * invocation), leftover vec4s and ragged end all run, on runs of one value among random bytes.
 */
const batchedCase: KernelCase = {
  file: HISTOGRAM_KERNELS.batched.file,
  name: 'histogram/batched one workgroup, pipelined batches and runs of one value',
  sizes: [16_400, 40_007, 50_001],
  build: (rng, n) => {
    const bytes = new Uint8Array(n);
    // Runs of one byte value, some 16-byte aligned, among random bytes.
    let value = 0;
    for (let i = 0; i < n; i++) {
      if (rng() < 0.02) value = Math.floor(rng() * 256);
      bytes[i] = rng() < 0.5 ? value : Math.floor(rng() * 256);
      if (i % 64 < 16 && i % 1024 < 512) bytes[i] = value;
    }
    return histogramRun('batched', packBytes(bytes), n, 256, BYTE_RANGE, undefined, 1);
  },
};

/**
 * The lanes16 experiment: every setup on the default grid, and one workgroup with rounds of 3 vec4s
 * an invocation, so it flushes many times (zeros, mostly vec4s of 16 equal bytes, and mixed bytes).
 */
const lanes16Cases: KernelCase[] = [
  ...SETUPS.map((setup): KernelCase => ({
    file: LANES16_KERNEL.file,
    name: `histogram/lanes16 ${setup.label}`,
    sizes: [1, 37, 1000, 4097, 20_000],
    build: (rng, n) => {
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = setup.bytes(rng);
      return lanes16Run(packBytes(bytes), n, setup.bins, setup.range);
    },
  })),
  {
    file: LANES16_KERNEL.file,
    name: 'histogram/lanes16 one workgroup, short rounds, several flushes',
    sizes: [3000, 10_007],
    build: (rng, n) => {
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = rng() < 0.7 ? 0 : Math.floor(rng() * 256);
      return lanes16Run(packBytes(bytes), n, 256, BYTE_RANGE, { maxGrid: 1, round: 3 });
    },
  },
];

export const histogramCases: KernelCase[] = [
  ...lanes16Cases,
  ...packedFlushCases,
  batchedCase,
  ...HISTOGRAM_VARIANTS.flatMap((variant) =>
    SETUPS.map((setup): KernelCase => ({
      file: HISTOGRAM_KERNELS[variant].file,
      name: `histogram/${variant} ${setup.label}`,
      // Bytes; 1 and 4097 are not multiples of anything the kernels step by.
      sizes: [1, 37, 1000, 4097, 20_000],
      build: (rng, n) => {
        const bytes = new Uint8Array(n);
        for (let i = 0; i < n; i++) bytes[i] = setup.bytes(rng);
        return histogramRun(variant, packBytes(bytes), n, setup.bins, setup.range);
      },
    })),
  ),
];
