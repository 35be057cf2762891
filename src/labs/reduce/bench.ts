/**
 * Benchmark of the reduction ladder: every variant's whole pass chain timed on the GPU (median
 * of the repeats), as GB/s and as a share of the read baseline measured in the same run, with
 * the ratio to the first shared-memory variant and to a CPU loop over the same data. Prints
 * figures; never fails on time. Called from `scripts/bench.ts`.
 */
import type { BandwidthBaselines, GpuExecutor, Timing } from '../../gpu/executor.ts';
import { fmt, gbps, log2Label, ratioCell, table, type BestFigure } from '../../bench/format.ts';
import { bytesMoved, passPlan, reduce, timingPasses } from './driver.ts';
import { reduceCudaLaunch, reduceCudaPrepared, reduceCudaProgram, reduceTwinChain } from './cudaTwins.ts';
import { randomU32, seededRandom } from '../../util/random.ts';
import { sumU32 } from './reference.ts';
import {
  defaultWorkgroupSize,
  REDUCE_VARIANTS,
  type ReduceVariant,
  type ReduceVariantId,
} from './variants.ts';
import { median } from '../../util/stats.ts';
import { timeTf } from '../../bench/tfjs.ts';

export interface ReduceBenchOptions {
  /** Timed passes per figure (the median is reported); at least 10 for figures we publish. */
  readonly repeats: number;
  /**
   * Largest N as a power of two. The headline table is at 2^min(26, maxLog2), plus 2^28 when
   * maxLog2 ≥ 28 and the adapter's binding limit holds 2^28 u32s (1 GiB).
   */
  readonly maxLog2: number;
  /** Also time every variant over N = 2^10, 2^12, … 2^maxLog2 (default true). */
  readonly sweep?: boolean;
  /** Check each variant's sum against the CPU at the headline N (default true). */
  readonly verify?: boolean;
  /**
   * Skip a size for a variant when its chain is predicted to take longer than this (default
   * 1000 ms): on SwiftShader one 2^26 chain of a barrier-heavy variant takes minutes.
   */
  readonly maxChainMs?: number;
}

export interface ReduceBenchRow {
  readonly variant: ReduceVariantId;
  readonly n: number;
  readonly workgroupSize: number;
  readonly passes: number;
  readonly timing: Timing;
  readonly gbps: number;
  /** Median over rounds of the share of the read baseline timed beside it, 0..1+. */
  readonly ofRead: number;
  /** GPU sum equals the CPU's; undefined when not checked. */
  readonly correct: boolean | undefined;
}

export interface ReduceBenchResult {
  readonly headline: ReduceBenchRow[];
  /** CPU time of one JS loop over the headline input, by N. */
  readonly cpuMs: ReadonlyMap<number, number>;
  readonly sweep: ReduceBenchRow[];
  /** Headline figures not measured because the chain would take longer than `maxChainMs`. */
  readonly skipped: readonly {
    readonly variant: ReduceVariantId;
    readonly n: number;
    readonly predictedMs: number;
  }[];
}


function cpuSumMs(input: Uint32Array, repeats: number): number {
  const samples: number[] = [];
  // Three runs are plenty once a run takes a quarter of a second (2^26 and up).
  const runs = input.length >= 2 ** 26 ? 3 : Math.max(3, Math.min(repeats, 10));
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    sumU32(input);
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

function runnableVariants(gpu: GpuExecutor): ReduceVariant[] {
  return REDUCE_VARIANTS.filter((v) => !v.needsSubgroups || gpu.adapter!.hasSubgroups);
}

async function timeVariant(
  gpu: GpuExecutor,
  baselines: BandwidthBaselines,
  variant: ReduceVariant,
  n: number,
  repeats: number,
  verify: Uint32Array | undefined,
): Promise<ReduceBenchRow> {
  const workgroupSize = defaultWorkgroupSize(variant, gpu.adapter!.limits.maxComputeInvocationsPerWorkgroup);
  const params = {
    workgroupSize,
    maxWorkgroupsPerDimension: gpu.adapter!.limits.maxComputeWorkgroupsPerDimension,
  };
  const chain = timingPasses(variant.id, n, params);
  // Timed in alternating rounds with a read of the chain's own input, the same bytes.
  const timing = await gpu.time(chain, { repeats, baseline: { kind: 'read', bytes: bytesMoved(n) } });
  const rate = gbps(bytesMoved(n), timing.medianMs);
  let correct: boolean | undefined;
  if (verify) correct = (await reduce(gpu, variant.id, verify, params)).value === sumU32(verify);
  return {
    variant: variant.id,
    n,
    workgroupSize,
    passes: passPlan(variant.id, n, params).length,
    timing,
    gbps: rate,
    ofRead: timing.relative?.ratio ?? rate / baselines.readGBps,
    correct,
  };
}

/** Default for `ReduceBenchOptions.maxChainMs`. */
export const DEFAULT_MAX_CHAIN_MS = 1000;

/** Measures the ladder; `benchReduce` formats the same figures. */
export async function measureReduce(
  gpu: GpuExecutor,
  baselines: BandwidthBaselines,
  opts: ReduceBenchOptions,
): Promise<ReduceBenchResult> {
  const adapter = gpu.adapter ?? (await gpu.ready()).summary;
  const maxBytes = Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize);
  const fits = (log2: number): boolean => 4 * 2 ** log2 <= maxBytes;
  const headlineLog2 = [Math.min(26, opts.maxLog2), ...(opts.maxLog2 >= 28 ? [28] : [])].filter(fits);
  const maxChainMs = opts.maxChainMs ?? DEFAULT_MAX_CHAIN_MS;
  // N climbs by factors of 4 up to the largest headline size; each variant's last chain time,
  // scaled by the growth of N, predicts the next one, and a variant stops climbing once the
  // prediction passes maxChainMs (each figure costs repeats + 2 chains).
  const ladder: number[] = [];
  for (let log2 = 10; log2 <= Math.max(opts.maxLog2, ...headlineLog2) && fits(log2); log2 += 2)
    ladder.push(log2);
  for (const l of headlineLog2) if (!ladder.includes(l)) ladder.push(l);
  ladder.sort((a, b) => a - b);

  const variants = runnableVariants(gpu);
  const rows: ReduceBenchRow[] = [];
  const skipped: { variant: ReduceVariantId; n: number; predictedMs: number }[] = [];
  const cpuMs = new Map<number, number>();
  const last = new Map<ReduceVariantId, { n: number; ms: number }>();
  for (const log2 of ladder) {
    const n = 2 ** log2;
    const isHeadline = headlineLog2.includes(log2);
    // The same small values the timing chain uses, for the CPU figure and the sum check.
    const input = isHeadline
      ? (timingPasses('interleaved', n)[0]!.bindings[0]![0] as Uint32Array)
      : undefined;
    if (input) cpuMs.set(n, cpuSumMs(input, opts.repeats));
    for (const v of variants) {
      const prev = last.get(v.id);
      const predictedMs = prev ? (prev.ms * n) / prev.n : 0;
      if (predictedMs > maxChainMs) {
        if (isHeadline) skipped.push({ variant: v.id, n, predictedMs });
        continue;
      }
      const verify = isHeadline && opts.verify !== false ? input : undefined;
      const row = await timeVariant(gpu, baselines, v, n, opts.repeats, verify);
      last.set(v.id, { n, ms: row.timing.medianMs });
      rows.push(row);
    }
  }
  const headline = rows.filter((r) => headlineLog2.includes(Math.log2(r.n)));
  const sweep = opts.sweep === false ? [] : rows.filter((r) => Math.log2(r.n) <= opts.maxLog2);
  return { headline, cpuMs, sweep, skipped };
}

const pct = (x: number): string => `${num(100 * x)} %`;
/** fmt() for figures that may be tiny (SwiftShader's GB/s): three significant digits below 1. */
const num = (x: number): string =>
  Number.isFinite(x) && Math.abs(x) < 1 && x !== 0 ? x.toPrecision(3) : fmt(x);
const checkMark = (row: ReduceBenchRow, variant: ReduceVariant): string =>
  row.correct === undefined ? '' : row.correct ? '✓' : variant.racy ? '✗ (race)' : '✗';

/** Formats measured figures as Markdown tables. */
export function formatReduceBench(result: ReduceBenchResult, baselines: BandwidthBaselines): string {
  const out: string[] = [];
  const headlineNs = [
    ...new Set([...result.headline.map((r) => r.n), ...result.skipped.map((s) => s.n)]),
  ].sort((a, b) => a - b);
  for (const n of headlineNs) {
    const rows = result.headline.filter((r) => r.n === n);
    const skipped = result.skipped.filter((s) => s.n === n);
    const reference = rows.find((r) => r.variant === 'neighbored') ?? rows[0];
    const cpu = result.cpuMs.get(n);
    out.push(
      `## Reduction ladder, u32, N = ${log2Label(n)} (${n} elements, ${fmt(bytesMoved(n) / 2 ** 20, 0)} MiB read; read baseline ${fmt(baselines.readGBps)} GB/s)`,
    );
    if (rows.length > 0)
      out.push(
        table(
          [
            '#',
            'variant',
            'wg',
            'passes',
            'median ms',
            'min ms',
            'max ms',
            'GB/s',
            '% of read',
            'rounds',
            '× neighbored',
            '× CPU',
            'sum',
          ],
          rows.map((r) => {
            const v = REDUCE_VARIANTS.find((x) => x.id === r.variant)!;
            return [
              String(v.step),
              v.id,
              String(r.workgroupSize),
              String(r.passes),
              fmt(r.timing.medianMs, 4),
              fmt(r.timing.minMs, 4),
              fmt(r.timing.maxMs, 4),
              num(r.gbps),
              pct(r.ofRead),
              ratioCell(r.timing),
              reference ? num(reference.timing.medianMs / r.timing.medianMs) : '—',
              cpu === undefined ? '—' : num(cpu / r.timing.medianMs),
              checkMark(r, v),
            ];
          }),
        ),
      );
    out.push(
      '\n% of read: median over the rounds of this kernel\'s GB/s over a read of its own input timed just after it; rounds: the lowest and highest round.',
    );
    if (cpu !== undefined)
      out.push(`CPU: one JavaScript loop over the same Uint32Array, ${fmt(cpu, 3)} ms (median).`);
    if (skipped.length > 0) {
      out.push(
        `Not measured (a chain would take longer than the limit): ${skipped.map((x) => `${x.variant} (~${fmt(x.predictedMs / 1000, 1)} s)`).join(', ')}.`,
      );
    }
    const quantized = rows.some((r) => r.timing.quantized);
    const wall = rows.some((r) => r.timing.source === 'wall-clock');
    if (quantized || wall) {
      out.push(
        `Note: ${wall ? 'no timestamp queries: wall-clock figures. ' : ''}${quantized ? 'timestamps were quantized to 100 µs; passes were lengthened.' : ''}`,
      );
    }
    out.push('');
  }
  if (result.sweep.length > 0) {
    const ids = [...new Set(result.sweep.map((r) => r.variant))];
    const ns = [...new Set(result.sweep.map((r) => r.n))];
    out.push('## Reduction sweep, u32: median ms of the whole chain (GB/s)');
    out.push(
      table(
        ['N', ...ids],
        ns.map((n) => [
          log2Label(n),
          ...ids.map((id) => {
            const r = result.sweep.find((x) => x.n === n && x.variant === id);
            return r ? `${fmt(r.timing.medianMs, 4)} (${num(r.gbps)})` : '—';
          }),
        ]),
      ),
    );
    out.push('');
  }
  return out.join('\n');
}

/**
 * The reduction section of `npm run bench`: per variant at N = 2^26 (and 2^28 where allowed, see
 * `ReduceBenchOptions.maxLog2`), median time of the whole pass chain, GB/s (4 bytes per element
 * read once) and % of the in-run read baseline, then a sweep over N. Returns Markdown.
 */
export async function benchReduce(
  gpu: GpuExecutor,
  baselines: BandwidthBaselines,
  opts: ReduceBenchOptions & { readonly peers?: boolean; readonly record?: (best: BestFigure) => void },
): Promise<string> {
  const result = await measureReduce(gpu, baselines, opts);
  const text = formatReduceBench(result, baselines);
  for (const n of new Set(result.headline.map((r) => r.n))) {
    const best = bestReduction(result, n);
    if (best) opts.record?.({ op: 'reduce', n, type: 'u32', variant: best.variant, medianMs: best.timing.medianMs, ratio: best.timing.relative?.ratio });
  }
  return opts.peers === false ? text : `${text}\n${await tfSumBeside(result, opts.repeats)}`;
}

/**
 * The best correct, race-free variant at n: the highest share of the read timed beside it (a
 * ratio holds when the memory system has a slow spell; a time alone does not).
 */
export function bestReduction(result: ReduceBenchResult, n: number): ReduceBenchRow | undefined {
  return result.headline
    .filter((r) => r.n === n && r.correct !== false && !REDUCE_VARIANTS.find((v) => v.id === r.variant)?.racy)
    .sort((a, b) => b.ofRead - a.ofRead)[0];
}

/** TensorFlow.js `tf.sum` (int32, WebGPU backend, same adapter) beside our fastest variant, per headline N. */
async function tfSumBeside(result: ReduceBenchResult, repeats: number): Promise<string> {
  const out: string[] = [];
  for (const n of [...new Set(result.headline.map((r) => r.n))].sort((a, b) => a - b)) {
    const best = bestReduction(result, n);
    const tf = await timeTf('sum', n, 'int32', Math.max(10, repeats));
    out.push(`## TensorFlow.js tf.sum (WebGPU backend, int32, N = ${log2Label(n)})`);
    if (!tf.ok) {
      out.push(`tf.sum could not run here: ${tf.reason}\n`);
      continue;
    }
    out.push(`tf.sum: ${fmt(tf.medianMs, 4)} ms (${num(gbps(bytesMoved(n), tf.medianMs))} GB/s; ${tf.source})`);
    if (best)
      out.push(
        `ratio: tf.sum takes ${fmt(tf.medianMs / best.timing.medianMs, 2)}× the time of ${best.variant} (${fmt(best.timing.medianMs, 4)} ms).\n`,
      );
  }
  return out.join('\n');
}

/**
 * The reduction lab's CUDA sources against its hand-written WGSL on the GPU (issue #26: the WGSL
 * generated from each lab's CUDA runs within 10 % of the lab's WGSL variant). For each variant,
 * the whole pass chain at N = 2^26 (or the largest N the adapter binds) is timed four times, in
 * the order hand-written, generated, generated, hand-written, each against a read of its own input
 * in alternating rounds (`GpuExecutor.time` with a baseline). The figure is the generated chain's
 * time over the hand-written one's, from the median shares of the read: a slow spell of the
 * memory system moves both a kernel and its baseline, so the ratio holds where times alone would
 * not. Before timing, both chains run once at 2^20 and must give the same partial sums.
 * Prints figures; never fails on time. Called from `scripts/bench.ts` (`BENCH_ONLY=cuda`).
 */
export interface ReduceCudaRow {
  readonly variant: string;
  readonly workgroupSize: number;
  readonly hand: Timing[];
  readonly generated: Timing[];
  /** Generated time ÷ hand-written time (1.10 = 10 % slower), from the median shares of the read. */
  readonly ratio: number;
  /** Every pass gave the same partial sums both ways at 2^20 ('skipped' where warps are not 32 lanes, or the race). */
  readonly same: string;
}

const share = (t: Timing): number => t.relative?.ratio ?? Number.NaN;

export interface ReduceCudaOptions {
  readonly repeats: number;
  readonly maxLog2: number;
  /** Called as each variant's row is measured (the bench prints it at once, so a cut-off run keeps what it measured). */
  readonly onRow?: (row: ReduceCudaRow) => void;
}

export async function measureReduceCuda(gpu: GpuExecutor, opts: ReduceCudaOptions): Promise<{ n: number; rows: ReduceCudaRow[] }> {
  const adapter = gpu.adapter ?? (await gpu.ready()).summary;
  const maxBytes = Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize);
  let log2 = Math.min(26, opts.maxLog2);
  while (4 * 2 ** log2 > maxBytes) log2--;
  const n = 2 ** log2;
  const subgroup32 = adapter.subgroupMinSize === 32 && adapter.subgroupMaxSize === 32;
  const rows: ReduceCudaRow[] = [];
  for (const variant of REDUCE_VARIANTS) {
    if (variant.needsSubgroups && !adapter.hasSubgroups) continue;
    const warp = reduceCudaProgram(variant).kernels.some((k) => k.usesWarpFunctions);
    if (warp && !adapter.hasSubgroups) continue;
    const workgroupSize = defaultWorkgroupSize(variant, adapter.limits.maxComputeInvocationsPerWorkgroup);
    let same: string;
    if (variant.racy) same = 'not compared (a race by design)';
    else if (warp && !subgroup32) same = `not compared (subgroup size ${adapter.subgroupMinSize ?? '?'}, not 32)`;
    else {
      const input = randomU32(seededRandom(20), Math.min(n, 2 ** 20));
      const passes = await reduceTwinChain(gpu, variant, input, workgroupSize);
      same = passes.every((p) => JSON.stringify(p.cuda) === JSON.stringify(p.wgsl)) ? 'yes' : 'NO';
    }
    const params = { workgroupSize, maxWorkgroupsPerDimension: adapter.limits.maxComputeWorkgroupsPerDimension };
    const hand = timingPasses(variant.id, n, params);
    const plan = passPlan(variant.id, n, params);
    const program = reduceCudaProgram(variant);
    const generated = hand.map((run, i) => {
      return reduceCudaPrepared(program, reduceCudaLaunch(variant, plan[i]!, run.bindings[0]![0]!, workgroupSize)).run;
    });
    const time = (chain: typeof hand): Promise<Timing> => gpu.time(chain, { repeats: opts.repeats, baseline: { kind: 'read', bytes: bytesMoved(n) } });
    const h1 = await time(hand);
    const g1 = await time(generated);
    const g2 = await time(generated);
    const h2 = await time(hand);
    const row = { variant: variant.id, workgroupSize, hand: [h1, h2], generated: [g1, g2], ratio: median([share(h1), share(h2)]) / median([share(g1), share(g2)]), same };
    rows.push(row);
    opts.onRow?.(row);
  }
  return { n, rows };
}

export async function benchReduceCuda(gpu: GpuExecutor, opts: ReduceCudaOptions): Promise<string> {
  const { n, rows } = await measureReduceCuda(gpu, opts);
  const ms = (ts: Timing[]): string => ts.map((t) => fmt(t.medianMs, 4)).join(' / ');
  const pct = (ts: Timing[]): string => ts.map((t) => `${fmt(100 * share(t), 1)}${t.steady ? '' : ' UNSTEADY'}`).join(' / ');
  return [
    `## The reduce lab's CUDA, translated, against its hand-written WGSL (u32, N = ${log2Label(n)}, whole chain)`,
    table(
      ['variant', 'wg', 'hand-written ms (1st / 2nd)', 'generated ms (1st / 2nd)', 'hand % of read', 'generated % of read', 'generated ÷ hand', 'within 10 %', 'same sums'],
      rows.map((r) => [r.variant, String(r.workgroupSize), ms(r.hand), ms(r.generated), pct(r.hand), pct(r.generated), fmt(r.ratio, 3), r.ratio <= 1.1 ? 'yes' : 'NO', r.same]),
    ),
    '\nOrder: hand-written, generated, generated, hand-written, each timed against a read of its own input in alternating rounds; generated ÷ hand = median share of the read (hand-written) over median share (generated). same sums: every pass of a chain over min(N, 2^20) random values gave the same partial sums both ways.',
  ].join('\n');
}
