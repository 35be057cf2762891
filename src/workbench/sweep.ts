/**
 * The timing sweep of any registered lab: every variant the adapter can run, over a list of sizes,
 * timed on the GPU by the one method of `GpuExecutor.time` (the kernel and the lab's baseline, a
 * read or a copy over the kernel's own buffers, in alternating rounds; the median of the rounds'
 * ratios with the lowest and highest), with GPU, simulator and CPU checked against the lab's
 * reference. The timings panel runs it in the page; anything else holding a
 * `GpuExecutor` (scripts, tests) can run the same sweep. No React, no DOM.
 */
import type { BandwidthBaselines, BaselineKind, GpuExecutor } from '../gpu/executor.ts';
import type { AnyLab, LabInputs, Params } from './lab.ts';
import type { KernelExecutor } from './labTypes.ts';
import { median } from '../util/stats.ts';
import { ui } from '../i18n/ui.ts';

export interface TimingRow {
  readonly variant: string;
  readonly n: number;
  readonly gpuMs: number;
  readonly gbps: number;
  /** The baseline timed beside the kernel in alternating rounds, on the kernel's own buffers. */
  readonly baselineKind: BaselineKind;
  /** Median over the rounds of the kernel's GB/s ÷ the baseline's, in percent; and its range. */
  readonly percentOfBaseline: number;
  readonly percentMin: number;
  readonly percentMax: number;
  /** False when the figure never settled (see `Timing.steady`). */
  readonly steady: boolean;
  readonly unsteadyReason: string | undefined;
  readonly cpuMs: number;
  readonly gpuAgrees: boolean;
  /** undefined: not simulated at this size. */
  readonly simAgrees: boolean | undefined;
  readonly dispatchesPerPass: number;
  readonly quantized: boolean;
  readonly wallClock: boolean;
}

export interface SweepOptions {
  readonly gpu: GpuExecutor;
  /** The session's read and copy figures, shown above the table; each row has its own baseline. */
  readonly baselines: BandwidthBaselines;
  /** Element counts to time (the lab's `bench.at` turns each into parameters). */
  readonly sizes: readonly number[];
  readonly repeats: number;
  /** Also checks the simulator's output up to `simLimit` elements. */
  readonly sim?: KernelExecutor;
  readonly simLimit?: number;
  readonly hasSubgroups: boolean;
  readonly maxInvocations: number;
  /** Checked between timings: stop when it returns true. */
  readonly cancelled?: () => boolean;
  /** Told what is being timed, for a progress line. */
  readonly onProgress?: (text: string) => void;
}

/** Keeps the CPU loop's results alive so the JIT cannot drop the loop. */
export let cpuSink = 0;

/** Times the lab's plain CPU loop: median of several runs, each long enough for the clock. */
function timeCpu(lab: AnyLab, inputs: LabInputs, params: Params): number {
  const samples: number[] = [];
  let sink = 0;
  for (let r = 0; r < 5; r++) {
    let reps = 0;
    const t0 = performance.now();
    let t: number;
    do {
      sink += lab.bench.cpu(inputs, params);
      reps++;
      t = performance.now();
    } while (t - t0 < 2);
    samples.push((t - t0) / reps);
  }
  cpuSink = sink;
  return median(samples);
}

/** Runs the sweep, yielding one row per variant and size as soon as it is measured. */
export async function* timingSweep(lab: AnyLab, params: Params, o: SweepOptions): AsyncGenerator<TimingRow> {
  const type = String(params.type ?? '');
  const usable = lab.variants.filter(
    (v) => (type === '' || (v.elementTypes as readonly string[]).includes(type)) && (!v.needsSubgroups || o.hasSubgroups),
  );
  for (const n of o.sizes.filter((size) => size <= (lab.bench.maxElements ?? Infinity))) {
    const p = lab.bench.at(params, n);
    const inputs = lab.inputs(p, n);
    const cpuMs = timeCpu(lab, inputs, p);
    for (const v of usable) {
      if (o.cancelled?.()) return;
      o.onProgress?.(ui('timings.progress', { variant: v.title, log2: Math.log2(n) }));
      // The largest workgroup the variant and this adapter both allow, up to the one chosen.
      const wanted = typeof p.workgroupSize === 'number' ? p.workgroupSize : Infinity;
      const fitting = v.workgroupSizes.filter((s) => s <= Math.min(o.maxInvocations, wanted));
      const vp: Params = 'workgroupSize' in p ? { ...p, workgroupSize: fitting.length > 0 ? Math.max(...fitting) : v.workgroupSizes[0]! } : p;
      const out = await lab.runAll(o.gpu, v.id, vp, inputs);
      const baselineKind = lab.bench.baseline ?? 'read';
      const bytes = lab.bench.bytes(vp);
      const timing = await o.gpu.time(lab.bench.passes(v.id, vp), { repeats: o.repeats, baseline: { kind: baselineKind, bytes } });
      const relative = timing.relative;
      if (!relative) throw new Error(`${lab.id}/${v.id}: the timing came back without its ${baselineKind} baseline.`);
      let simAgrees: boolean | undefined;
      if (o.sim && n <= (o.simLimit ?? 0)) simAgrees = lab.check(v.id, vp, inputs, await lab.runAll(o.sim, v.id, vp, inputs)).ok;
      yield {
        variant: v.id,
        n,
        gpuMs: timing.medianMs,
        gbps: bytes / (timing.medianMs * 1e6),
        baselineKind,
        percentOfBaseline: 100 * relative.ratio,
        percentMin: 100 * relative.ratioMin,
        percentMax: 100 * relative.ratioMax,
        steady: timing.steady,
        unsteadyReason: timing.unsteadyReason,
        cpuMs,
        gpuAgrees: lab.check(v.id, vp, inputs, out).ok,
        simAgrees,
        dispatchesPerPass: timing.dispatchesPerPass,
        quantized: timing.quantized,
        wallClock: timing.source === 'wall-clock',
      };
    }
  }
}
