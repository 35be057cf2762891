import { useId, useMemo, useState } from 'react';
import type { LabVariant, Params } from '../../../workbench/lab.ts';
import type { CompanionView, PanelProps } from '../../../workbench/panel.ts';
import { blellochAdditions, hillisSteeleAdditions, sequentialAdditions } from '../reference.ts';
import type { Trace } from '../../../sim/index.ts';
import type { TraceIndex } from '../../../trace/index.ts';
import {
  additionsAt,
  bankSummary,
  findRequest,
  networkOffsets,
  nodesWrittenBy,
  phaseStart,
  requestAtOrBefore,
  requestPlace,
  scanDataflow,
  scanPhaseAt,
  sharedRequestSteps,
  type ScanDataflow,
  type ScanNode,
  type ScanPhase,
  type ScanPhaseAt,
} from '../trace.ts';
import { columnsThatFit, graphMargins, ScanGraph, type GraphEdge, type GraphNode, type GraphShape } from './ScanGraph.tsx';
import './ScanInsights.css';
import { LOOK_BACK_VARIANTS } from '../lookBack.ts';
import { LookBackPanel } from './LookBack.tsx';
import { useFrameWidth } from '../../../ui/widgets/useFrameWidth.ts';
import { m } from '../messages.ts';
import { fillSlots, SLOT } from '../../../i18n/slots.tsx';


/**
 * The scan lab's own views, all read from the trace: which sweep the timeline is in, Blelloch's
 * up-sweep and down-sweep trees (or Hillis–Steele's network) from provenance, the additions counted
 * so far against the formulas, and the bank conflicts padding removes.
 */
export function ScanInsights({ trace, index, step, memory, variant, variants, params, companions, seek, subject }: PanelProps) {
  const flow = useMemo(() => (memory >= 0 ? scanDataflow(trace, memory) : undefined), [trace, memory]);
  const at = useMemo(() => (flow ? scanPhaseAt(flow, step) : undefined), [flow, step]);
  const tile = trace.workgroups[0] ?? 0;
  return (
    <div className="scan-insights" data-testid="scan-insights">
      {LOOK_BACK_VARIANTS.includes(variant.id) && <LookBackPanel trace={trace} step={step} seek={seek} subject={subject} n={Number(params.n)} />}
      {flow && at ? (
        <>
          <SweepPanel flow={flow} at={at} step={step} tile={tile} memoryName={trace.memories[memory]?.name} seek={seek} subject={subject?.part === undefined} />
          <WorkCounter flow={flow} step={step} tile={tile} />
        </>
      ) : (
        <p className="panel hint">{m('ui.noSweeps')}</p>
      )}
      <BankView trace={trace} index={index} step={step} variantId={variant.id} variants={variants} params={params} twin={companions['bank-twin']} seek={seek} />
    </div>
  );
}

// ---- Phase and trees ----

const PHASES: Record<ScanPhase, { mark: string; readonly name: string }> = {
  load: { mark: '⬚', get name() { return m('ui.phase.load'); } },
  'up-sweep': { mark: '▲', get name() { return m('ui.phase.up'); } },
  'root-clear': { mark: '◆', get name() { return m('ui.phase.clear'); } },
  'down-sweep': { mark: '▼', get name() { return m('ui.phase.down'); } },
  network: { mark: '⇉', get name() { return m('ui.phase.network'); } },
  'write-out': { mark: '✓', get name() { return m('ui.phase.write'); } },
};

function phaseSentence(flow: ScanDataflow, at: ScanPhaseAt, memoryName: string, offsets: readonly (number | undefined)[]): string {
  switch (at.phase) {
    case 'load':
      return m('ui.say.load', { n: flow.leaves, memory: memoryName });
    case 'up-sweep':
      return m('ui.say.up', { level: Math.max(0, at.upLevel), levels: flow.upRows - 1 });
    case 'root-clear':
      return m('ui.say.clear');
    case 'down-sweep':
      return m('ui.say.down', { depth: Math.max(0, at.downLevel), depths: flow.downRows - 1 });
    case 'network': {
      const off = offsets[at.upLevel];
      return off !== undefined ? m('ui.say.network', { step: at.upLevel, steps: flow.upRows - 1, off }) : m('ui.say.networkAny', { step: at.upLevel, steps: flow.upRows - 1 });
    }
    case 'write-out':
      return m('ui.say.write');
  }
}

type WindowChoice = string; // 'first-16', 'last-8', 'all'

function windowOptions(leaves: number): { value: WindowChoice; label: string }[] {
  const out: { value: WindowChoice; label: string }[] = [];
  for (const side of ['last', 'first'] as const) {
    for (const k of [8, 16, 32]) if (k < leaves) out.push({ value: `${side}-${k}`, label: m(side === 'last' ? 'ui.window.last' : 'ui.window.first', { k }) });
  }
  out.push({ value: 'all', label: m('ui.window.all', { n: leaves }) });
  return out;
}

function windowRange(choice: WindowChoice, leaves: number): [number, number] {
  const [side, k] = choice.split('-');
  const count = Math.min(leaves, Number(k) || leaves);
  if (choice === 'all' || count >= leaves) return [0, leaves];
  return side === 'last' ? [leaves - count, leaves] : [0, count];
}

/** Columns of the window written in the current row (the up-sweep's or network's, else the down-sweep's), else the column of the side's latest write in the window. */
function columnsOfRow(flow: ScanDataflow, written: number, upLevel: number, downLevel: number, lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < written; i++) {
    const n = flow.nodes[i]!;
    if (n.column < lo || n.column >= hi) continue;
    const down = onDownSide(n);
    if ((!down && upLevel >= 0 && n.row === upLevel) || (down && downLevel >= 0 && n.row === downLevel)) out.push(n.column);
  }
  if (out.length > 0) return out;
  // The row's writes so far lie outside the window: frame the latest write of this side inside it.
  for (let i = written - 1; i >= 0; i--) {
    const n = flow.nodes[i]!;
    if (n.column >= lo && n.column < hi && onDownSide(n) === downLevel >= 0) return [n.column];
  }
  return out;
}

/** Where a frame of `fits` columns starts: around the current row's columns (its last ones, when they are wider than the frame), else at the window's start. */
function frameStart(columns: readonly number[], fits: number, lo: number, hi: number): number {
  if (columns.length === 0 || fits >= hi - lo) return lo;
  const first = Math.min(...columns);
  const last = Math.max(...columns);
  // Wider than the frame: its last columns, where the tree's root side is written at every level.
  const start = last - first + 1 <= fits ? first - Math.floor((fits - (last - first + 1)) / 2) : last - fits + 1;
  return Math.max(lo, Math.min(hi - fits, start));
}

const shapeOf = (n: ScanNode): GraphShape => n.kind;
const onDownSide = (n: ScanNode) => n.sweep === 'down' || n.sweep === 'clear';

/** Graph nodes and edges of one picture from the nodes written so far. */
function picture(flow: ScanDataflow, written: number, side: 'up' | 'down', window: readonly [number, number]) {
  const [lo, hi] = window;
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  for (let i = 0; i < written; i++) {
    const n = flow.nodes[i]!;
    if (onDownSide(n) !== (side === 'down') || n.column < lo || n.column >= hi) continue;
    nodes.push({ key: n.record, column: n.column, row: n.row, value: n.value, shape: shapeOf(n) });
    for (const s of n.sources) {
      const src = flow.nodes[s]!;
      // In the down-sweep, a source from before the clear is the left child's old value: it
      // travels along the row (dotted) instead of down from the parent.
      const carried = side === 'down' && !onDownSide(src);
      edges.push({
        key: `${src.record}-${n.record}`,
        from: { column: src.column, row: carried ? n.row : src.row, value: src.value },
        to: { column: n.column, row: n.row },
        style: carried ? 'dotted' : n.kind === 'copy' ? 'dashed' : 'solid',
      });
    }
  }
  return { nodes, edges };
}

function Legend({ down, network }: { down: boolean; network: boolean }) {
  return (
    <ul className="legend sg-legend" aria-label={m('ui.legend')}>
      <li>
        <svg width="40" height="24" aria-hidden="true">
          <rect className="sg-key load" x="4" y="4" width="32" height="16" />
        </svg>
        {m('ui.legend.load')}
      </li>
      <li>
        <svg width="40" height="24" aria-hidden="true">
          <ellipse className="sg-key add" cx="20" cy="12" rx="16" ry="8" />
        </svg>
        {m('ui.legend.add')}
      </li>
      {(down || network) && (
        <li>
          <svg width="40" height="24" aria-hidden="true">
            <rect className="sg-key copy" x="4" y="4" width="32" height="16" rx="3" />
          </svg>
          {down ? m('ui.legend.copyDown') : m('ui.legend.copy')}
        </li>
      )}
      {down && (
        <>
          <li>
            <svg width="40" height="24" aria-hidden="true">
              <polygon className="sg-key clear" points="4,12 20,2 36,12 20,22" />
            </svg>
            {m('ui.legend.clear')}
          </li>
          <li>
            <svg width="48" height="24" aria-hidden="true">
              <path className="sg-edge dotted" d="M 4 8 Q 24 24 44 8" />
            </svg>
            {m('ui.legend.old')}
          </li>
        </>
      )}
    </ul>
  );
}

function SweepPanel({ flow, at, step, tile, memoryName, seek, subject }: { flow: ScanDataflow; at: ScanPhaseAt; step: number; tile: number; memoryName: string | undefined; seek: (step: number) => void; subject: boolean }) {
  const titleId = useId();
  const windowId = useId();
  const blelloch = flow.clear >= 0;
  const offsets = useMemo(() => networkOffsets(flow), [flow]);
  const [choice, setChoice] = useState<WindowChoice>(blelloch ? 'last-8' : 'first-16');
  const options = windowOptions(flow.leaves);
  const value = options.some((o) => o.value === choice) ? choice : options[0]!.value;
  const [lo, hi] = windowRange(value, flow.leaves);
  const written = nodesWrittenBy(flow, step);
  const upLevel = at.phase === 'up-sweep' || at.phase === 'network' || at.phase === 'load' ? at.upLevel : -1;
  const downLevel = at.phase === 'root-clear' || at.phase === 'down-sweep' ? at.downLevel : -1;
  // The camera: the window's columns that fit the stage at a readable size, around the row being
  // written (or where the learner panned); the columns left out are named on the pan buttons.
  const [frameRef, fit] = useFrameWidth<HTMLDivElement>();
  const upNames = Array.from({ length: flow.upRows }, (_, r) => (r === 0 ? m('ui.row.loaded') : blelloch ? m('ui.row.level', { r }) : offsets[r] !== undefined ? `+${offsets[r]}` : m('ui.row.step', { r })));
  const downNames = Array.from({ length: flow.downRows }, (_, r) => (r === 0 ? m('ui.row.root') : m('ui.row.depth', { r })));
  // The graph's text is 16 px, or the stage's smallest readable size where larger (the projector's
  // 28): the names' column is as wide as the longest name at that size, in both trees alike.
  const margins = graphMargins(Math.max(16, fit?.minText ?? 16), [...upNames, ...downNames]);
  const fits = fit ? columnsThatFit(hi - lo, fit.width / fit.zoom, margins) : hi - lo;
  const [pan, setPan] = useState<{ key: string; start: number } | undefined>();
  const panKey = `${value}:${fits}`;
  const currentColumns = useMemo(() => columnsOfRow(flow, written, upLevel, downLevel, lo, hi), [flow, written, upLevel, downLevel, lo, hi]);
  const start = pan?.key === panKey ? pan.start : frameStart(currentColumns, fits, lo, hi);
  const shown = useMemo(() => [start, Math.min(hi, start + fits)] as const, [start, fits, hi]);
  const up = useMemo(() => picture(flow, written, 'up', shown), [flow, written, shown]);
  const down = useMemo(() => picture(flow, written, 'down', shown), [flow, written, shown]);
  const panTo = (s: number) => setPan({ key: panKey, start: Math.max(lo, Math.min(hi - fits, s)) });
  const jumps: ScanPhase[] = blelloch ? ['load', 'up-sweep', 'root-clear', 'down-sweep', 'write-out'] : ['load', 'network', 'write-out'];
  const hasAdds = flow.firstAddStep >= 0;
  const upNotes = flow.additionsPerUpRow.map((a, r) => (r === 0 ? m('ui.note.words', { n: flow.leaves }) : m('ui.note.adds', { n: a })));
  const downNotes = flow.additionsPerDownRow.map((a, r) => (r === 0 ? m('ui.note.zero') : m('ui.note.adds', { n: a })));
  const windowText = m('ui.windowText', { lo: shown[0], hi: shown[1] - 1, n: flow.leaves });

  return (
    <section className="panel scan-sweeps" aria-labelledby={titleId} data-testid="scan-sweeps">
      <div className="panel-head">
        <h2 id={titleId}>{m(blelloch ? 'ui.heading.sweeps' : 'ui.heading.network', { wg: tile })}</h2>
        {hasAdds && (
          <>
            <label htmlFor={windowId}>{m('ui.shown')}</label>
            <select id={windowId} value={value} onChange={(e) => setChoice(e.target.value)} data-testid="sweep-window">
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </>
        )}
      </div>
      <p className="scan-phase" data-testid="scan-phase" data-phase={at.phase} data-up-level={at.upLevel} data-down-level={at.downLevel} aria-live="polite">
        <span className="scan-phase-name">
          <span aria-hidden="true">{PHASES[at.phase].mark} </span>
          {PHASES[at.phase].name}
        </span>{' '}
        — {/* The buffer's name is the kernel's identifier: shown as code. */}
        {memoryName === undefined ? phaseSentence(flow, at, m('ui.workgroupMemory'), offsets) : fillSlots(phaseSentence(flow, at, SLOT, offsets), <code>{memoryName}</code>)}
      </p>
      <div className="button-group scan-jumps" role="group" aria-label={m('ui.jump')}>
        {jumps.map((p) => {
          const target = phaseStart(flow, p);
          const current = at.phase === p;
          return (
            <button key={p} type="button" disabled={target < 0} aria-current={current ? 'step' : undefined} className={current ? 'current' : undefined} onClick={() => seek(target)}>
              {current ? '● ' : ''}
              {PHASES[p].name}
            </button>
          );
        })}
      </div>
      {!hasAdds ? (
        <p className="hint">{m('ui.noTree')}</p>
      ) : (
        <>
          <Legend down={blelloch} network={!blelloch} />
          {(shown[0] > lo || shown[1] < hi) && (
            <div className="button-group scan-pan" role="group" aria-label={m('ui.frame.label', { lo: shown[0], hi: shown[1] - 1 })} data-testid="scan-pan">
              <button type="button" disabled={shown[0] <= lo} onClick={() => panTo(shown[0] - fits)}>
                {shown[0] > lo ? m('ui.frame.left', { lo, hi: shown[0] - 1 }) : m('ui.frame.none')}
              </button>
              <span>{m('ui.frame.shown', { lo: shown[0], hi: shown[1] - 1 })}</span>
              <button type="button" disabled={shown[1] >= hi} onClick={() => panTo(shown[1])}>
                {shown[1] < hi ? m('ui.frame.right', { lo: shown[1], hi: hi - 1 }) : m('ui.frame.none')}
              </button>
            </div>
          )}
          <h3 id={`${titleId}-up`}>{m(blelloch ? 'ui.upTree' : 'ui.networkHeading')}</h3>
          <div ref={frameRef} data-testid={blelloch ? 'up-tree' : 'network'} data-level={at.upLevel} data-current-row={upLevel} data-rows={new Set(up.nodes.map((n) => n.row)).size}>
            <ScanGraph
              label={m('ui.graphLabel', { graph: m(blelloch ? 'ui.upTree' : 'ui.network'), window: windowText, row: upLevel >= 0 ? m('ui.rowCurrent', { row: upNames[upLevel] ?? '' }) : m('ui.notCurrent') })}
              rows={flow.upRows}
              rowNames={upNames}
              rowNotes={upNotes}
              currentRow={upLevel}
              subject={subject}
              direction="up"
              window={shown}
              frameWidth={fit ? fit.width / fit.zoom : undefined}
              margins={margins}
              nodes={up.nodes}
              edges={up.edges}
            />
          </div>
          {blelloch && (
            <>
              <h3>{m('ui.downTree')}</h3>
              <div data-testid="down-tree" data-level={at.downLevel} data-current-row={downLevel} data-rows={new Set(down.nodes.map((n) => n.row)).size}>
                {down.nodes.length === 0 ? (
                  <p className="hint">{m('ui.downStarts')}</p>
                ) : (
                  <ScanGraph
                    label={m('ui.graphLabel', { graph: m('ui.downTree'), window: windowText, row: downLevel >= 0 ? m('ui.rowCurrent', { row: downNames[downLevel] ?? '' }) : m('ui.notCurrent') })}
                    rows={flow.downRows}
                    rowNames={downNames}
                    rowNotes={downNotes}
                    currentRow={downLevel}
                    subject={subject}
                    direction="down"
                    window={shown}
                    frameWidth={fit ? fit.width / fit.zoom : undefined}
                    margins={margins}
                    nodes={down.nodes}
                    edges={down.edges}
                  />
                )}
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}

// ---- Work ----

function WorkCounter({ flow, step, tile }: { flow: ScanDataflow; step: number; tile: number }) {
  const titleId = useId();
  const n = flow.leaves;
  const soFar = additionsAt(flow, step);
  const total = flow.additionsBefore[flow.nodes.length]!;
  const hs = hillisSteeleAdditions(n);
  const bl = blellochAdditions(n);
  const seq = sequentialAdditions(n);
  const family = flow.clear >= 0 ? 'blelloch' : flow.firstAddStep >= 0 ? 'hillis-steele' : undefined;
  const rows: { key: string; label: string; value: number; note?: string }[] = [
    { key: 'so-far', label: m('ui.work.soFar'), value: soFar },
    { key: 'total', label: m('ui.work.total'), value: total },
    {
      key: 'hillis-steele',
      label: m('ui.work.hs'),
      value: hs,
      ...(family === 'hillis-steele' ? { note: total === hs ? m('ui.work.same') : m('ui.work.differs') } : {}),
    },
    { key: 'blelloch', label: m('ui.work.blelloch'), value: bl, ...(family === 'blelloch' ? { note: total === bl ? m('ui.work.same') : m('ui.work.differs') } : {}) },
    { key: 'sequential', label: m('ui.work.seq'), value: seq },
  ];
  const max = Math.max(1, ...rows.map((r) => (Number.isFinite(r.value) ? r.value : 0)));
  return (
    <section className="panel scan-work" aria-labelledby={titleId} data-testid="work-counter" data-additions={soFar} data-total={total} data-n={n}>
      <h2 id={titleId}>{m('ui.work.heading', { wg: tile, n })}</h2>
      <p className="summary-line" aria-live="polite">
        <strong data-testid="additions-so-far">{soFar.toLocaleString('en')}</strong> {m('ui.work.line', { total: total.toLocaleString('en') })}
      </p>
      <table className="data-table scan-work-table">
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-row={r.key}>
              <th scope="row">{r.label}</th>
              <td>{Number.isInteger(r.value) ? r.value.toLocaleString('en') : '—'}</td>
              <td className="scan-bar-cell" aria-hidden="true">
                <span className={`scan-bar ${r.key}`} style={{ width: `${(100 * (Number.isFinite(r.value) ? r.value : 0)) / max}%` }} />
              </td>
              <td className="scan-note">{r.note ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        {m('ui.work.how')}
      </p>
    </section>
  );
}

// ---- Banks ----

/** Each Blelloch variant's twin for the padding comparison (simulated as a companion). */
export const BLELLOCH_PAIR = { blelloch: 'blelloch-padded', 'blelloch-padded': 'blelloch' } as const;
interface BankViewProps {
  readonly trace: Trace;
  readonly index: TraceIndex;
  readonly step: number;
  readonly variantId: string;
  readonly variants: readonly LabVariant[];
  readonly params: Params;
  /** The twin variant's simulation, declared as a companion of this panel. */
  readonly twin: CompanionView | undefined;
  readonly seek: (step: number) => void;
}

function BankView({ trace, index, step, variantId, variants, params, twin, seek }: BankViewProps) {
  const titleId = useId();
  const titleOf = (id: string) => variants.find((v) => v.id === id)?.title ?? id;
  const counterpart = variantId in BLELLOCH_PAIR ? BLELLOCH_PAIR[variantId as keyof typeof BLELLOCH_PAIR] : undefined;
  const tile = trace.workgroups[0] ?? 0;
  const status = twin ?? { state: 'idle' as const, progress: 0, message: undefined };
  const otherTrace = twin?.state === 'done' ? twin.result?.trace : undefined;
  const otherIndex = twin?.index;

  const mine = useMemo(() => {
    const steps = sharedRequestSteps(trace);
    return { steps, summary: bankSummary(trace, steps) };
  }, [trace]);
  const other = useMemo(() => {
    if (!otherTrace || !otherIndex) return undefined;
    const steps = sharedRequestSteps(otherTrace);
    return { steps, summary: bankSummary(otherTrace, steps), index: otherIndex };
  }, [otherTrace, otherIndex]);
  const current = useMemo(() => requestAtOrBefore(trace, mine.steps, step), [trace, mine.steps, step]);
  const place = useMemo(() => (current ? requestPlace(index, mine.steps, current) : undefined), [current, index, mine.steps]);
  const otherCurrent = useMemo(() => (other && place ? findRequest(other.index, other.steps, place) : undefined), [other, place]);

  const way = (w: number | undefined) => (w === undefined ? '—' : w <= 1 ? m('ui.bank.one') : m('ui.bank.way', { w }));
  const here = current && current.step === step ? m('ui.bank.this') : m('ui.bank.last');
  const currentLine = current
    ? m('ui.bank.current', { here, warp: current.warp, line: current.line, conflict: current.wavefronts <= 1 ? m('ui.bank.none') : m('ui.bank.ways', { w: current.wavefronts }) })
    : m('ui.bank.noRequest');

  if (!counterpart) {
    return (
      <section className="panel scan-banks" aria-labelledby={titleId} data-testid="bank-view" data-current-wavefronts={current?.wavefronts ?? 0}>
        <h2 id={titleId}>{m('ui.bank.heading', { wg: tile })}</h2>
        <p className="summary-line">
          {mine.summary.conflicts === 0
            ? m('ui.bank.clean', { n: mine.summary.requests })
            : m('ui.bank.summary', { conflicted: mine.summary.conflicted, n: mine.summary.requests, extra: mine.summary.conflicts })}{' '}
          {currentLine}
        </p>
        <p className="hint">{m('ui.bank.onlyBlelloch')}</p>
      </section>
    );
  }

  const columns = [
    { id: variantId, summary: mine.summary, current, pending: undefined as string | undefined },
    {
      id: counterpart,
      summary: other?.summary,
      current: otherCurrent,
      pending:
        status.state === 'running'
          ? m('ui.bank.simulating', { pct: Math.round(status.progress * 100) })
          : status.state === 'error'
            ? m('ui.bank.failed', { message: status.message ?? m('ui.bank.unknown') })
            : status.state === 'cancelled'
              ? m('ui.bank.cancelled')
              : undefined,
    },
  ].sort((a, b) => (a.id === 'blelloch' ? -1 : b.id === 'blelloch' ? 1 : 0));

  return (
    <section className="panel scan-banks" aria-labelledby={titleId} data-testid="bank-view" data-current-wavefronts={current?.wavefronts ?? 0}>
      <h2 id={titleId}>{m('ui.bank.padHeading', { wg: tile })}</h2>
      <p className="summary-line" aria-live="polite">
        {currentLine}
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={m('ui.bank.tableLabel')}>
        <table className="data-table scan-bank-table" data-testid="bank-table">
          <caption>
            {m('ui.bank.caption', { n: String(params.n), inv: trace.invocations })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{m('ui.bank.requests')}</th>
              {columns.map((c) => (
                <th key={c.id} scope="col">
                  {titleOf(c.id)}
                  {c.id === variantId ? m('ui.bank.shown') : ''}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{m('ui.bank.extra')}</th>
              {columns.map((c) => (
                <td key={c.id} data-testid={`bank-conflicts-${c.id}`} data-conflicts={c.summary?.conflicts ?? ''}>
                  {c.summary ? c.summary.conflicts.toLocaleString('en') : (c.pending ?? '…')}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">{m('ui.bank.withConflict')}</th>
              {columns.map((c) => (
                <td key={c.id}>{c.summary ? m('ui.bank.of', { k: c.summary.conflicted, n: c.summary.requests }) : '…'}</td>
              ))}
            </tr>
            <tr>
              <th scope="row">{m('ui.bank.worst')}</th>
              {columns.map((c) => (
                <td key={c.id} data-testid={`bank-worst-${c.id}`} data-wavefronts={c.summary?.worst?.wavefronts ?? ''}>
                  {c.summary?.worst ? m('ui.bank.worstAt', { way: way(c.summary.worst.wavefronts), line: c.summary.worst.line }) : '…'}
                </td>
              ))}
            </tr>
            <tr className="current-request">
              <th scope="row">▶ {here}</th>
              {columns.map((c) => (
                <td key={c.id} data-testid={`bank-current-${c.id}`} data-wavefronts={c.current?.wavefronts ?? ''}>
                  {c.current ? way(c.current.wavefronts) : c.summary ? '—' : '…'}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      {mine.summary.worst && mine.summary.worst.wavefronts > 1 && (
        <p>
          <button type="button" onClick={() => seek(mine.summary.worst!.step)} data-testid="go-worst">
            {m('ui.bank.goWorst', { way: way(mine.summary.worst.wavefronts) })}
          </button>{' '}
          <span className="hint">{m('ui.bank.pressC')}</span>
        </p>
      )}
    </section>
  );
}
