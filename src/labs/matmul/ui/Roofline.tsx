import { useMemo, useState } from 'react';
import { useLocale } from '../../../i18n/useLocale.ts';
import type { TraceIndex } from '../../../trace/index.ts';
import type { LabVariant } from '../../../workbench/lab.ts';
import type { PanelProps } from '../../../workbench/panel.ts';
import type { Services } from '../../../workbench/services.ts';
import { isMatmulVariant, MATMUL_VARIANTS, matmulRun, shapeProblem, type MatmulShape } from '../kernel.ts';
import { arithmeticIntensity, ridgePoint, roofAt, workgroupCounters, type RooflinePoint } from '../queries.ts';
import { m } from '../messages.ts';
import { useStageRoom } from '../../../ui/widgets/useFrameWidth.ts';
import './MatmulStage.css';
import { ColumnHeads } from '../../../ui/widgets/ColumnHeads.tsx';

/** Companion simulations the roofline needs: every variant but the one on show. */
export const rooflineCompanions = (variant: LabVariant) => MATMUL_VARIANTS.filter((v) => v !== variant.id).map((v) => ({ id: `roofline-${v}`, variant: v }));

/** What the device measured: its FMA peak, its read bandwidth and each variant's rate at one size. */
interface Measured {
  readonly size: number;
  readonly peak: number;
  readonly gbps: number;
  readonly rates: Readonly<Record<string, number>>;
  readonly adapter: string;
}

const SIZES = [128, 256, 512, 1024, 2048] as const;
/** Measures on the page's GPU executor (a service): no device of its own. */
async function measure(services: Services, size: number, variants: readonly LabVariant[], onProgress: (text: string) => void): Promise<Measured> {
  const gpu = services.gpu;
  const { summary } = await gpu.ready();
  onProgress(m('roof.progress.peak'));
  const big = size >= 1024;
  const peak = await services.fmaPeak(big ? {} : { workgroups: [Math.max(16, size / 2), 1], iterations: 256 });
  onProgress(m('roof.progress.bandwidth'));
  const base = await gpu.baselines(Math.min(2 ** 26, 12 * size * size));
  const rates: Record<string, number> = {};
  const shape: MatmulShape = { m: size, n: size, k: size };
  for (const v of MATMUL_VARIANTS) {
    if (shapeProblem(v, shape, 16)) continue;
    const number = variants.findIndex((x) => x.id === v);
    onProgress(m('roof.progress.timing', { number: number + 1, title: variants[number]?.title ?? v, size }));
    const run = matmulRun(v, 'f32', shape, 16, new Float32Array(size * size), new Float32Array(size * size));
    const t = await gpu.time(run, { repeats: 5 });
    rates[v] = (2 * size ** 3) / (t.medianMs * 1e6);
  }
  return { size, peak: peak.gflops, gbps: base.readGBps, rates, adapter: summary.name };
}

/** Intensity of a variant from its simulation's traced workgroup, or undefined while it runs. */
function intensityOf(index: TraceIndex | undefined, variant: string, shape: MatmulShape, tile: number): number | undefined {
  if (!index || !isMatmulVariant(variant)) return undefined;
  return arithmeticIntensity(workgroupCounters(index, variant, shape, tile), shape, variant, tile);
}

const fmtRate = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toPrecision(2));

/**
 * The roofline: every variant at its arithmetic intensity (FLOPs per byte of global traffic,
 * from the simulator's counters of one workgroup) against the GFLOP/s measured on this device,
 * under the device's measured read bandwidth and FMA peak.
 */
export function Roofline({ index, variant, variants, params, companions, services }: PanelProps) {
  const locale = useLocale();
  const shape: MatmulShape = { m: Number(params.m), n: Number(params.n), k: Number(params.k) };
  const tile = Number(params.tile);
  const [size, setSize] = useState<number>(256);
  const [measured, setMeasured] = useState<Measured | undefined>();
  const [progress, setProgress] = useState<string>('');
  const [error, setError] = useState<string>('');
  const points: (RooflinePoint & { title: string; number: number })[] = useMemo(
    () =>
      variants.flatMap((v, i) => {
        const idx = v.id === variant.id ? index : companions[`roofline-${v.id}`]?.index;
        const intensity = intensityOf(idx, v.id, shape, tile);
        if (intensity === undefined) return [];
        return [{ variant: v.id, title: v.title, number: i + 1, intensity, ...(measured?.rates[v.id] !== undefined ? { gflops: measured.rates[v.id] } : {}) }];
      }),
    // The variants' titles are read in the language shown: a switch of language redraws them.
    [variants, variant.id, index, companions, shape.m, shape.n, shape.k, tile, measured, locale], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const pending = variants.length - points.length;
  // The chart fits the stage's frame (a short or narrow stage draws it smaller, its labels at 16 px still).
  const [sectionRef, room] = useStageRoom<HTMLElement>();
  const chart = { width: room ? Math.max(360, Math.min(CHART_W, room.width - 12)) : CHART_W, height: room ? Math.max(220, Math.min(CHART_H, room.height - 12)) : CHART_H };

  const run = () => {
    setError('');
    setProgress(m('roof.progress.start'));
    measure(services, size, variants, setProgress).then(
      (m) => {
        setMeasured(m);
        setProgress('');
      },
      (e: unknown) => {
        setProgress('');
        setError(e instanceof Error ? e.message : String(e));
      },
    );
  };

  return (
    <section ref={sectionRef} className="panel mm-roofline" aria-labelledby="matmul-roofline-title" data-testid="matmul-roofline">
      <h2 id="matmul-roofline-title">{m('ui.roofline')}</h2>
      <p className="hint">{m('roof.hint', { m: shape.m, n: shape.n, k: shape.k })}</p>
      <div className="controls">
        <label htmlFor="mm-roofline-size">{m('roof.measureAt')}</label>
        <select id="mm-roofline-size" value={size} onChange={(e) => setSize(Number(e.target.value))} data-testid="matmul-roofline-size">
          {SIZES.map((s) => (
            <option key={s} value={s}>
              {s}³
            </option>
          ))}
        </select>
        <button type="button" onClick={run} disabled={progress !== ''} data-testid="matmul-roofline-measure">
          {m('roof.measure')}
        </button>
        <span aria-live="polite" data-testid="matmul-roofline-progress">
          {progress}
        </span>
      </div>
      {error && (
        <p className="banner-warning" role="alert">
          {m('roof.stopped', { error })}
        </p>
      )}
      {measured && (
        <p data-testid="matmul-roofline-device">
          {/* The adapter's name is data, read the same in every language. */}
          <span translate="no">{measured.adapter}</span>
          {m('roof.device', { peak: fmtRate(measured.peak), gbps: fmtRate(measured.gbps), ridge: ridgePoint(measured.peak, measured.gbps).toFixed(1) })}
        </p>
      )}
      {/* Drawn at its own size so its 16 px labels never shrink; narrow screens scroll it. */}
      <div className="mm-chart-scroll" tabIndex={0} role="group" aria-label={m('roof.scroll')}>
        <RooflineChart points={points} measured={measured} current={variant.id} font={Math.max(16, room?.minText ?? 16)} {...chart} />
      </div>
      <table className="mm-roofline-table" data-testid="matmul-roofline-table">
        <caption>{pending > 0 ? m('roof.caption.pending', { n: pending }) : m('roof.caption')}</caption>
        <ColumnHeads
          labels={[
            '#',
            m('roof.col.variant'),
            m('roof.col.intensity'),
            m('roof.col.rate'),
            m('roof.col.share'),
          ]}
        />
        <tbody>
          {points.map((p) => (
            <tr key={p.variant} aria-current={p.variant === variant.id ? 'true' : undefined}>
              <td>{p.number}</td>
              <th scope="row">
                {p.variant === variant.id ? m('roof.shown', { title: p.title }) : p.title}
              </th>
              <td>{p.intensity.toFixed(2)}</td>
              <td>{p.gflops !== undefined ? fmtRate(p.gflops) : '—'}</td>
              <td>{p.gflops !== undefined && measured ? m('roof.percent', { x: ((100 * p.gflops) / roofAt(p.intensity, measured.peak, measured.gbps)).toFixed(1) }) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The chart's largest size, in CSS px. */
const CHART_W = 640;
const CHART_H = 360;
const MARGIN = { left: 90, right: 20, top: 20, bottom: 60 };

/**
 * The chart at `width` × `height` CSS px (at most `CHART_W` × `CHART_H`), drawn in CSS px so that its
 * 16 px labels stay 16 px however small the frame. The current variant's point is the subject: the table under the chart
 * repeats its figures in words.
 */
function RooflineChart({ points, measured, current, font, width: W, height: H }: { points: readonly (RooflinePoint & { number: number })[]; measured: Measured | undefined; current: string; font: number; width: number; height: number }) {
  if (points.length === 0) return <p className="hint">{m('roof.chart.pending')}</p>;
  const xs = points.map((p) => p.intensity);
  const xMin = 10 ** Math.floor(Math.log10(Math.min(...xs) / 2));
  const xMax = 10 ** Math.ceil(Math.log10(Math.max(...xs, measured ? ridgePoint(measured.peak, measured.gbps) : 1) * 2));
  const ys = measured ? [measured.peak, ...points.flatMap((p) => (p.gflops !== undefined ? [p.gflops] : []))] : [1];
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(...ys) * 1.5));
  const yMin = Math.min(yMax / 1e4, 10 ** Math.floor(Math.log10(Math.min(...ys) / 2)));
  // The left margin holds the rotated axis title (a line of text) and the longer rate label
  // (monospace digits, 0.62 em each) at the labels' size: 90 px at 16 px, more at a projector's 28.
  const chars = Math.max(fmtRate(yMax).length, fmtRate(yMin).length);
  const PAD = { ...MARGIN, left: Math.max(MARGIN.left, Math.ceil(font * 1.3 + 8 + font * 0.62 * chars)) };
  const x = (v: number) => PAD.left + ((Math.log10(v) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - ((Math.log10(v) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * (H - PAD.top - PAD.bottom);
  const yOf = (p: RooflinePoint) => (p.gflops !== undefined ? y(Math.max(yMin, p.gflops)) : H - PAD.bottom);
  // Points that fall on one spot share one label, "4 5 6", instead of printing over each other.
  const spots = new Map<string, { key: string; intensity: number; y: number; text: string }>();
  for (const p of points) {
    const key = `${Math.round(x(p.intensity) / 12)}:${Math.round(yOf(p) / 12)}`;
    const spot = spots.get(key);
    if (spot) spot.text += ` ${p.number}`;
    else spots.set(key, { key, intensity: p.intensity, y: yOf(p), text: String(p.number) });
  }
  const labels = [...spots.values()];
  const ridge = measured ? ridgePoint(measured.peak, measured.gbps) : 0;
  const memStart = measured ? Math.max(xMin, yMin / measured.gbps) : xMin;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={m('roof.chart.label')} data-testid="matmul-roofline-chart">
      <line className="mm-axis" x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} />
      <line className="mm-axis" x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={H - PAD.bottom} />
      <text x={PAD.left} y={H - 35}>
        {xMin}
      </text>
      <text x={W - PAD.right} y={H - 35} textAnchor="end">
        {xMax}
      </text>
      <text x={(W + PAD.left) / 2} y={H - 10} textAnchor="middle">
        {m('roof.chart.x')}
      </text>
      <text x={PAD.left - 8} y={PAD.top + 12} textAnchor="end">
        {fmtRate(yMax)}
      </text>
      <text x={PAD.left - 8} y={H - PAD.bottom} textAnchor="end">
        {fmtRate(yMin)}
      </text>
      <text x={font} y={(H - PAD.bottom + PAD.top) / 2} transform={`rotate(-90 ${font} ${(H - PAD.bottom + PAD.top) / 2})`} textAnchor="middle">
        {m('roof.chart.y')}
      </text>
      {measured && (
        <>
          <line className="mm-roof memory" x1={x(memStart)} y1={y(memStart * measured.gbps)} x2={x(Math.min(ridge, xMax))} y2={y(Math.min(measured.peak, Math.min(ridge, xMax) * measured.gbps))} />
          {ridge < xMax && <line className="mm-roof" x1={x(ridge)} y1={y(measured.peak)} x2={x(xMax)} y2={y(measured.peak)} />}
        </>
      )}
      {points.map((p) => (
        <circle key={p.variant} className={`mm-point${p.variant === current ? ' current' : ''}`} data-subject={p.variant === current ? 'variant' : undefined} cx={x(p.intensity)} cy={yOf(p)} r={p.variant === current ? 9 : 6} />
      ))}
      {labels.map((l) => (
        <text key={l.key} x={x(l.intensity) + 10} y={l.y - 8}>
          {l.text}
        </text>
      ))}
    </svg>
  );
}
