/**
 * Benchmark of vector add (f32, grid-stride loop, 12 bytes per element) over sizes 2^10 … 2^maxLog2,
 * as GB/s and as a share of a copy over the kernel's own buffers, timed beside it in alternating
 * rounds (the median of the rounds' ratios, with the lowest and highest round). Called from
 * `scripts/bench.ts` through the registry.
 */
import type { BandwidthBaselines, GpuExecutor } from '../../gpu/executor.ts';
import { fmt, gbps, log2Label, pct, ratioCell, table } from '../../bench/format.ts';
import { randomF32, seededRandom } from '../../util/random.ts';
import { vectorAddBytes, vectorAddRun } from './vectorAdd.ts';

export async function benchBasics(gpu: GpuExecutor, _base: BandwidthBaselines, opts: { repeats: number; maxLog2: number }): Promise<string> {
  const limits = gpu.adapter?.limits;
  const maxBinding = limits ? Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize) : 2 ** 28;
  const rows: string[][] = [];
  for (let log2 = 10; log2 <= opts.maxLog2; log2 += 2) {
    const n = 2 ** log2;
    if (n * 4 > maxBinding) break;
    const rng = seededRandom(log2);
    const run = vectorAddRun({ a: randomF32(rng, n), b: randomF32(rng, n) });
    // Alternating rounds with a copy from a to c, the kernel's own buffers.
    const t = await gpu.time(run, { repeats: opts.repeats, baseline: { kind: 'copy', bytes: vectorAddBytes(n) } });
    const rate = gbps(vectorAddBytes(n), t.medianMs);
    rows.push([log2Label(n), fmt(t.medianMs, 4), fmt(t.minMs, 4), fmt(t.maxMs, 4), String(t.dispatchesPerPass), fmt(rate), pct(t.relative?.ratio ?? Number.NaN), ratioCell(t)]);
  }
  return table(['N', 'median ms', 'min ms', 'max ms', 'dispatches/pass', 'GB/s', '% of copy', 'rounds'], rows);
}
