/**
 * Histogram figures for `npm run bench`: every variant over 4 · 2^maxLog2 bytes (2^28 by default)
 * into 256 bins, on uniform bytes and on all-one-value bytes, as GB/s of input read and as a share
 * of a read over the kernel's own input, timed beside it in alternating rounds (median of the
 * rounds' ratios, with the lowest and highest). Prints figures (the ladder from variant 1 to the
 * last), never fails on time; the peers (torch.bincount, CUB's DeviceHistogram) run from
 * scripts/peers/histconv_peers.py and scripts/peers/cub_histogram.cu on the same GPU, and
 * scripts/experiments/histogram-experiments.ts takes the packed variants apart (grid, data, ablations).
 */
import type { BandwidthBaselines, GpuExecutor } from '../../gpu/index.ts';
import { fmt, gbps, log2Label, pct, ratioCell, table } from '../../bench/format.ts';
import { BYTE_RANGE, HISTOGRAM_VARIANTS, histogramReference, histogramRun, packBytes } from './kernel.ts';
import { generateBytes, type Distribution } from './data.ts';

const BINS = 256;

export async function histogramSection(gpu: GpuExecutor, baselines: BandwidthBaselines, opts: { repeats: number; maxLog2: number }): Promise<string> {
  const adapter = gpu.adapter!;
  const cap = Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize);
  const n = Math.min(4 * 2 ** opts.maxLog2, Math.floor(cap / 16) * 16);
  const rows: string[][] = [];
  for (const dist of ['uniform', 'one-value'] as Distribution[]) {
    const bytes = generateBytes(dist, n, 3);
    const words = packBytes(bytes);
    const want = histogramReference(bytes, BINS, BYTE_RANGE);
    for (const v of HISTOGRAM_VARIANTS) {
      const run = histogramRun(v, words, n, BINS, BYTE_RANGE);
      // One untimed run checks the counts before anything is timed.
      const got = (await gpu.run(run))[0]![1]!;
      const ok = want.every((c, b) => got[b] === c);
      const t = await gpu.time(run, { repeats: opts.repeats, baseline: { kind: 'read', bytes: n } });
      const rate = gbps(n, t.medianMs);
      rows.push([dist, v, ok ? 'yes' : 'NO', fmt(t.medianMs, 4), String(t.dispatchesPerPass), fmt(rate), pct(t.relative?.ratio ?? Number.NaN), ratioCell(t)]);
    }
  }
  return [
    `${log2Label(n)} bytes into ${BINS} bins (session read baseline ${fmt(baselines.readGBps)} GB/s over ${baselines.bytes} bytes; each share is of a read of the input timed beside the kernel)`,
    table(['data', 'variant', 'correct', 'median ms', 'dispatches/pass', 'GB/s read', '% of read', 'rounds'], rows),
  ].join('\n');
}
