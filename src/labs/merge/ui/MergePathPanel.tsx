import { useId, useMemo, useState } from 'react';
import type { PanelProps } from '../../../workbench/panel.ts';
import { pathPoints, probesBy, readMergeTrace, searchesOf, searchResult, sizesOfParams, type MergeTraceView, type ProbeEvent } from '../trace.ts';
import './MergePathPanel.css';
import { m } from '../messages.ts';
import { ColumnHeads } from '../../../ui/widgets/ColumnHeads.tsx';
import { useStageRoom } from '../../../ui/widgets/useFrameWidth.ts';

/** The largest grid drawn: beyond it the panel keeps its tables and leaves the picture out. */
const MAX_GRID = 256;

const fmt = (v: number | undefined) => (v === undefined ? '?' : Number.isInteger(v) ? String(v) : v.toFixed(2));

/**
 * The merge-path grid of the traced workgroup: A along the top, B down the side, every
 * invocation's cross-diagonal, the co-rank probes up to the current step, the merge path over the
 * outputs stored so far, and the tile the workgroup staged. All of it comes from `readMergeTrace`.
 */
export function MergePathPanel({ trace, step, variant, params, seek, subject }: PanelProps) {
  const titleId = useId();
  const pickId = useId();
  const sizes = useMemo(() => sizesOfParams(params), [params]);
  const view = useMemo(() => readMergeTrace(trace, variant.wgsl, sizes), [trace, variant.wgsl, sizes]);
  const done = useMemo(() => probesBy(view, step), [view, step]);
  const invocations = view.slices.map((s, inv) => (s ? inv : -1)).filter((inv) => inv >= 0);
  const [picked, setPicked] = useState<number | undefined>(undefined);
  // The lanes of a warp probe in the same step: the panel follows one invocation at a time.
  const focus = picked ?? invocations[0] ?? 0;
  const mine = done.filter((p) => p.invocation === focus);
  const current = mine[mine.length - 1];
  const nextProbe = view.probes.find((p) => p.step > step && p.invocation === focus);
  const prevProbe = mine.length >= 2 ? mine[mine.length - 2] : undefined;
  const drawn = sizes.m <= MAX_GRID && sizes.n <= MAX_GRID;
  // The grid's labels are drawn at the stage's smallest text or more (28 px in projector mode):
  // the margins that hold them grow with it.
  const [sectionRef, room] = useStageRoom<HTMLElement>();
  const font = Math.max(14, room?.minText ?? 14);
  // A part the narration names (`loads`) is marked alone; otherwise what the moment is about.
  const mark = (name: string, on: boolean) => (on && (subject?.part === undefined || subject.part === name) ? name : undefined);
  const named = new Set(subject?.part === 'loads' ? subject.lanes.map(([w, l]) => w * trace.warpSize + l) : []);

  return (
    <section ref={sectionRef} className="panel merge-path" aria-labelledby={titleId} data-testid="merge-path">
      <div className="panel-head">
        <h2 id={titleId}>{m('ui.heading', { wg: trace.workgroups[0] ?? 0 })}</h2>
      </div>
      <p className="merge-now" aria-live="polite" data-testid="merge-now">
        {current ? probeSentence(current) : m('ui.noProbe', { focus })}
      </p>
      <div className="merge-controls">
        <button type="button" disabled={!prevProbe} onClick={() => prevProbe && seek(prevProbe.step)} data-testid="merge-prev-probe">
          {m('ui.prev')}
        </button>
        <button type="button" disabled={!nextProbe} onClick={() => nextProbe && seek(nextProbe.step)} data-testid="merge-next-probe">
          {m('ui.next')}
        </button>
        <label htmlFor={pickId}>{m('ui.invocation')}</label>
        <select id={pickId} value={focus} onChange={(e) => setPicked(Number(e.target.value))} data-testid="merge-invocation">
          {invocations.map((inv) => (
            <option key={inv} value={inv}>
              {inv}
            </option>
          ))}
        </select>
      </div>
      {drawn ? (
        <Grid view={view} step={step} done={done} focus={focus} current={current} font={font} mark={mark} frameHeight={room?.height} />
      ) : (
        <p className="hint">{m('ui.gridLimit', { max: MAX_GRID })}</p>
      )}
      <FocusSearches view={view} invocation={focus} step={step} seek={seek} />
      {/* Without the grid, the table is the picture: its loads are what the step is about, and so
          they are where the narration names them (the invocations it names, or every row). */}
      <InvocationTable view={view} focus={focus} subject={(inv) => mark('loads', subject?.part === 'loads' ? named.size === 0 || named.has(inv) : !drawn)} />
    </section>
  );
}

function probeSentence(p: ProbeEvent): string {
  const where = p.space === 'tile' ? m('ui.inTile') : m('ui.inGlobal');
  const values = { inv: p.invocation, i: p.i, j: p.j, av: fmt(p.av), bv: fmt(p.bv), where, k: p.i + p.j + 1 };
  return `${m('ui.probe', values)} ${p.takesA ? m('ui.probe.a', values) : m('ui.probe.b', values)}`;
}

type Mark = (name: string, on: boolean) => string | undefined;

function Grid({ view, step, done, focus, current, font, mark, frameHeight }: { view: MergeTraceView; step: number; done: readonly ProbeEvent[]; focus: number; current: ProbeEvent | undefined; font: number; mark: Mark; frameHeight: number | undefined }) {
  const { m: mLen, n } = view.sizes;
  // Room for "B ↓" left of the grid and "A →" and a diagonal's label above it, at the label size.
  const pad = Math.max(56, Math.round(font * 2.6));
  // Up to 256 elements a side: a large merge is drawn with small cells (no values), so a tile of
  // it fits the stage whole. The grid is also no taller than the stage frame (less a few px of its
  // padding), so a tile as tall as the merge (the tiled variants' one workgroup at 24 × 40) and the
  // probes at its far end are in view together: 410 px at 1440 × 900 gives 40 rows of 8 px.
  const tall = frameHeight === undefined ? Infinity : Math.floor((frameHeight - 8 - pad - 16) / Math.max(n, 1));
  const cell = Math.max(3, Math.min(28, Math.floor(560 / Math.max(mLen, n, 1)), tall));
  const width = pad + mLen * cell + 16;
  const height = pad + n * cell + 16;
  // Drawn up to 1.25 times its size where the stage is wide, but never taller than the frame.
  const grow = frameHeight === undefined ? 1.25 : Math.max(1, Math.min(1.25, (frameHeight - 8) / height));
  const x = (i: number) => pad + i * cell;
  const y = (j: number) => pad + j * cell;
  const points = pathPoints(view);
  const stored = points.filter((_, t) => t === 0 || (view.storeStep[t - 1] ?? -1) <= step && (view.storeStep[t - 1] ?? -1) >= 0);
  const showValues = cell >= 20;
  const diagonal = (k: number) => {
    const i0 = Math.min(k, mLen);
    const i1 = Math.max(0, k - n);
    return { x1: x(i0), y1: y(k - i0), x2: x(i1), y2: y(k - i1) };
  };
  return (
    <svg
      className="merge-grid"
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      style={{ maxWidth: `${width * grow}px` }}
      role="img"
      aria-label={m('ui.gridLabel', { m: mLen, n, probes: done.length, stored: stored.length - 1 })}
      data-testid="merge-grid"
      data-probes={done.length}
      data-path={stored.length - 1}
    >
      <text x={pad} y={font} className="merge-axis">
        A →
      </text>
      <text x={4} y={pad + font} className="merge-axis">
        B ↓
      </text>
      {showValues &&
        view.aValues.map((v, i) => (
          <text key={`a${i}`} x={x(i) + cell / 2} y={pad - 8} className="merge-value" textAnchor="middle">
            {fmt(v)}
          </text>
        ))}
      {showValues &&
        view.bValues.map((v, j) => (
          <text key={`b${j}`} x={pad - 6} y={y(j) + cell / 2 + 5} className="merge-value" textAnchor="end">
            {fmt(v)}
          </text>
        ))}
      <rect x={pad} y={pad} width={mLen * cell} height={n * cell} className="merge-frame" />
      {view.tile && (
        // The tile is what a step between probes is about (the tiled merge after its loads).
        <g className="merge-tile" data-testid="merge-tile" data-subject={mark('tile', !current || current.step !== step)}>
          <rect x={x(view.tile.a0)} y={y(view.tile.k0 - view.tile.a0)} width={(view.tile.a1 - view.tile.a0) * cell} height={(view.tile.k1 - view.tile.a1 - (view.tile.k0 - view.tile.a0)) * cell} />
          {/* Inside the tile's corner, under a diagonal's label above the grid. */}
          <text x={x(view.tile.a0) + 4} y={y(view.tile.k0 - view.tile.a0) + font * 1.1}>
            {m('ui.tileLabel')}
          </text>
        </g>
      )}
      {view.slices.map((s, inv) => {
        if (!s) return null;
        const d = diagonal(s.first);
        return (
          <g key={`d${inv}`} className={`merge-diagonal${inv === focus ? ' focus' : ''}`} data-subject={mark('segment', inv === focus)}>
            <line {...d} />
            {inv === focus && (
              <text x={d.x1 + 4} y={d.y1 - font * 0.3}>
                {m('ui.diagonal', { inv })}
              </text>
            )}
          </g>
        );
      })}
      <polyline className="merge-path-line ghost" points={points.map((p) => `${x(p.i)},${y(p.j)}`).join(' ')} />
      <polyline className="merge-path-line" points={stored.map((p) => `${x(p.i)},${y(p.j)}`).join(' ')} data-testid="merge-path-line" />
      {done.map((p, k) => {
        const cx = x(p.i) + cell / 2;
        const cy = y(p.j) + cell / 2;
        const r = Math.max(3, cell / 3);
        const cls = `merge-probe ${p.takesA ? 'a-first' : 'b-first'}${p === current ? ' current' : ''}${p.invocation === focus ? ' focus' : ''}`;
        // A first: a right-pointing triangle (the search moves up in A); B first: a square.
        return p.takesA ? (
          <polygon key={k} className={cls} data-subject={mark('probe', p === current)} points={`${cx - r},${cy - r} ${cx + r},${cy} ${cx - r},${cy + r}`} />
        ) : (
          <rect key={k} className={cls} data-subject={mark('probe', p === current)} x={cx - r} y={cy - r} width={2 * r} height={2 * r} />
        );
      })}
    </svg>
  );
}

function FocusSearches({ view, invocation, step, seek }: { view: MergeTraceView; invocation: number; step: number; seek: (s: number) => void }) {
  const searches = searchesOf(view, invocation);
  const slice = view.slices[invocation];
  return (
    <div className="merge-searches" data-testid="merge-searches">
      <h3>
        {slice ? m('ui.outputs', { inv: invocation, first: slice.first, last: slice.end - 1 }) : m('ui.noOutputs', { inv: invocation })}
      </h3>
      {searches.length === 0 && <p>{m('ui.noProbes')}</p>}
      <ol>
        {searches.map((s, k) => {
          const i = searchResult(s);
          return (
            <li key={k}>
              {m(s.space === 'tile' ? 'ui.diagTile' : 'ui.diag', { k: s.k })}{' '}
              {s.probes.map((p, q) => (
                <button key={q} type="button" className={p.step <= step ? 'seen' : 'ahead'} onClick={() => seek(p.step)} aria-label={m('ui.goProbe', { n: q + 1, i: p.i, j: p.j, first: p.takesA ? m('ui.aFirst') : m('ui.bFirst') })}>
                  ({p.i}, {p.j}) {p.takesA ? '▶ A' : '■ B'}
                </button>
              ))}{' '}
              → {s.probes[s.probes.length - 1]!.step <= step ? m('ui.takes', { a: i, b: s.k - i }) : m('ui.searching')}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function InvocationTable({ view, focus, subject }: { view: MergeTraceView; focus: number; subject: (invocation: number) => string | undefined }) {
  const rows = view.slices.map((s, inv) => ({ s, inv })).filter((r) => r.s);
  return (
    <table className="merge-table" data-testid="merge-table">
      <caption>{m('ui.table')}</caption>
      <ColumnHeads
        labels={[
          m('ui.col.inv'),
          m('ui.col.outputs'),
          m('ui.col.probes'),
          m('ui.col.loads'),
          m('ui.col.perOutput'),
        ]}
      />
      <tbody>
        {rows.map(({ s, inv }) => (
          <tr key={inv} className={inv === focus ? 'focus' : undefined} data-invocation={inv}>
            <th scope="row">{inv === focus ? `▶ ${inv}` : inv}</th>
            <td>
              {s!.first}–{s!.end - 1}
            </td>
            <td data-probes={view.probesPerInvocation[inv]}>{view.probesPerInvocation[inv]}</td>
            <td data-subject={subject(inv)}>{view.loadsPerInvocation[inv]}</td>
            <td>{(view.loadsPerInvocation[inv]! / (s!.end - s!.first)).toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
