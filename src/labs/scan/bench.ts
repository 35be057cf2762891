/**
 * Scan figures for `npm run bench`: every variant at N = 2^maxLog2, timed as the whole chain of
 * dispatches it needs, as GB/s of the minimum traffic (read n, write n) and as a share of the copy
 * baseline measured in the same run; then TensorFlow.js's `tf.cumsum` on its WebGPU backend on the
 * same adapter, for a ratio. Prints figures, never fails on time.
 */
import type { BandwidthBaselines, GpuExecutor } from '../../gpu/index.ts';
import { fmt, gbps, log2Label, table } from '../../bench/format.ts';
import type { ElementType } from '../types.ts';
import { timingPasses } from './driver.ts';
import { bytesMoved } from './reference.ts';
import { SCAN_VARIANTS, largestWorkgroupSize, scanSupport, type ScanVariant } from './variants.ts';
import { median } from '../../util/stats.ts';

interface Row {
  readonly variant: ScanVariant;
  readonly workgroupSize: number;
  readonly medianMs: number;
}

/** Objects Dawn must not garbage-collect while the process lives (see src/gpu/node.ts). */
const keepAlive: unknown[] = [];

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

async function timeVariant(gpu: GpuExecutor, v: ScanVariant, n: number, type: ElementType, repeats: number, wg: number): Promise<{ passes: number; t: Awaited<ReturnType<GpuExecutor['time']>> }> {
  const chain = timingPasses(v.id, n, { workgroupSize: wg, type });
  const t = await gpu.time(chain, { repeats });
  return { passes: chain.length, t };
}

/** What `tf.cumsum` measured, or why it could not run. */
type TfResult = { readonly ok: true; readonly medianMs: number; readonly source: string } | { readonly ok: false; readonly reason: string };

/** GB/s with enough digits for slow adapters (SwiftShader moves MB/s). */
const rateText = (r: number): string => fmt(r, r < 1 ? 4 : 2);


/**
 * Runs `tf.cumsum` (float32) on TensorFlow.js's WebGPU backend. In Node the backend finds WebGPU
 * through `navigator.gpu`, so Dawn's entry point (the `webgpu` package, on the same Vulkan driver
 * the executor picked) is installed there first.
 */
async function timeTfCumsum(n: number, repeats: number): Promise<TfResult> {
  try {
    const g = globalThis as { navigator?: { gpu?: unknown } };
    if (!g.navigator?.gpu) {
      const webgpu = (await import('webgpu')) as unknown as { create: (flags: string[]) => unknown };
      const dawn = webgpu.create(['disable-dawn-features=timestamp_quantization']);
      keepAlive.push(webgpu, dawn);
      if (g.navigator) Object.defineProperty(g.navigator, 'gpu', { value: dawn, configurable: true });
      else Object.defineProperty(globalThis, 'navigator', { value: { gpu: dawn }, configurable: true });
    }
    const tf = await import('@tensorflow/tfjs-core');
    await import('@tensorflow/tfjs-backend-webgpu');
    if (!(await tf.setBackend('webgpu'))) return { ok: false, reason: 'tf.setBackend("webgpu") returned false' };
    await tf.ready();
    keepAlive.push(tf.backend());
    const x = tf.ones([n], 'float32');
    // Warm-up: shader compilation, buffer allocation; also a correctness check (sum of ones).
    const first = tf.cumsum(x);
    const tail = tf.slice(first, [n - 1], [1]);
    const last = (await tail.data())[0];
    tail.dispose();
    first.dispose();
    if (last !== n) return { ok: false, reason: `tf.cumsum of ${n} ones ended at ${last}` };
    const samples: number[] = [];
    let source = 'tf.time kernelMs (timestamp queries)';
    for (let i = 0; i < repeats; i++) {
      let y: { dispose(): void } | undefined;
      const info = await tf.time(() => {
        y = tf.cumsum(x);
      });
      y?.dispose();
      if (typeof info.kernelMs === 'number') samples.push(info.kernelMs);
      else {
        source = `tf.time wallMs (kernelMs unavailable: ${info.kernelMs.error})`;
        samples.push(info.wallMs);
      }
    }
    x.dispose();
    return { ok: true, medianMs: median(samples), source };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

/**
 * Times every scan variant (u32, inclusive) at N = 2^maxLog2 (capped by the adapter's binding
 * size), and TensorFlow.js's cumsum beside the fastest one in f32. Returns Markdown.
 */
export async function benchScan(gpu: GpuExecutor, baselines: BandwidthBaselines, opts: { repeats: number; maxLog2: number }): Promise<string> {
  const adapter = gpu.adapter ?? (await gpu.ready()).summary;
  const maxBinding = Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize);
  let log2 = opts.maxLog2;
  while (2 ** log2 * 4 > maxBinding) log2--;
  const n = 2 ** log2;
  const repeats = Math.max(10, opts.repeats);
  const out: string[] = [];
  out.push(`## Scan (u32, inclusive, N = ${log2Label(n)}, ${repeats} timed passes, median)`);
  out.push('GB/s counts the least traffic any scan needs: read and write each element once (8 bytes per element).\n');

  const rows: string[][] = [];
  const timed: Row[] = [];
  for (const v of SCAN_VARIANTS) {
    const sizes = sizesToTime(v, 'u32', adapter);
    if (typeof sizes === 'string') {
      rows.push([v.title, '—', '—', '—', '—', '—', '—', sizes]);
      continue;
    }
    for (const wg of sizes) {
      const r = await timeVariant(gpu, v, n, 'u32', repeats, wg);
      const rate = gbps(bytesMoved(n), r.t.medianMs);
      timed.push({ variant: v, workgroupSize: wg, medianMs: r.t.medianMs });
      rows.push([
        v.title,
        String(wg),
        String(r.passes),
        fmt(r.t.medianMs, 3),
        fmt(r.t.minMs, 3),
        fmt(r.t.maxMs, 3),
        rateText(rate),
        `${fmt((100 * rate) / baselines.copyGBps, 1)} %`,
      ]);
    }
  }
  out.push(table(['variant', 'workgroup', 'dispatches', 'median ms', 'min ms', 'max ms', 'GB/s', '% of copy'], rows));
  out.push(`\ncopy baseline: ${fmt(baselines.copyGBps)} GB/s over ${baselines.bytes} bytes (same run)`);

  // TensorFlow.js beside our fastest 1-D scan, both in f32.
  const fastest = timed.filter((r) => r.variant.shape !== 'matrix').sort((a, b) => a.medianMs - b.medianMs)[0];
  out.push(`\n## TensorFlow.js tf.cumsum (WebGPU backend, f32, N = ${log2Label(n)})`);
  const tfResult = await timeTfCumsum(n, repeats);
  if (!tfResult.ok) {
    out.push(`tf.cumsum could not run here: ${tfResult.reason}`);
  } else if (fastest) {
    const supported = scanSupport(fastest.variant, fastest.workgroupSize, 'f32', adapter).ok;
    const oursMs = supported ? (await timeVariant(gpu, fastest.variant, n, 'f32', repeats, fastest.workgroupSize)).t.medianMs : Number.NaN;
    out.push(
      table(
        ['kernel', 'median ms', 'GB/s', '% of copy'],
        [
          [`tf.cumsum (${tfResult.source})`, fmt(tfResult.medianMs, 3), rateText(gbps(bytesMoved(n), tfResult.medianMs)), `${fmt((100 * gbps(bytesMoved(n), tfResult.medianMs)) / baselines.copyGBps, 1)} %`],
          [`${fastest.variant.title}, workgroup ${fastest.workgroupSize} (f32)`, fmt(oursMs, 3), rateText(gbps(bytesMoved(n), oursMs)), `${fmt((100 * gbps(bytesMoved(n), oursMs)) / baselines.copyGBps, 1)} %`],
        ],
      ),
    );
    out.push(`\nratio: tf.cumsum takes ${fmt(tfResult.medianMs / oursMs, 2)}× the time of ${fastest.variant.title} (workgroup ${fastest.workgroupSize}).`);
  }
  return out.join('\n');
}
