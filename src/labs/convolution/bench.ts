/**
 * Convolution figures for `npm run bench`: every variant on a square f32 image of about 2^maxLog2
 * pixels (8192 × 8192 at the default 26; smaller where the adapter's buffers are) with a 5 × 5 mask, checked against the CPU reference on
 * a band of rows, then timed; GB/s count one read and one write per pixel, and the share is of a copy
 * over the kernel's own buffers timed beside it in alternating rounds (median of the rounds' ratios,
 * with the lowest and highest). The 1-D variant is timed on the same pixels as one signal. The peer
 * (torch conv2d, cuDNN, TF32 off) runs from scripts/peers/histconv_peers.py.
 */
import type { BandwidthBaselines, GpuExecutor } from '../../gpu/index.ts';
import { fmt, gbps, pct, ratioCell, table } from '../../bench/format.ts';
import { CONVOLUTION_VARIANTS, convolutionInputs, convolutionReference, convolutionRun, unpitch } from './kernel.ts';

const MASK = 5;

export async function convolutionSection(gpu: GpuExecutor, baselines: BandwidthBaselines, opts: { repeats: number; maxLog2: number }): Promise<string> {
  const adapter = gpu.adapter!;
  const cap = Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize);
  let side = 2 ** Math.floor(opts.maxLog2 / 2);
  while (side > 64 && side * side * 4 > cap) side /= 2;
  const { image, mask } = convolutionInputs(side, side, MASK, 5);
  // The reference on the first 40 rows (ghost cells along the top and both sides) is enough to catch a wrong kernel.
  const band = Math.min(40, side - MASK);
  const bandImage = image.subarray(0, side * (band + MASK));
  const rows: string[][] = [];
  for (const v of CONVOLUTION_VARIANTS) {
    const run = convolutionRun(v, image, mask, { width: side, height: side, maskWidth: MASK, outTile: 12 });
    const out = unpitch((await gpu.run(run))[0]![2]! as Float32Array, v, side, side);
    // Rows 0 … band − 1 depend only on rows up to band + r, in 2-D and (as one signal) in 1-D.
    const want = convolutionReference(v, bandImage, side, band + MASK, mask, MASK);
    const ok = want.subarray(0, side * band).every((x, i) => Object.is(out[i], x));
    const t = await gpu.time(run, { repeats: opts.repeats, baseline: { kind: 'copy', bytes: 8 * side * side } });
    const rate = gbps(8 * side * side, t.medianMs);
    rows.push([v, ok ? 'yes' : 'NO', fmt(t.medianMs, 4), String(t.dispatchesPerPass), fmt(rate), pct(t.relative?.ratio ?? Number.NaN), ratioCell(t)]);
  }
  return [
    `${side} × ${side} f32, ${MASK} × ${MASK} mask (session copy baseline ${fmt(baselines.copyGBps)} GB/s over ${baselines.bytes} bytes; each share is of a copy timed beside the kernel on its own buffers)`,
    table(['variant', `correct (first ${band} rows)`, 'median ms', 'dispatches/pass', 'GB/s (read + write)', '% of copy', 'rounds'], rows),
  ].join('\n');
}
