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
import { gridOf, histogramReference, histogramRun, packBytes, type HistogramVariant } from './kernel.ts';

type Twinned = 'per-element' | 'grid-stride' | 'privatized' | 'aggregated' | 'per-warp';

function histogramCase(variant: Twinned, dist: Distribution, n: number, bins: number, seed: number, check = true): TwinCase {
  const bytes = generateBytes(dist, n, seed);
  const range = rangeOf(dist);
  const words = packBytes(bytes);
  const wgsl = histogramRun(variant, words, n, bins, range);
  const [x] = gridOf(variant, n);
  const histo = new Uint32Array(wgsl.bindings[0]![1]!.length);
  const templated = variant === 'privatized' || variant === 'aggregated' || variant === 'per-warp';
  const name = { 'per-element': 'histoPerElement', 'grid-stride': 'histoGridStride', privatized: 'histoPrivatized', aggregated: 'histoAggregated', 'per-warp': 'histoPerWarp' }[variant];
  const kernel = variant === 'per-warp' ? `${name}<${bins}, 256>` : templated ? `${name}<${bins}>` : name;
  const args = variant === 'per-warp' ? { data: words, n, histo, lo: range.lo, span: range.span } : { buffer: bytes, n, histo, ...(templated ? {} : { bins }), lo: range.lo, span: range.span };
  return onePassCase(
    `${n} bytes (${dist}), ${bins} bins`,
    { wgsl, kernel, config: { grid: { x: variant === 'per-element' ? Math.ceil(n / 256) : x, y: 1, z: 1 }, block: { x: 256, y: 1, z: 1 } }, args, outputs: { histo: 1 } },
    check ? { histo: wordsOf(histogramReference(bytes, bins, range)) } : undefined,
    words.byteLength,
  );
}

/** The lab's benchmark input: 4 · 2^26 bytes, fewer where the adapter's bindings are smaller. */
const benchBytes = (limits: TwinLimits): number => Math.min(4 * 2 ** 26, Math.floor(limits.maxBindingBytes / 16) * 16);

const twin = (variant: Twinned): LabTwin => ({
  lab: 'histogram',
  variant,
  fileName: `src/labs/histogram/cuda/${variant}.cu`,
  source: HISTOGRAM_CUDA[variant],
  cases: () => [histogramCase(variant, 'letters', 1, 7, 1), histogramCase(variant, 'letters', 4099, 7, 2), histogramCase(variant, 'uniform', 5000, 256, 3), histogramCase(variant, 'one-value', 2053, 256, 4)],
  bench: (limits) => histogramCase(variant, 'uniform', benchBytes(limits), 256, 3, false),
});

export const HISTOGRAM_TWINS: readonly LabTwin[] = (['per-element', 'grid-stride', 'privatized', 'aggregated', 'per-warp'] as const).map(twin);

const REINTERPRET =
  "its CUDA reads the same buffer both as uint4 and as bytes (reinterpret_cast<const unsigned char *>(data) for the tail), and the translator gives each buffer one element type (WGSL arrays have one), so it is not twinned";
export const HISTOGRAM_NOT_TWINNED: readonly { lab: string; variant: HistogramVariant; reason: string }[] = [
  { lab: 'histogram', variant: 'batched', reason: REINTERPRET },
  { lab: 'histogram', variant: 'packed', reason: `${REINTERPRET}; its 8-bit counters packed four to a shared word are updated with shifts on whole words` },
  { lab: 'histogram', variant: 'packed-atomic', reason: 'its CUDA rendering is the packed kernel with one atomicAdd on the packed word; it shares the packed kernel\u2019s byte reinterpretation, so it is not twinned' },
];
