import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import * as d3 from 'd3';
import { isGpuError, pageGpu } from '../../workbench/gpu.ts';
import { useStore } from 'zustand';
import type { LabSession } from '../../workbench/session.ts';
import { workerSimExecutor } from '../../workbench/simulation.ts';
import type { AnyLab, RecordedTimings } from '../../workbench/lab.ts';
import type { TimingRow } from '../../workbench/sweep.ts';
import { selectGpuStatus, useAppStore } from '../../store/index.ts';
import { formatFixed, formatPrecision } from '../../i18n/numbers.ts';
import { fillSlots, SLOT } from '../../i18n/slots.tsx';
import { ui } from '../../i18n/ui.ts';
import { useLocale } from '../../i18n/useLocale.ts';
import { ColumnHeads } from '../widgets/ColumnHeads.tsx';

/** Largest n the simulator also checks in the timings sweep (it replays every lane). */
const SIM_CHECK_LIMIT = 2 ** 16;

export type { TimingRow } from '../../workbench/sweep.ts';

// Filled shapes only (an outline-only shape would vanish when filled), all drawn at one area; with
// 7 shapes and 8 colours the pair (shape, colour) is distinct for every variant up to 56.
const MARKERS = d3.symbolsFill;
const MARKER_AREA = 90;
const markerOf = (i: number) => MARKERS[i % MARKERS.length]!;

/** Bytes in the largest unit that keeps a whole number above zero (never “0 MiB”). */
export function formatBytes(bytes: number): string {
  const units = [ui('unit.bytes'), 'KiB', 'MiB', 'GiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${formatFixed(v, v >= 10 || u === 0 ? 0 : 1)} ${units[u]}`;
}

/** A ratio with two significant digits (never “0.0×”). */
export function formatRatio(r: number): string {
  return `${r >= 100 ? formatFixed(r, 0) : formatPrecision(r, 2)}×`;
}
const COLORS = ['#7dd3fc', '#fca5a5', '#86efac', '#fde68a', '#c4b5fd', '#f9a8d4', '#fdba74', '#e5e7eb'];


/** Log–log chart of GPU time against n, one line and one marker shape per variant. */
function TimingChart({ rows, lab }: { rows: readonly TimingRow[]; lab: AnyLab }) {
  const locale = useLocale();
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
      .call((g) => g.append('text').attr('x', width / 2).attr('y', 44).attr('fill', 'currentColor').attr('text-anchor', 'middle').text(ui('timings.axisN')));
    root
      .append('g')
      .attr('transform', `translate(${margin.left},0)`)
      .call(d3.axisLeft(y).ticks(6, '~g'))
      .call((g) =>
        g.append('text').attr('transform', 'rotate(-90)').attr('x', -height / 2).attr('y', -60).attr('fill', 'currentColor').attr('text-anchor', 'middle').text(ui('timings.axisTime')),
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
        .attr('d', d3.symbol(markerOf(i), MARKER_AREA)())
        .attr('fill', color);
    });
  }, [rows, variants, margin.bottom, margin.left, margin.right, margin.top, locale]);

  return (
    <figure className="timing-chart">
      <svg ref={svgRef} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId} data-testid="timing-chart" />
      <figcaption id={titleId}>
        {ui('timings.chartCaption')}
        <ul className="legend">
          {variants.map((v, i) => (
            <li key={v.id}>
              <svg width="22" height="22" viewBox="-11 -11 22 22" aria-hidden="true">
                <path d={d3.symbol(markerOf(i), MARKER_AREA)() ?? ''} fill={COLORS[i % COLORS.length]} />
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
 * Every variant on this device over a sweep of n: median GPU time, GB/s, share of the lab's read or
 * copy baseline timed beside it in alternating rounds (with the lowest and highest round and the
 * dispatches per timed pass), the CPU loop and the speedup, and a check where GPU, simulator and
 * CPU agree. The sweep itself runs in the session.
 */
/** The project's own recorded figures, beside the learner's (data in the lab module). */
function RecordedTable({ recorded, title }: { recorded: RecordedTimings; title: (id: string) => string }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={ui('timings.recordedRegion')}>
      <table className="data-table" data-testid="recorded-timings">
        <caption>
          {/* The device's name is data, read the same in every language. */}
          {fillSlots(ui('timings.recordedCaption', { device: SLOT, log2: Math.log2(recorded.n) }), <span translate="no">{recorded.device}</span>)}
        </caption>
        <ColumnHeads labels={[ui('timings.variant'), ui('timings.gpuMs'), 'GB/s']} />
        <tbody>
          {recorded.rows.map((r) => (
            <tr key={r.variant}>
              <th scope="row">{title(r.variant)}</th>
              <td>{r.ms}</td>
              <td>{r.gbps}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The sweep's figures, one row per variant and size. On a software adapter (a CPU emulation) most
 * figures wobble from round to round: that is said once above the table, and each such row carries
 * a quiet ≈ (named for screen readers) instead of a bold "unsteady" on every row.
 */
export function TimingsTable({ rows, lab, software }: { rows: readonly TimingRow[]; lab: AnyLab; software: boolean }) {
  const title = (id: string) => lab.variants.find((v) => v.id === id)?.title ?? id;
  const unsteady = rows.filter((r) => !r.steady).length;
  return (
    <>
      {software && unsteady > 0 && (
        <p className="hint" data-testid="software-unsteady">
          {ui('timings.softwareUnsteady', { n: unsteady, total: rows.length })}
        </p>
      )}
    <div className="table-scroll" tabIndex={0} role="region" aria-label={ui('timings.tableRegion')}>
      <table className="data-table" data-testid="timings-table">
        <caption>
          {ui('timings.tableCaption')}
        </caption>
        <ColumnHeads
          labels={[
            ui('timings.variant'),
            'n',
            ui('timings.gpuMs'),
            'GB/s',
            ui('timings.percentCol'),
            ui('timings.dispatchesCol'),
            ui('timings.cpuMs'),
            ui('timings.speedup'),
            ui('timings.agreeCol'),
          ]}
        />
        <tbody>
          {rows.map((r) => {
            const agree = r.gpuAgrees && r.simAgrees !== false;
            const racy = lab.variants.find((v) => v.id === r.variant)?.racy;
            return (
              <tr key={`${r.variant}-${r.n}`} data-racy={racy ? 'yes' : undefined} title={racy}>
                <th scope="row">{title(r.variant)}</th>
                <td>2^{Math.log2(r.n)}</td>
                <td>{formatPrecision(r.gpuMs, 3)}</td>
                <td>{formatPrecision(r.gbps, 3)}</td>
                <td data-testid="ratio-cell" data-steady={r.steady ? 'yes' : 'no'}>
                  {ui('timings.percentOf', { percent: formatFixed(r.percentOfBaseline, 1), kind: ui(r.baselineKind === 'copy' ? 'timings.kind.copy' : 'timings.kind.read') })}{' '}
                  <span data-testid="ratio-spread">
                    ({formatFixed(r.percentMin, 1)}–{formatFixed(r.percentMax, 1)} %)
                  </span>
                  {!r.steady && (software ? <span className="hint"> ≈<span className="sr-only"> {ui('timings.unsteadyShort')}</span></span> : <strong> {ui('timings.unsteady', { reason: r.unsteadyReason ?? ui('timings.didNotSettle') })}</strong>)}
                </td>
                <td data-testid="dispatches-cell">{r.dispatchesPerPass}</td>
                <td>{formatPrecision(r.cpuMs, 3)}</td>
                <td>{formatRatio(r.cpuMs / r.gpuMs)}</td>
                <td data-testid="agree-cell" data-agree={agree ? 'yes' : 'no'}>
                  {agree ? '✓ ' : '✗ '}
                  {r.gpuAgrees ? 'GPU = CPU' : 'GPU ≠ CPU'}
                  {r.simAgrees === undefined ? ` · ${ui('timings.simNotRun')}` : r.simAgrees ? ` · ${ui('timings.simAgrees')}` : ` · ${ui('timings.simDiffers')}`}
                  {racy && !agree ? ` ${ui('timings.expectedRace')}` : ''}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
    </>
  );
}

/** The timings of a lab session's parameters; the sweep itself runs in the session. */
export const TimingsPanel = memo(function TimingsPanel({ session }: { session: LabSession }) {
  useLocale();
  const lab = session.getState().lab;
  const status = useAppStore(selectGpuStatus);
  const fallback = status.state === 'ready' && status.adapter.isFallbackAdapter;
  // A software adapter moves about 1 GB/s: keep its default sweep short; a real GPU goes to 2^26.
  const [chosenMaxLog2, setMaxLog2] = useState<number | undefined>();
  const maxLog2 = chosenMaxLog2 ?? (fallback ? 16 : 26);
  const { rows, baseline, progress, error } = useStore(session, (s) => s.timings);
  const maxId = useId();
  const limitLog2 = status.state === 'ready' ? Math.floor(Math.log2(status.adapter.limits.maxStorageBufferBindingSize / 4)) : 26;
  const sizes = useMemo(() => {
    const out: number[] = [];
    for (let l = 10; l <= Math.min(maxLog2, limitLog2); l += 2) out.push(2 ** l);
    return out;
  }, [maxLog2, limitLog2]);

  const measure = useCallback(
    () =>
      session.getState().measureTimings({
        gpu: pageGpu,
        sim: workerSimExecutor(),
        simLimit: SIM_CHECK_LIMIT,
        sizes,
        baselineBytes: Math.min(2 ** maxLog2 * 4, 256 * 2 ** 20),
        repeats: 10,
        hasSubgroups: status.state === 'ready' && status.adapter.hasSubgroups,
        maxInvocations: status.state === 'ready' ? status.adapter.limits.maxComputeInvocationsPerWorkgroup : 256,
        describeError: (e) => (isGpuError(e) ? `${e.message} ${e.hint}` : String(e)),
      }),
    [session, sizes, maxLog2, status],
  );

  const ready = status.state === 'ready';
  const adapter = ready ? status.adapter : undefined;
  const anyQuantized = rows.some((r) => r.quantized);
  const anyWall = rows.some((r) => r.wallClock);

  return (
    <section
      className="panel timings"
      aria-labelledby="timings-title"
      data-testid="timings"
      data-state={progress !== undefined ? 'running' : error ? 'error' : rows.length > 0 ? 'done' : 'idle'}
    >
      <h2 id="timings-title">{ui('timings.title')}</h2>
      {adapter ? (
        <p>
          {ui('timings.adapter')} <strong translate="no">{adapter.name}</strong>
        </p>
      ) : null}
      {adapter?.isFallbackAdapter && (
        <p className="banner banner-warning" data-testid="software-note">
          {ui('timings.software')}
        </p>
      )}
      {lab.recorded && <RecordedTable recorded={lab.recorded} title={(id) => lab.variants.find((v) => v.id === id)?.title ?? id} />}
      {adapter ? null : (
        <p className="hint">{ui('timings.needWebGpu')}</p>
      )}
      <div className="controls">
        <label htmlFor={maxId}>{ui('timings.largestN')}</label>
        <select id={maxId} value={maxLog2} onChange={(e) => setMaxLog2(Number(e.target.value))}>
          {[12, 14, 16, 18, 20, 22, 24, 26, 28].filter((l) => l <= limitLog2).map((l) => (
            <option key={l} value={l}>
              2^{l}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void measure()} disabled={!ready || progress !== undefined} data-testid="measure">
          {ui('timings.measure')}
        </button>
        {progress !== undefined && (
          <button type="button" onClick={() => session.getState().cancelTimings()}>
            {ui('common.cancel')}
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
          {ui('timings.baseline', { read: formatFixed(baseline.readGBps, 2), copy: formatFixed(baseline.copyGBps, 2), bytes: formatBytes(baseline.bytes), repeats: baseline.read.repeats })}
        </p>
      )}
      {(anyQuantized || anyWall) && (
        <p className="hint">
          {anyQuantized &&
            `${ui('timings.quantized')} `}
          {anyWall && ui('timings.wallClock')}
        </p>
      )}
      {rows.length > 0 && <TimingChart rows={rows} lab={lab} />}
      {rows.length > 0 && <TimingsTable rows={rows} lab={lab} software={adapter?.isFallbackAdapter ?? false} />}
      {rows.length > 0 && lab.bench.note && <p className="hint">{lab.bench.note}</p>}
    </section>
  );
});
