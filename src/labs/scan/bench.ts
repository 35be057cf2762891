/**
 * Scan figures for `npm run bench`: every variant at N = 2^26 (and 2^28 where maxLog2 allows),
 * timed as the whole chain of dispatches it needs in alternating rounds with a copy between its
 * own input and output buffers (the same traffic: read n, write n), reported as GB/s and as the
 * median share of that copy over the rounds; then TensorFlow.js's `tf.cumsum` on its WebGPU
 * backend on the same adapter, for a ratio. Prints figures, never fails on time.
 */
import type { GpuExecutor, Timing } from '../../gpu/index.ts';
import { fmt, gbps, log2Label, pct, ratioCell, table, type BestFigure } from '../../bench/format.ts';
import { timeTf } from '../../bench/tfjs.ts';
import type { ElementType } from '../../workbench/labTypes.ts';
import { timingPasses } from './driver.ts';
import { bytesMoved } from './reference.ts';
import { SCAN_VARIANTS, largestWorkgroupSize, scanSupport, type ScanVariant } from './variants.ts';

interface Row {
  readonly variant: ScanVariant;
  readonly workgroupSize: number;
  readonly medianMs: number;
  readonly ratio: number | undefined;
}

/** Workgroup sizes to time: the variant's default, and every size it offers for the single passes. */
function sizesToTime(v: ScanVariant, type: ElementType, adapter: NonNullable<GpuExecutor['adapter']>): number[] | string {
  const support = scanSupport(v, v.defaultWorkgroupSize, type, adapter);
  if (v.shape === 'single-pass') {
    const sizes = v.workgroupSizes.filter((w) => w >= 128 && scanSupport(v, w, type, adapter).ok);
    if (sizes.length) return sizes;
  }
  const wg = support.ok ? v.defaultWorkgroupSize : largestWorkgroupSize(v, type, adapter);
  return wg === undefined ? (support.ok ? 'unsupported' : support.message) : [wg];
}

async function timeVariant(gpu: GpuExecutor, v: ScanVariant, n: number, type: ElementType, repeats: number, wg: number): Promise<{ passes: number; t: Timing }> {
  const chain = timingPasses(v.id, n, { workgroupSize: wg, type });
  const t = await gpu.time(chain, { repeats, baseline: { kind: 'copy', bytes: bytesMoved(n) } });
  return { passes: chain.length, t };
}

/** GB/s with enough digits for slow adapters (SwiftShader moves MB/s). */
const rateText = (r: number): string => fmt(r, r < 1 ? 4 : 2);


/**
 * Times every scan variant (u32, inclusive) at N = 2^min(26, maxLog2) and, when maxLog2 ≥ 28,
 * 2^28 (each capped by the adapter's binding size), and TensorFlow.js's cumsum beside the fastest
 * one in f32. Returns Markdown.
 */
export async function benchScan(
  gpu: GpuExecutor,
  opts: { repeats: number; maxLog2: number; record?: (best: BestFigure) => void },
): Promise<string> {
  const adapter = gpu.adapter ?? (await gpu.ready()).summary;
  const maxBinding = Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize);
  const fit = (l: number): number => {
    while (2 ** l * 4 > maxBinding) l--;
    return l;
  };
  const sizes = [...new Set([fit(Math.min(26, opts.maxLog2)), ...(opts.maxLog2 >= 28 ? [fit(28)] : [])])];
  const out: string[] = [];
  for (const log2 of sizes) out.push(await benchScanAt(gpu, 2 ** log2, opts));
  return out.join('\n\n');
}

async function benchScanAt(
  gpu: GpuExecutor,
  n: number,
  opts: { repeats: number; record?: (best: BestFigure) => void },
): Promise<string> {
  const adapter = gpu.adapter ?? (await gpu.ready()).summary;
  const repeats = Math.max(10, opts.repeats);
  const out: string[] = [];
  out.push(`## Scan (u32, inclusive, N = ${log2Label(n)}, ${repeats} rounds, median)`);
  out.push('GB/s counts the least traffic any scan needs: read and write each element once (8 bytes per element).');
  out.push('% of copy: median over the rounds of the scan\'s GB/s over a copy from its input to its output timed just after it; rounds: the lowest and highest round.\n');

  const rows: string[][] = [];
  const timed: Row[] = [];
  for (const v of SCAN_VARIANTS) {
    const wgs = sizesToTime(v, 'u32', adapter);
    if (typeof wgs === 'string') {
      rows.push([v.title, '—', '—', '—', '—', '—', '—', '—', wgs]);
      continue;
    }
    for (const wg of wgs) {
      const r = await timeVariant(gpu, v, n, 'u32', repeats, wg);
      const rate = gbps(bytesMoved(n), r.t.medianMs);
      timed.push({ variant: v, workgroupSize: wg, medianMs: r.t.medianMs, ratio: r.t.relative?.ratio });
      rows.push([
        v.title,
        String(wg),
        String(r.passes),
        fmt(r.t.medianMs, 3),
        fmt(r.t.minMs, 3),
        fmt(r.t.maxMs, 3),
        rateText(rate),
        pct(r.t.relative?.ratio ?? Number.NaN),
        ratioCell(r.t),
      ]);
    }
  }
  out.push(table(['variant', 'workgroup', 'dispatches', 'median ms', 'min ms', 'max ms', 'GB/s', '% of copy', 'rounds'], rows));

  // The best 1-D scan by its share of the copy timed beside it (robust to a slow spell of memory).
  const fastest = timed.filter((r) => r.variant.shape !== 'matrix').sort((a, b) => (b.ratio ?? 0) - (a.ratio ?? 0) || a.medianMs - b.medianMs)[0];
  if (fastest) opts.record?.({ op: 'scan', n, type: 'u32', variant: `${fastest.variant.id}@${fastest.workgroupSize}`, medianMs: fastest.medianMs, ratio: fastest.ratio });

  // TensorFlow.js beside our fastest 1-D scan, both in f32.
  out.push(`\n## TensorFlow.js tf.cumsum (WebGPU backend, f32, N = ${log2Label(n)})`);
  const tfResult = await timeTf('cumsum', n, 'float32', repeats);
  if (!tfResult.ok) {
    out.push(`tf.cumsum could not run here: ${tfResult.reason}`);
  } else if (fastest) {
    const supported = scanSupport(fastest.variant, fastest.workgroupSize, 'f32', adapter).ok;
    const ours = supported ? (await timeVariant(gpu, fastest.variant, n, 'f32', repeats, fastest.workgroupSize)).t : undefined;
    const oursMs = ours?.medianMs ?? Number.NaN;
    if (ours) opts.record?.({ op: 'scan', n, type: 'f32', variant: `${fastest.variant.id}@${fastest.workgroupSize}`, medianMs: oursMs, ratio: ours.relative?.ratio });
    out.push(
      table(
        ['kernel', 'median ms', 'GB/s'],
        [
          [`tf.cumsum (${tfResult.source})`, fmt(tfResult.medianMs, 3), rateText(gbps(bytesMoved(n), tfResult.medianMs))],
          [`${fastest.variant.title}, workgroup ${fastest.workgroupSize} (f32)`, fmt(oursMs, 3), rateText(gbps(bytesMoved(n), oursMs))],
        ],
      ),
    );
    out.push(`\nratio: tf.cumsum takes ${fmt(tfResult.medianMs / oursMs, 2)}× the time of ${fastest.variant.title} (workgroup ${fastest.workgroupSize}).`);
  }
  return out.join('\n');
}
