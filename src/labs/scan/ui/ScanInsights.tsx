import { useId, useMemo, useState } from 'react';
import type { LabVariant, Params } from '../../lab.ts';
import type { CompanionView, PanelProps } from '../../ui.ts';
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
import { ScanGraph, type GraphEdge, type GraphNode, type GraphShape } from './ScanGraph.tsx';
import './ScanInsights.css';


/**
 * The scan lab's own views, all read from the trace: which sweep the timeline is in, Blelloch's
 * up-sweep and down-sweep trees (or Hillis–Steele's network) from provenance, the additions counted
 * so far against the formulas, and the bank conflicts padding removes.
 */
export function ScanInsights({ trace, index, step, memory, variant, variants, params, companions, seek }: PanelProps) {
  const flow = useMemo(() => (memory >= 0 ? scanDataflow(trace, memory) : undefined), [trace, memory]);
  const at = useMemo(() => (flow ? scanPhaseAt(flow, step) : undefined), [flow, step]);
  const tile = trace.workgroups[0] ?? 0;
  return (
    <div className="scan-insights" data-testid="scan-insights">
      {flow && at ? (
        <>
          <SweepPanel flow={flow} at={at} step={step} tile={tile} memoryName={trace.memories[memory]?.name ?? 'workgroup memory'} seek={seek} />
          <WorkCounter flow={flow} step={step} tile={tile} />
        </>
      ) : (
        <p className="panel hint">This variant does not work in workgroup memory, so there are no sweeps to recover from the trace.</p>
      )}
      <BankView trace={trace} index={index} step={step} variantId={variant.id} variants={variants} params={params} twin={companions['bank-twin']} seek={seek} />
    </div>
  );
}

// ---- Phase and trees ----

const PHASES: Record<ScanPhase, { mark: string; name: string }> = {
  load: { mark: '⬚', name: 'Loading' },
  'up-sweep': { mark: '▲', name: 'Up-sweep' },
  'root-clear': { mark: '◆', name: 'Root clear' },
  'down-sweep': { mark: '▼', name: 'Down-sweep' },
  network: { mark: '⇉', name: 'Log-step network' },
  'write-out': { mark: '✓', name: 'Writing out' },
};

function phaseSentence(flow: ScanDataflow, at: ScanPhaseAt, memoryName: string, offsets: readonly (number | undefined)[]): string {
  switch (at.phase) {
    case 'load':
      return `Loading the tile: ${flow.leaves} words of ${memoryName} are filled from the input.`;
    case 'up-sweep':
      return `Up-sweep, level ${Math.max(0, at.upLevel)} of ${flow.upRows - 1}: each node adds its left child, building a reduction tree in place.`;
    case 'root-clear':
      return 'Root clear: the tile total is kept aside and the root word becomes 0, the identity the down-sweep starts from.';
    case 'down-sweep':
      return `Down-sweep, depth ${Math.max(0, at.downLevel)} of ${flow.downRows - 1}: each left child takes its parent’s value; each right child takes parent + the left child’s old value.`;
    case 'network': {
      const off = offsets[at.upLevel];
      return `Step ${at.upLevel} of ${flow.upRows - 1}: every element ${off !== undefined ? `adds the one ${off} place${off === 1 ? '' : 's'} to its left` : 'adds a value to its left'}; those too close to the start copy theirs.`;
    }
    case 'write-out':
      return 'Sweeps done: every word holds its prefix sum and the results are written out.';
  }
}

type WindowChoice = string; // 'first-16', 'last-8', 'all'

function windowOptions(leaves: number): { value: WindowChoice; label: string }[] {
  const out: { value: WindowChoice; label: string }[] = [];
  for (const side of ['last', 'first'] as const) {
    for (const k of [8, 16, 32]) if (k < leaves) out.push({ value: `${side}-${k}`, label: `${side} ${k} columns` });
  }
  out.push({ value: 'all', label: `all ${leaves} (no values)` });
  return out;
}

function windowRange(choice: WindowChoice, leaves: number): [number, number] {
  const [side, k] = choice.split('-');
  const count = Math.min(leaves, Number(k) || leaves);
  if (choice === 'all' || count >= leaves) return [0, leaves];
  return side === 'last' ? [leaves - count, leaves] : [0, count];
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
    <ul className="legend sg-legend" aria-label="Legend">
      <li>
        <svg width="40" height="24" aria-hidden="true">
          <rect className="sg-key load" x="4" y="4" width="32" height="16" />
        </svg>
        loaded word
      </li>
      <li>
        <svg width="40" height="24" aria-hidden="true">
          <ellipse className="sg-key add" cx="20" cy="12" rx="16" ry="8" />
        </svg>
        addition (two sources, solid lines)
      </li>
      {(down || network) && (
        <li>
          <svg width="40" height="24" aria-hidden="true">
            <rect className="sg-key copy" x="4" y="4" width="32" height="16" rx="3" />
          </svg>
          copy (one source, dashed line){down ? ': the left child takes the parent’s value' : ''}
        </li>
      )}
      {down && (
        <>
          <li>
            <svg width="40" height="24" aria-hidden="true">
              <polygon className="sg-key clear" points="4,12 20,2 36,12 20,22" />
            </svg>
            cleared root (0)
          </li>
          <li>
            <svg width="48" height="24" aria-hidden="true">
              <path className="sg-edge dotted" d="M 4 8 Q 24 24 44 8" />
            </svg>
            +old: the left child’s old value added into the right child
          </li>
        </>
      )}
    </ul>
  );
}

function SweepPanel({ flow, at, step, tile, memoryName, seek }: { flow: ScanDataflow; at: ScanPhaseAt; step: number; tile: number; memoryName: string; seek: (step: number) => void }) {
  const titleId = useId();
  const windowId = useId();
  const blelloch = flow.clear >= 0;
  const offsets = useMemo(() => networkOffsets(flow), [flow]);
  const [choice, setChoice] = useState<WindowChoice>(blelloch ? 'last-8' : 'first-16');
  const options = windowOptions(flow.leaves);
  const value = options.some((o) => o.value === choice) ? choice : options[0]!.value;
  const [lo, hi] = windowRange(value, flow.leaves);
  const shown = useMemo(() => [lo, hi] as const, [lo, hi]);
  const written = nodesWrittenBy(flow, step);
  const up = useMemo(() => picture(flow, written, 'up', shown), [flow, written, shown]);
  const down = useMemo(() => picture(flow, written, 'down', shown), [flow, written, shown]);
  const jumps: ScanPhase[] = blelloch ? ['load', 'up-sweep', 'root-clear', 'down-sweep', 'write-out'] : ['load', 'network', 'write-out'];
  const hasAdds = flow.firstAddStep >= 0;
  const upNames = Array.from({ length: flow.upRows }, (_, r) => (r === 0 ? 'loaded' : blelloch ? `level ${r}` : offsets[r] !== undefined ? `+${offsets[r]}` : `step ${r}`));
  const upNotes = flow.additionsPerUpRow.map((a, r) => (r === 0 ? `${flow.leaves} words` : `${a} add${a === 1 ? '' : 's'}`));
  const downNames = Array.from({ length: flow.downRows }, (_, r) => (r === 0 ? 'root' : `depth ${r}`));
  const downNotes = flow.additionsPerDownRow.map((a, r) => (r === 0 ? 'set to 0' : `${a} add${a === 1 ? '' : 's'}`));
  const upLevel = at.phase === 'up-sweep' || at.phase === 'network' || at.phase === 'load' ? at.upLevel : -1;
  const downLevel = at.phase === 'root-clear' || at.phase === 'down-sweep' ? at.downLevel : -1;
  const windowText = `columns ${lo}–${hi - 1} of ${flow.leaves}`;

  return (
    <section className="panel scan-sweeps" aria-labelledby={titleId} data-testid="scan-sweeps">
      <div className="panel-head">
        <h2 id={titleId}>{blelloch ? 'Blelloch’s sweeps' : 'Scan network'} (from the trace, workgroup {tile})</h2>
        {hasAdds && (
          <>
            <label htmlFor={windowId}>Shown</label>
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
        — {phaseSentence(flow, at, memoryName, offsets)}
      </p>
      <div className="button-group scan-jumps" role="group" aria-label="Jump to a phase">
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
        <p className="hint">No addition in this trace writes to workgroup memory (a warp scan adds in registers), so there is no tree to recover.</p>
      ) : (
        <>
          <Legend down={blelloch} network={!blelloch} />
          <h3 id={`${titleId}-up`}>{blelloch ? 'Up-sweep tree' : 'Log-step network: one row per step, additions per step on the right'}</h3>
          <div data-testid={blelloch ? 'up-tree' : 'network'} data-level={at.upLevel} data-current-row={upLevel} data-rows={new Set(up.nodes.map((n) => n.row)).size}>
            <ScanGraph
              label={`${blelloch ? 'Up-sweep tree' : 'Scan network'}, ${windowText}; ${upLevel >= 0 ? `row ${upNames[upLevel]} is current` : 'not current'}.`}
              rows={flow.upRows}
              rowNames={upNames}
              rowNotes={upNotes}
              currentRow={upLevel}
              direction="up"
              window={shown}
              nodes={up.nodes}
              edges={up.edges}
            />
          </div>
          {blelloch && (
            <>
              <h3>Down-sweep tree</h3>
              <div data-testid="down-tree" data-level={at.downLevel} data-current-row={downLevel} data-rows={new Set(down.nodes.map((n) => n.row)).size}>
                {down.nodes.length === 0 ? (
                  <p className="hint">Starts once the up-sweep has reached the root and the root is cleared.</p>
                ) : (
                  <ScanGraph
                    label={`Down-sweep tree, ${windowText}; ${downLevel >= 0 ? `row ${downNames[downLevel]} is current` : 'not current'}.`}
                    rows={flow.downRows}
                    rowNames={downNames}
                    rowNotes={downNotes}
                    currentRow={downLevel}
                    direction="down"
                    window={shown}
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
    { key: 'so-far', label: 'This variant, so far', value: soFar },
    { key: 'total', label: 'This variant, whole tile', value: total },
    {
      key: 'hillis-steele',
      label: 'Hillis–Steele: n·log2 n − (n − 1)',
      value: hs,
      ...(family === 'hillis-steele' ? { note: total === hs ? '= this variant ✓' : '≠ this variant' } : {}),
    },
    { key: 'blelloch', label: 'Blelloch: 2(n − 1)', value: bl, ...(family === 'blelloch' ? { note: total === bl ? '= this variant ✓' : '≠ this variant' } : {}) },
    { key: 'sequential', label: 'Sequential loop: n − 1', value: seq },
  ];
  const max = Math.max(1, ...rows.map((r) => (Number.isFinite(r.value) ? r.value : 0)));
  return (
    <section className="panel scan-work" aria-labelledby={titleId} data-testid="work-counter" data-additions={soFar} data-total={total} data-n={n}>
      <h2 id={titleId}>Work: additions in workgroup {tile}’s tile (n = {n})</h2>
      <p className="summary-line" aria-live="polite">
        <strong data-testid="additions-so-far">{soFar.toLocaleString('en')}</strong> additions so far, of {total.toLocaleString('en')} this variant does for the tile.
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
        Counted from the trace’s provenance: every lane’s write to workgroup memory whose value came from two earlier writes is one addition. Loads,
        copies and the cleared root are not; additions that stay in registers (warp scans, a lane’s running total) leave no such write and are not
        counted. n is the number of words the tile loaded.
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

  const way = (w: number | undefined) => (w === undefined ? '—' : w <= 1 ? '1 wavefront (no conflict)' : `${w}-way`);
  const here = current && current.step === step ? 'this request' : 'the last request';
  const currentLine = current
    ? `${here[0]!.toUpperCase()}${here.slice(1)} (warp ${current.warp}, line ${current.line}): ${current.wavefronts <= 1 ? 'no bank conflict' : `${current.wavefronts}-way bank conflict`}.`
    : 'No workgroup-memory request yet.';

  if (!counterpart) {
    return (
      <section className="panel scan-banks" aria-labelledby={titleId} data-testid="bank-view" data-current-wavefronts={current?.wavefronts ?? 0}>
        <h2 id={titleId}>Bank conflicts (workgroup {tile})</h2>
        <p className="summary-line">
          {mine.summary.conflicts === 0
            ? `No request of this variant has a bank conflict (${mine.summary.requests} requests).`
            : `${mine.summary.conflicted} of ${mine.summary.requests} requests conflict; ${mine.summary.conflicts} extra wavefronts in all.`}{' '}
          {currentLine}
        </p>
        <p className="hint">The padding comparison is made for the two Blelloch variants: choose one of them to see it.</p>
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
          ? `simulating… ${Math.round(status.progress * 100)} %`
          : status.state === 'error'
            ? `failed: ${status.message ?? 'unknown error'}`
            : status.state === 'cancelled'
              ? 'cancelled'
              : undefined,
    },
  ].sort((a, b) => (a.id === 'blelloch' ? -1 : b.id === 'blelloch' ? 1 : 0));

  return (
    <section className="panel scan-banks" aria-labelledby={titleId} data-testid="bank-view" data-current-wavefronts={current?.wavefronts ?? 0}>
      <h2 id={titleId}>Bank conflicts before and after padding (workgroup {tile})</h2>
      <p className="summary-line" aria-live="polite">
        {currentLine}
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Bank conflicts table (scrolls sideways)">
        <table className="data-table scan-bank-table" data-testid="bank-table">
          <caption>
            Both variants simulated at n = {String(params.n)}, {trace.invocations} invocations; the same request is found in the other trace by warp, barrier
            phase and order.
          </caption>
          <thead>
            <tr>
              <th scope="col">Workgroup-memory requests</th>
              {columns.map((c) => (
                <th key={c.id} scope="col">
                  {titleOf(c.id)}
                  {c.id === variantId ? ' (shown)' : ''}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Bank conflicts (extra wavefronts)</th>
              {columns.map((c) => (
                <td key={c.id} data-testid={`bank-conflicts-${c.id}`} data-conflicts={c.summary?.conflicts ?? ''}>
                  {c.summary ? c.summary.conflicts.toLocaleString('en') : (c.pending ?? '…')}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Requests with a conflict</th>
              {columns.map((c) => (
                <td key={c.id}>{c.summary ? `${c.summary.conflicted} of ${c.summary.requests}` : '…'}</td>
              ))}
            </tr>
            <tr>
              <th scope="row">Worst request</th>
              {columns.map((c) => (
                <td key={c.id} data-testid={`bank-worst-${c.id}`} data-wavefronts={c.summary?.worst?.wavefronts ?? ''}>
                  {c.summary?.worst ? `${way(c.summary.worst.wavefronts)}, line ${c.summary.worst.line}` : '…'}
                </td>
              ))}
            </tr>
            <tr className="current-request">
              <th scope="row">▶ {here[0]!.toUpperCase() + here.slice(1)}</th>
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
            Go to the worst request ({way(mine.summary.worst.wavefronts)})
          </button>{' '}
          <span className="hint">or press C for the next conflict.</span>
        </p>
      )}
    </section>
  );
}
