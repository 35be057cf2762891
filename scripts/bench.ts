/**
 * `npm run bench`: GPU figures for the adapter this process gets (Dawn; SwiftShader where there is
 * no GPU). Prints the in-run read and copy baselines and each kernel's median time, GB/s and share
 * of the baseline. Run on a real GPU through scripts/gpu-bundle.sh.
 */
import { createNodeGpu } from '../src/gpu/node.ts';
import { vectorAddBytes, vectorAddRun } from '../src/labs/basics/vectorAdd.ts';
import { writeFileSync } from 'node:fs';
import { fmt, gbps, log2Label, pct, ratioCell, table, type BestFigure } from '../src/bench/format.ts';
import { randomF32, seededRandom } from '../src/util/random.ts';
import { benchReduce } from '../src/labs/reduce/bench.ts';
import { benchScan } from '../src/labs/scan/bench.ts';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 10);
const MAX_LOG2 = Number(process.env.BENCH_MAX_LOG2 ?? 26);
/** Which sections to run: `BENCH_ONLY=reduce,scan` (default: all). */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'basics,reduce,scan').split(','));

/** Where to write our best figures as JSON, for the peer script (scripts/peers.py). */
const JSON_PATH = process.env.BENCH_JSON;
const best: BestFigure[] = [];
const record = (b: BestFigure): void => void best.push(b);

const gpu = await createNodeGpu();
const adapter = gpu.adapter!;
console.log(`# Warpscope benchmark`);
console.log(`adapter: ${adapter.name}${adapter.isFallbackAdapter ? ' (fallback adapter)' : ''}`);
console.log(`timestamps: ${adapter.hasTimestamps ? 'timestamp-query (unquantized in Node)' : 'missing: wall clock around onSubmittedWorkDone'}`);
console.log(`subgroups: ${adapter.hasSubgroups ? `${adapter.subgroupMinSize ?? '?'}–${adapter.subgroupMaxSize ?? '?'}` : 'none'}`);
console.log(`repeats: ${REPEATS} rounds per figure, each a timed pass of the kernel and one of its baseline (median of per-round ratios; a figure with max/min over 1.15 is measured again, up to 3 times, else marked UNSTEADY)\n`);

const maxBinding = Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize);
const baselineBytes = Math.min(2 ** MAX_LOG2 * 4, maxBinding);
const base = await gpu.baselines(baselineBytes, { repeats: REPEATS });
console.log('## In-run bandwidth baselines');
console.log(
  table(
    ['kernel', 'bytes', 'median ms', 'min ms', 'max ms', 'GB/s'],
    [
      ['read (vec4, grid-stride)', String(base.bytes), fmt(base.read.medianMs, 4), fmt(base.read.minMs, 4), fmt(base.read.maxMs, 4), fmt(base.readGBps)],
      ['copy (vec4, grid-stride)', String(base.bytes), fmt(base.copy.medianMs, 4), fmt(base.copy.minMs, 4), fmt(base.copy.maxMs, 4), fmt(base.copyGBps)],
    ],
  ),
);

if (ONLY.has('basics')) {
  console.log('\n## Vector add (f32, grid-stride loop, 12 bytes per element)');
  const rows: string[][] = [];
  for (let log2 = 10; log2 <= MAX_LOG2; log2 += 2) {
    const n = 2 ** log2;
    if (n * 4 > maxBinding) break;
    const rng = seededRandom(log2);
    const run = vectorAddRun({ a: randomF32(rng, n), b: randomF32(rng, n) });
    // Alternating rounds with a copy from a to c, the kernel's own buffers.
    const t = await gpu.time(run, { repeats: REPEATS, baseline: { kind: 'copy', bytes: vectorAddBytes(n) } });
    const rate = gbps(vectorAddBytes(n), t.medianMs);
    rows.push([log2Label(n), fmt(t.medianMs, 4), fmt(t.minMs, 4), fmt(t.maxMs, 4), String(t.dispatchesPerPass), fmt(rate), pct(t.relative?.ratio ?? Number.NaN), ratioCell(t)]);
  }
  console.log(table(['N', 'median ms', 'min ms', 'max ms', 'dispatches/pass', 'GB/s', '% of copy', 'rounds'], rows));
}

/**
 * Baselines again, just before a section, so each ratio compares figures taken close together.
 * (Every timing warms the clocks first; without that, an H100 timed after an idle gap ran its
 * kernels, the baselines included, at about half speed: see docs/benchmarks.md.)
 */
async function sectionBaselines(name: string) {
  const b = await gpu.baselines(baselineBytes, { repeats: REPEATS });
  console.log(`\n(${name}: baselines re-measured just before: read ${fmt(b.readGBps)} GB/s, copy ${fmt(b.copyGBps)} GB/s)`);
  return b;
}

if (ONLY.has('reduce')) {
  console.log('\n## Reduction ladder (u32)');
  const b = await sectionBaselines('reduce');
  console.log(await benchReduce(gpu, b, { repeats: REPEATS, maxLog2: MAX_LOG2, sweep: process.env.BENCH_SWEEP === '1', record }));
}

if (ONLY.has('scan')) {
  console.log('\n## Scan');
  console.log(await benchScan(gpu, { repeats: REPEATS, maxLog2: MAX_LOG2, record }));
}
if (JSON_PATH) {
  writeFileSync(JSON_PATH, JSON.stringify({ adapter: adapter.name, best }, null, 2));
  console.log(`\n(best figures written to ${JSON_PATH} for scripts/peers.py)`);
}
gpu.destroy();
process.exit(0);
