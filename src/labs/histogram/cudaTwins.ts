/**
 * The histogram lab's CUDA sources beside its WGSL variants (issue #26), launched as a CUDA host
 * launches them on the lab's bytes: 7 bins of letters (the seed's) and 256 bins of bytes, the
 * template instance for the number of bins. Counts do not depend on the order of the atomics, so
 * both runs and the CPU agree exactly. Read by the tests (`src/labs/cudaTwins*.test.ts`) and the
 * bench (`BENCH_ONLY=cuda`: 2^28 uniform bytes into 256 bins, as the lab's section).
 */
import { onePassCase, wordsOf, type LabTwin, type TwinCase, type TwinLimits } from '../../cuda/index.ts';
import { HISTOGRAM_CUDA } from './cuda.ts';
import { generateBytes, rangeOf, type Distribution } from './data.ts';
import { gridOf, HISTOGRAM_VARIANTS, HISTOGRAM_WORKGROUP, histogramReference, histogramRun, isPackedVariant, PACKED_WORKGROUP, packBytes, type HistogramVariant } from './kernel.ts';

const KERNEL: Readonly<Record<HistogramVariant, string>> = {
  'per-element': 'histoPerElement',
  'grid-stride': 'histoGridStride',
  privatized: 'histoPrivatized',
  aggregated: 'histoAggregated',
  'per-warp': 'histoPerWarp',
  packed: 'histoPacked',
  'packed-atomic': 'histoPackedAtomic',
  batched: 'histoBatched',
};
/** The kernels that read the input as uint4s and take their range of bytes as template constants. */
const VEC4_CONSTANT_RANGE: readonly HistogramVariant[] = ['packed', 'packed-atomic', 'batched'];

/** One launch over `n` bytes; `maxGrid` caps the workgroups of the uint4 kernels, as the lab's bench can. */
function histogramCase(variant: HistogramVariant, dist: Distribution, n: number, bins: number, seed: number, check = true, maxGrid?: number): TwinCase {
  const bytes = generateBytes(dist, n, seed);
  const range = rangeOf(dist);
  const words = packBytes(bytes);
  const wgsl = histogramRun(variant, words, n, bins, range, undefined, maxGrid);
  const [x] = gridOf(variant, n, maxGrid);
  const histo = new Uint32Array(wgsl.bindings[0]![1]!.length);
  const name = KERNEL[variant];
  const constantRange = VEC4_CONSTANT_RANGE.includes(variant);
  const templated = variant === 'privatized' || variant === 'aggregated' || variant === 'per-warp';
  const kernel = constantRange ? `${name}<${bins}, ${range.lo}, ${range.span}>` : variant === 'per-warp' ? `${name}<${bins}, 256>` : templated ? `${name}<${bins}>` : name;
  const args = constantRange
    ? { data: words, n, histo }
    : variant === 'per-warp'
      ? { data: words, n, histo, lo: range.lo, span: range.span }
      : { buffer: bytes, n, histo, ...(templated ? {} : { bins }), lo: range.lo, span: range.span };
  const block = isPackedVariant(variant) ? PACKED_WORKGROUP : HISTOGRAM_WORKGROUP;
  return onePassCase(
    `${n} bytes (${dist}), ${bins} bins${maxGrid ? `, at most ${maxGrid} blocks` : ''}`,
    { wgsl, kernel, config: { grid: { x: variant === 'per-element' ? Math.ceil(n / 256) : x, y: 1, z: 1 }, block: { x: block, y: 1, z: 1 } }, args, outputs: { histo: 1 } },
    check ? { histo: wordsOf(histogramReference(bytes, bins, range)) } : undefined,
    words.byteLength,
  );
}

/** The lab's benchmark input: 4 · 2^26 bytes, fewer where the adapter's bindings are smaller. */
const benchBytes = (limits: TwinLimits): number => Math.min(4 * 2 ** 26, Math.floor(limits.maxBindingBytes / 16) * 16);

const twin = (variant: HistogramVariant): LabTwin => ({
  lab: 'histogram',
  variant,
  fileName: `src/labs/histogram/cuda/${variant}.cu`,
  source: HISTOGRAM_CUDA[variant],
  // 4099 and 2053 bytes end in a ragged, partly filled uint4. 40 001 bytes in one block make the
  // packed kernels flush three times (64 threads × 15 uint4s between flushes) and run the batched
  // kernel's pipelined loop (4 uint4s ahead) and its leftover loop.
  cases: () => [
    histogramCase(variant, 'letters', 1, 7, 1),
    histogramCase(variant, 'letters', 4099, 7, 2),
    histogramCase(variant, 'uniform', 5000, 256, 3),
    histogramCase(variant, 'one-value', 2053, 256, 4),
    ...(VEC4_CONSTANT_RANGE.includes(variant) ? [histogramCase(variant, 'uniform', 40_001, 256, 5, true, 1), histogramCase(variant, 'letters', 40_000, 7, 6, true, 1)] : []),
  ],
  bench: (limits) => histogramCase(variant, 'uniform', benchBytes(limits), 256, 3, false),
});

export const HISTOGRAM_TWINS: readonly LabTwin[] = HISTOGRAM_VARIANTS.map(twin);
