/**
 * `npm run bench`: GPU figures for the adapter this process gets (Dawn; SwiftShader where there is
 * no GPU). Prints the in-run read and copy baselines and each kernel's median time, GB/s and share
 * of the baseline, then each lab's best variant beside its peer from the latest recorded run
 * (src/bench/recorded-peers.ts). Run on a real GPU through scripts/gpu-bundle.sh.
 */
import { createNodeGpu } from '../src/gpu/node.ts';
import { writeFileSync } from 'node:fs';
import { fmt, log2Label, table, type BestFigure } from '../src/bench/format.ts';
import { LABS } from '../src/labs/all.ts';
import { timingSweep } from '../src/workbench/sweep.ts';
import type { AnyLab } from '../src/workbench/lab.ts';
import { recordedPeerTable } from '../src/bench/recorded-peers.ts';
import { benchReduceCuda } from '../src/labs/reduce/bench.ts';
import { benchLabTwins } from './cuda-twins-bench.ts';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 10);
const MAX_LOG2 = Number(process.env.BENCH_MAX_LOG2 ?? 26);
/** Which sections to run: `BENCH_ONLY=reduce,scan`; `cuda`: the labs' translated CUDA against their WGSL (default: every lab in the registry, then `cuda`). */
const ONLY = new Set((process.env.BENCH_ONLY ?? [...LABS.map((l) => l.id), 'cuda'].join(',')).split(','));

/** Where to write our best figures as JSON, for the peer script (scripts/peers.py). */
const JSON_PATH = process.env.BENCH_JSON;
const best: BestFigure[] = [];
const record = (b: BestFigure): void => void best.push(b);

const gpu = await createNodeGpu();
const adapter = gpu.adapter!;
console.log(`# Warpscope benchmark`);
console.log(`adapter: ${adapter.name}${adapter.isFallbackAdapter ? ' (fallback adapter)' : ''}`);
if (process.env.WARPSCOPE_DAWN_FLAGS) console.log(`EXPERIMENT, not a product figure: Dawn flags ${process.env.WARPSCOPE_DAWN_FLAGS}`);
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

/** A lab without its own section: the timing sweep the page runs, at the lab's default parameters. */
async function sweepSection(lab: AnyLab, b: typeof base): Promise<string> {
  const sizes: number[] = [];
  for (let log2 = 10; log2 <= MAX_LOG2 && 2 ** log2 * 4 <= maxBinding; log2 += 2) sizes.push(2 ** log2);
  const rows: string[][] = [];
  const sweep = timingSweep(lab, lab.defaults, {
    gpu,
    baselines: b,
    sizes,
    repeats: REPEATS,
    hasSubgroups: adapter.hasSubgroups,
    maxInvocations: adapter.limits.maxComputeInvocationsPerWorkgroup,
  });
  for await (const r of sweep) {
    const range = `${fmt(r.percentMin, 1)}–${fmt(r.percentMax, 1)} %`;
    rows.push([
      r.variant,
      log2Label(r.n),
      fmt(r.gpuMs, 4),
      String(r.dispatchesPerPass),
      fmt(r.gbps),
      `${fmt(r.percentOfBaseline, 1)} % of ${r.baselineKind}`,
      r.steady ? range : `${range} UNSTEADY (${r.unsteadyReason ?? 'did not settle'})`,
      r.gpuAgrees ? 'yes' : 'NO',
    ]);
  }
  return table(['variant', 'N', 'median ms', 'dispatches/pass', 'GB/s', '% of baseline', 'rounds', 'matches CPU'], rows);
}

for (const lab of LABS) {
  if (!ONLY.has(lab.id)) continue;
  console.log(`\n## ${lab.title}`);
  // The first section runs right after the baselines above; later ones re-measure them.
  const b = lab === LABS.find((l) => ONLY.has(l.id)) ? base : await sectionBaselines(lab.id);
  const opts = { repeats: REPEATS, maxLog2: MAX_LOG2, sweep: process.env.BENCH_SWEEP === '1', record };
  console.log(lab.bench.section ? await lab.bench.section(gpu, b, opts) : await sweepSection(lab, b));
}
// The labs' CUDA sources, translated by src/cuda, against the hand-written WGSL (issue #26).
if (ONLY.has('cuda')) {
  await sectionBaselines('cuda');
  const onRow = (r: { variant: string; ratio: number; same: string }): void => console.log(`(cuda: ${r.variant} measured: generated ÷ hand ${r.ratio.toFixed(3)}, same sums ${r.same})`);
  // BENCH_TWINS=reduce,convolution picks labs (default: every lab with twins).
  const twins = process.env.BENCH_TWINS ? new Set(process.env.BENCH_TWINS.split(',')) : undefined;
  if (!twins || twins.has('reduce')) console.log(`\n${await benchReduceCuda(gpu, { repeats: REPEATS, maxLog2: MAX_LOG2, onRow })}`);
  const onTwin = (r: { lab: string; variant: string; ratio: number; same: string }): void => console.log(`(cuda: ${r.lab}/${r.variant} measured: generated ÷ hand ${r.ratio.toFixed(3)}, same outputs ${r.same})`);
  // BENCH_VARIANTS=scan/subgroup,topk/seed picks variants among them.
  const variants = process.env.BENCH_VARIANTS ? new Set(process.env.BENCH_VARIANTS.split(',')) : undefined;
  console.log(`\n${await benchLabTwins(gpu, { repeats: REPEATS, maxLog2: MAX_LOG2, onRow: onTwin, ...(twins ? { labs: twins } : {}), ...(variants ? { variants } : {}) })}`);
}
// Each lab's best variant beside its peer, as the latest recorded run on the GPU host measured
// both (the peers run in CUDA, not here); our time in this process beside it where we measured it.
console.log(`\n## Best variants beside their peers (latest recorded run; peers are CUDA libraries, not timed here)`);
console.log(
  recordedPeerTable(ONLY, (e) => (e.live ? best.find((b) => b.op === e.live!.op && b.n === e.live!.n && b.type === e.live!.type)?.medianMs : undefined)),
);
if (JSON_PATH) {
  writeFileSync(JSON_PATH, JSON.stringify({ adapter: adapter.name, best }, null, 2));
  console.log(`\n(best figures written to ${JSON_PATH} for scripts/peers.py)`);
}
gpu.destroy();
process.exit(0);
