/**
 * The labs' CUDA twins against their hand-written WGSL on the GPU (issue #26: the WGSL generated
 * from each lab's CUDA runs within 10 % of the time of the lab's hand-written variant). For each
 * twin, at the lab's benchmark size: first the small test cases run both ways and must agree with
 * each other and the CPU ("same"); then the hand-written passes and the generated ones are timed
 * four times, in the order hand-written, generated, generated, hand-written, each against a read of
 * the bytes they read in alternating rounds (`GpuExecutor.time` with a baseline). The figure is the
 * generated time over the hand-written one, from the median shares of the read, as the reduction's
 * section computes it (`src/labs/reduce/bench.ts`). Prints figures; never fails on time. Called from
 * `scripts/bench.ts` (`BENCH_ONLY=cuda`; `BENCH_TWINS=convolution,matmul` picks labs, `BENCH_VARIANTS=scan/subgroup,topk/seed` variants).
 */
import type { GpuExecutor, Timing } from '../src/gpu/executor.ts';
import { fmt, table } from '../src/bench/format.ts';
import { median } from '../src/util/stats.ts';
import { runTwinCase, twinGeneratedRuns, twinMismatches, twinUsesWarps, type LabTwin, type TwinLimits } from '../src/cuda/index.ts';
import { LAB_TWINS, NOT_TWINNED } from '../src/labs/cudaTwins.ts';

export interface TwinBenchRow {
  readonly lab: string;
  readonly variant: string;
  /** The bench case's label (its size). */
  readonly size: string;
  readonly hand: Timing[];
  readonly generated: Timing[];
  /** Generated time ÷ hand-written time (1.10 = 10 % slower), from the median shares of the read. */
  readonly ratio: number;
  /** The small cases agreed both ways and with the CPU: 'yes', 'NO: …', or why not compared. */
  readonly same: string;
}

const share = (t: Timing): number => t.relative?.ratio ?? Number.NaN;

export async function measureLabTwins(
  gpu: GpuExecutor,
  opts: {
    readonly repeats: number;
    /** The bench's largest N as a power of two (`BENCH_MAX_LOG2`): the lab sizes are capped at 4 · 2^maxLog2 bytes a binding. */
    readonly maxLog2: number;
    readonly labs?: ReadonlySet<string>;
    /** `lab/variant` pairs to time (`BENCH_VARIANTS=scan/subgroup,topk/seed`); default: every twin of `labs`. */
    readonly variants?: ReadonlySet<string>;
    readonly onRow?: (row: TwinBenchRow) => void;
  },
): Promise<TwinBenchRow[]> {
  const adapter = gpu.adapter ?? (await gpu.ready()).summary;
  const limits: TwinLimits = {
    maxBindingBytes: Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize, 4 * 2 ** opts.maxLog2),
    maxInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
  };
  const subgroup32 = adapter.subgroupMinSize === 32 && adapter.subgroupMaxSize === 32;
  const rows: TwinBenchRow[] = [];
  for (const twin of LAB_TWINS) {
    if ((opts.labs && !opts.labs.has(twin.lab)) || (opts.variants && !opts.variants.has(`${twin.lab}/${twin.variant}`))) continue;
    const warps = twinUsesWarps(twin);
    if (warps && !adapter.hasSubgroups) continue;
    const c = twin.bench(limits);
    if (warps && !subgroup32) {
      // CUDA's warp functions take 32-lane warps: on other subgroups the generated kernel computes
      // something else, and a loop that waits on a warp's vote (the merge-path search) may not end.
      const row: TwinBenchRow = { lab: twin.lab, variant: twin.variant, size: c.label, hand: [], generated: [], ratio: Number.NaN, same: `not timed (subgroup size ${adapter.subgroupMinSize ?? '?'}, not 32)` };
      rows.push(row);
      opts.onRow?.(row);
      continue;
    }
    const same = await sameOnGpu(gpu, twin, limits);
    const hand = c.passes.map((p) => p.wgsl);
    const generated = twinGeneratedRuns(twin, c);
    const bytes = Math.min(c.bytes, limits.maxBindingBytes);
    const time = (chain: typeof hand): Promise<Timing> => gpu.time(chain, { repeats: opts.repeats, baseline: { kind: 'read', bytes } });
    const h1 = await time(hand);
    const g1 = await time(generated);
    const g2 = await time(generated);
    const h2 = await time(hand);
    const row: TwinBenchRow = {
      lab: twin.lab,
      variant: twin.variant,
      size: c.label,
      hand: [h1, h2],
      generated: [g1, g2],
      ratio: median([share(h1), share(h2)]) / median([share(g1), share(g2)]),
      same,
    };
    rows.push(row);
    opts.onRow?.(row);
  }
  return rows;
}

async function sameOnGpu(gpu: GpuExecutor, twin: LabTwin, limits: TwinLimits): Promise<string> {
  const problems: string[] = [];
  for (const c of twin.cases(limits)) problems.push(...twinMismatches(c, await runTwinCase(gpu, twin, c)));
  return problems.length ? `NO: ${problems[0]}` : 'yes';
}

export async function benchLabTwins(gpu: GpuExecutor, opts: Parameters<typeof measureLabTwins>[1]): Promise<string> {
  const rows = await measureLabTwins(gpu, opts);
  const ms = (ts: Timing[]): string => ts.map((t) => fmt(t.medianMs, 4)).join(' / ');
  const pct = (ts: Timing[]): string => ts.map((t) => `${fmt(100 * share(t), 1)}${t.steady ? '' : ' UNSTEADY'}`).join(' / ');
  const skipped = NOT_TWINNED.filter((n) => !opts.labs || opts.labs.has(n.lab));
  return [
    "## The labs' CUDA, translated, against their hand-written WGSL (each lab's benchmark size)",
    table(
      ['lab', 'variant', 'size', 'hand-written ms (1st / 2nd)', 'generated ms (1st / 2nd)', 'hand % of read', 'generated % of read', 'generated ÷ hand', 'within 10 %', 'same outputs'],
      rows.map((r) => [r.lab, r.variant, r.size, ms(r.hand), ms(r.generated), pct(r.hand), pct(r.generated), fmt(r.ratio, 3), Number.isNaN(r.ratio) ? '—' : r.ratio <= 1.1 ? 'yes' : 'NO', r.same]),
    ),
    '\nOrder: hand-written, generated, generated, hand-written, each timed against a read of the bytes the passes read, in alternating rounds; generated ÷ hand = median share of the read (hand-written) over median share (generated). same outputs: the small test cases (src/labs/cudaTwins.test.ts) gave the same outputs both ways and the CPU reference on this adapter.',
    ...(skipped.length ? ['\nNot twinned:', ...skipped.map((n) => `- ${n.lab}/${n.variant}: ${n.reason}`)] : []),
  ].join('\n');
}
