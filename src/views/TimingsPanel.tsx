import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import * as d3 from 'd3';
import { pageGpu } from '../app/gpu.ts';
import { workerSimExecutor } from '../app/simulation.ts';
import { isGpuError, type BandwidthBaselines, type BaselineKind } from '../gpu/index.ts';
import type { LabDefinition, LabParams } from '../labs/lab.ts';
import { selectGpuStatus, useAppStore } from '../store/index.ts';
import { median } from '../util/stats.ts';

/** Largest n the simulator also checks in the timings sweep (it replays every lane). */
const SIM_CHECK_LIMIT = 2 ** 16;

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
  /** False when the figure never settled (max/min over 1.15 in every attempt). */
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

const MARKERS = [d3.symbolCircle, d3.symbolSquare, d3.symbolTriangle, d3.symbolDiamond, d3.symbolCross, d3.symbolStar, d3.symbolWye, d3.symbolTimes];
const COLORS = ['#7dd3fc', '#fca5a5', '#86efac', '#fde68a', '#c4b5fd', '#f9a8d4', '#fdba74', '#e5e7eb'];


/** Keeps the CPU loop's results alive so the JIT cannot drop the loop. */
export let cpuSink = 0;

/** Times the plain CPU loop: median of several runs, each long enough for the clock. */
function timeCpu(lab: LabDefinition, input: ReturnType<LabDefinition['makeInput']>, params: LabParams): number {
  const samples: number[] = [];
  let sink = 0;
  for (let r = 0; r < 5; r++) {
    let reps = 0;
    const t0 = performance.now();
    let t: number;
    do {
      sink += lab.cpuBaseline(input, params);
      reps++;
      t = performance.now();
    } while (t - t0 < 2);
    samples.push((t - t0) / reps);
  }
  cpuSink = sink;
  return median(samples);
}

/** Log–log chart of GPU time against n, one line and one marker shape per variant. */
function TimingChart({ rows, lab }: { rows: readonly TimingRow[]; lab: LabDefinition }) {
  const svgRef = useRef<SVGSVGElement>(null);
  const width = 720;
  const height = 360;
  const margin = { top: 16, right: 24, bottom: 56, left: 80 };
  const titleId = useId();
  const variants = lab.variants.filter((v) => rows.some((r) => r.variant === v.id));

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || rows.length === 0) return;
    const x = d3
      .scaleLog()
      .base(2)
      .domain(d3.extent(rows, (r) => r.n) as [number, number])
      .range([margin.left, width - margin.right]);
    const y = d3
      .scaleLog()
      .domain(d3.extent(rows, (r) => r.gpuMs) as [number, number])
      .nice()
      .range([height - margin.bottom, margin.top]);
    const root = d3.select(svg);
    root.selectAll('*').remove();
    root
      .append('g')
      .attr('transform', `translate(0,${height - margin.bottom})`)
      .call(d3.axisBottom(x).tickFormat((d) => `2^${Math.round(Math.log2(Number(d)))}`))
      .call((g) => g.append('text').attr('x', width / 2).attr('y', 44).attr('fill', 'currentColor').attr('text-anchor', 'middle').text('n (elements)'));
    root
      .append('g')
      .attr('transform', `translate(${margin.left},0)`)
      .call(d3.axisLeft(y).ticks(6, '~g'))
      .call((g) =>
        g.append('text').attr('transform', 'rotate(-90)').attr('x', -height / 2).attr('y', -60).attr('fill', 'currentColor').attr('text-anchor', 'middle').text('GPU time (ms, median)'),
      );
    variants.forEach((v, i) => {
      const pts = rows.filter((r) => r.variant === v.id).sort((a, b) => a.n - b.n);
      const color = COLORS[i % COLORS.length]!;
      root
        .append('path')
        .attr('fill', 'none')
        .attr('stroke', color)
        .attr('stroke-width', 2)
        .attr('stroke-dasharray', i % 2 ? '6 3' : null)
        .attr('d', d3.line<TimingRow>((r) => x(r.n), (r) => y(r.gpuMs))(pts));
      root
        .append('g')
        .selectAll('path')
        .data(pts)
        .join('path')
        .attr('transform', (r) => `translate(${x(r.n)},${y(r.gpuMs)})`)
        .attr('d', d3.symbol(MARKERS[i % MARKERS.length], 64)())
        .attr('fill', color);
    });
  }, [rows, variants, margin.bottom, margin.left, margin.right, margin.top]);

  return (
    <figure className="timing-chart">
      <svg ref={svgRef} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} data-testid="timing-chart" />
      <figcaption id={titleId}>
        GPU time against n on log–log axes; a slope of one means time grows in proportion to n (bandwidth-bound).
        <ul className="legend">
          {variants.map((v, i) => (
            <li key={v.id}>
              <svg width="20" height="20" viewBox="-10 -10 20 20" aria-hidden="true">
                <path d={d3.symbol(MARKERS[i % MARKERS.length], 64)() ?? ''} fill={COLORS[i % COLORS.length]} />
              </svg>
              {v.title}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

/**
 * Every variant on this device over a sweep of n: median GPU time, GB/s, share of the in-run read
 * baseline, the CPU loop and the speedup, and a check where GPU, simulator and CPU agree.
 */
export const TimingsPanel = memo(function TimingsPanel({ lab, params }: { lab: LabDefinition; params: LabParams }) {
  const status = useAppStore(selectGpuStatus);
  const fallback = status.state === 'ready' && status.adapter.isFallbackAdapter;
  // A software adapter moves about 1 GB/s: keep its default sweep short; a real GPU goes to 2^26.
  const [chosenMaxLog2, setMaxLog2] = useState<number | undefined>();
  const maxLog2 = chosenMaxLog2 ?? (fallback ? 16 : 26);
  const [rows, setRows] = useState<TimingRow[]>([]);
  const [baseline, setBaseline] = useState<BandwidthBaselines | undefined>();
  const [progress, setProgress] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const cancelled = useRef(false);
  const maxId = useId();
  const limitLog2 = status.state === 'ready' ? Math.floor(Math.log2(status.adapter.limits.maxStorageBufferBindingSize / 4)) : 26;
  const sizes = useMemo(() => {
    const out: number[] = [];
    for (let l = 10; l <= Math.min(maxLog2, limitLog2); l += 2) out.push(2 ** l);
    return out;
  }, [maxLog2, limitLog2]);

  const measure = useCallback(async () => {
    cancelled.current = false;
    setError(undefined);
    setRows([]);
    try {
      setProgress('Measuring the read and copy baselines…');
      const base = await pageGpu.baselines(Math.min(2 ** maxLog2 * 4, 256 * 2 ** 20), { repeats: 10 });
      setBaseline(base);
      const usable = lab.variants.filter(
        (v) => v.elementTypes.includes(params.type) && (!v.needsSubgroups || (status.state === 'ready' && status.adapter.hasSubgroups)),
      );
      for (const n of sizes) {
        const p: LabParams = { ...params, n };
        const input = lab.makeInput(p, n);
        const reference = lab.reference(p, input);
        const cpuMs = timeCpu(lab, input, p);
        for (const v of usable) {
          if (cancelled.current) {
            setProgress(undefined);
            return;
          }
          setProgress(`Timing ${v.title} at n = 2^${Math.log2(n)}…`);
          // The largest workgroup the variant and this adapter both allow, up to the one chosen.
          const maxInvocations = status.state === 'ready' ? status.adapter.limits.maxComputeInvocationsPerWorkgroup : 256;
          const fitting = v.workgroupSizes.filter((s) => s <= Math.min(maxInvocations, p.workgroupSize));
          const vp: LabParams = { ...p, workgroupSize: fitting.length > 0 ? Math.max(...fitting) : v.workgroupSizes[0]! };
          const out = await lab.runAll(pageGpu, v.id, vp, input);
          // The one timing method: kernel and baseline (read or copy over its own buffers) in
          // alternating rounds, median of per-round ratios, unsteady figures measured again.
          const baselineKind = lab.baseline ?? 'read';
          const timing = await pageGpu.time(lab.timingPasses(v.id, n, vp), {
            repeats: 10,
            baseline: { kind: baselineKind, bytes: lab.bytesMoved(n, vp) },
          });
          let simAgrees: boolean | undefined;
          if (n <= SIM_CHECK_LIMIT) {
            const simOut = await lab.runAll(workerSimExecutor(), v.id, vp, input);
            simAgrees = lab.agrees(v.id, vp, input, simOut, reference);
          }
          const gbps = lab.bytesMoved(n, vp) / (timing.medianMs * 1e6);
          const row: TimingRow = {
            variant: v.id,
            n,
            gpuMs: timing.medianMs,
            gbps,
            baselineKind,
            percentOfBaseline: 100 * (timing.relative?.ratio ?? gbps / (baselineKind === 'read' ? base.readGBps : base.copyGBps)),
            percentMin: 100 * (timing.relative?.ratioMin ?? Number.NaN),
            percentMax: 100 * (timing.relative?.ratioMax ?? Number.NaN),
            steady: timing.steady,
            unsteadyReason: timing.unsteadyReason,
            cpuMs,
            gpuAgrees: lab.agrees(v.id, vp, input, out, reference),
            simAgrees,
            dispatchesPerPass: timing.dispatchesPerPass,
            quantized: timing.quantized,
            wallClock: timing.source === 'wall-clock',
          };
          setRows((rs) => [...rs, row]);
        }
      }
      setProgress(undefined);
    } catch (e) {
      setProgress(undefined);
      setError(isGpuError(e) ? `${e.message} ${e.hint}` : String(e));
    }
  }, [lab, params, sizes, maxLog2, status]);

  const ready = status.state === 'ready';
  const adapter = ready ? status.adapter : undefined;
  const anyQuantized = rows.some((r) => r.quantized);
  const anyWall = rows.some((r) => r.wallClock);
  const title = (id: string) => lab.variants.find((v) => v.id === id)?.title ?? id;

  return (
    <section
      className="panel timings"
      aria-labelledby="timings-title"
      data-testid="timings"
      data-state={progress !== undefined ? 'running' : error ? 'error' : rows.length > 0 ? 'done' : 'idle'}
    >
      <h2 id="timings-title">Timings on this device</h2>
      {adapter ? (
        <p>
          Adapter: <strong>{adapter.name}</strong>
          {adapter.isFallbackAdapter ? ' — a software adapter: these figures describe your CPU.' : ''}
        </p>
      ) : (
        <p className="hint">Timings need WebGPU; the step-through views above run on the simulator.</p>
      )}
      <div className="controls">
        <label htmlFor={maxId}>Largest n</label>
        <select id={maxId} value={maxLog2} onChange={(e) => setMaxLog2(Number(e.target.value))}>
          {[12, 14, 16, 18, 20, 22, 24, 26, 28].filter((l) => l <= limitLog2).map((l) => (
            <option key={l} value={l}>
              2^{l}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void measure()} disabled={!ready || progress !== undefined} data-testid="measure">
          Measure all variants
        </button>
        {progress !== undefined && (
          <button type="button" onClick={() => (cancelled.current = true)}>
            Cancel
          </button>
        )}
      </div>
      <p aria-live="polite" className="hint" data-testid="timings-progress">
        {progress}
      </p>
      {error && (
        <p className="banner banner-error" role="alert">
          {error}
        </p>
      )}
      {baseline && (
        <p data-testid="baseline">
          In-run baselines: read {baseline.readGBps.toFixed(2)} GB/s, copy {baseline.copyGBps.toFixed(2)} GB/s over{' '}
          {(baseline.bytes / 2 ** 20).toFixed(0)} MiB (median of {baseline.read.repeats}).
        </p>
      )}
      {(anyQuantized || anyWall) && (
        <p className="hint">
          {anyQuantized &&
            'The browser rounds GPU timestamps to 0.1 ms, so each timed pass holds enough dispatches to last at least 20 ms (the "Dispatches per pass" column): the rounding stays under 0.5 %. '}
          {anyWall && 'This adapter has no timestamp queries: figures are wall-clock time around each submit.'}
        </p>
      )}
      {rows.length > 0 && <TimingChart rows={rows} lab={lab} />}
      {rows.length > 0 && (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Timings table (scrolls sideways)">
          <table className="data-table" data-testid="timings-table">
            <caption>
              Each figure: 10 rounds, each a timed pass of the kernel and then one of its baseline (a read, or a copy, over
              the kernel&apos;s own buffers). GPU ms is the median per run; % of baseline is the median of the rounds&apos; ratios,
              with the lowest and highest round beside it. A figure whose rounds spread more than 15 % is measured again, up
              to three times, and marked unsteady if it never settles. GB/s counts the bytes the algorithm must move.
            </caption>
            <thead>
              <tr>
                <th scope="col">Variant</th>
                <th scope="col">n</th>
                <th scope="col">GPU ms</th>
                <th scope="col">GB/s</th>
                <th scope="col">% of baseline (rounds)</th>
                <th scope="col">Dispatches per pass</th>
                <th scope="col">CPU ms</th>
                <th scope="col">Speedup</th>
                <th scope="col">GPU · sim · CPU agree</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const agree = r.gpuAgrees && r.simAgrees !== false;
                const racy = lab.variants.find((v) => v.id === r.variant)?.racy;
                return (
                  <tr key={`${r.variant}-${r.n}`} data-racy={racy ? 'yes' : undefined} title={racy}>
                    <th scope="row">{title(r.variant)}</th>
                    <td>2^{Math.log2(r.n)}</td>
                    <td>{r.gpuMs.toPrecision(3)}</td>
                    <td>{r.gbps.toFixed(2)}</td>
                    <td data-testid="ratio-cell" data-steady={r.steady ? 'yes' : 'no'}>
                      {r.percentOfBaseline.toFixed(1)} % of {r.baselineKind}{' '}
                      <span data-testid="ratio-spread">
                        ({Number.isFinite(r.percentMin) ? `${r.percentMin.toFixed(1)}–${r.percentMax.toFixed(1)} %` : 'no spread'})
                      </span>
                      {!r.steady && <strong> unsteady: {r.unsteadyReason ?? 'did not settle'}</strong>}
                    </td>
                    <td data-testid="dispatches-cell">{r.dispatchesPerPass}</td>
                    <td>{r.cpuMs.toPrecision(3)}</td>
                    <td>{(r.cpuMs / r.gpuMs).toFixed(1)}×</td>
                    <td data-testid="agree-cell" data-agree={agree ? 'yes' : 'no'}>
                      {agree ? '✓ ' : '✗ '}
                      {r.gpuAgrees ? 'GPU = CPU' : 'GPU ≠ CPU'}
                      {r.simAgrees === undefined ? ' · sim not run (n > 2^16)' : r.simAgrees ? ' · sim = CPU' : ' · sim ≠ CPU'}
                      {racy && !agree ? ' (expected: data race)' : ''}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {rows.length > 0 && lab.timingNote && <p className="hint">{lab.timingNote}</p>}
    </section>
  );
});
