import { useId, useMemo, useState } from 'react';
import type { Trace } from '../../sim/index.ts';
import { columnOffsets, frameColumns, frameKey, GAP_COST, parseFrameKey } from '../../workbench/camera.ts';
import { accessesOf, sharedContentsAt } from '../../trace/memory.ts';
import type { Subject } from '../../trace/subject.ts';
import { ui } from '../../i18n/ui.ts';
import { useFrameWidth } from '../widgets/useFrameWidth.ts';

interface Props {
  readonly trace: Trace;
  readonly memory: number;
  readonly step: number;
  /** Wavefronts of the current request (from the trace index); 0 when the step is no request here. */
  readonly wavefronts: number;
  /** Words a lesson points at: framed with a dashed outline and a ◆. */
  readonly highlightWords?: readonly number[] | undefined;
  /** What the step is about: its banks and lanes are always framed, its words and labels carry `data-subject`. */
  readonly subject?: Subject | undefined;
}

const CELL_W = 36;
const CELL_H = 30;
const LANE_ROW = 46;
const ROWS_PER_PAGE = 8;

function fmt(v: number): string {
  if (Number.isInteger(v)) return Math.abs(v) >= 1e6 ? v.toExponential(1) : String(v);
  return Math.abs(v) >= 1000 || Math.abs(v) < 0.01 ? v.toExponential(1) : v.toFixed(2);
}

/**
 * Workgroup memory laid out 32 words to a row, so each column is one bank. The current request's
 * lanes sit on top with arrows to the words they read (dashed) or write (solid); the request's
 * conflict degree is written out. Rows page by eight; the page follows the current request.
 * The camera: when all 32 banks do not fit the panel at a readable size, the banks and lanes of the
 * subject are kept, with their neighbours as room allows, and each run left out is drawn as one
 * narrow "⋯ 1–15" column, so the conflict is always on screen and the learner sees what is not.
 */
export function SharedMemoryStrip({ trace, memory, step, wavefronts, highlightWords, subject }: Props) {
  const titleId = useId();
  const BANKS = trace.hardware.banks;
  const mem = trace.memories[memory];
  const words = mem?.words ?? 0;
  const rows = Math.ceil(words / BANKS);
  const pages = Math.max(1, Math.ceil(rows / ROWS_PER_PAGE));
  const { values, written } = useMemo(() => sharedContentsAt(trace, memory, step), [trace, memory, step]);
  const access = useMemo(() => accessesOf(trace, step, memory), [trace, step, memory]);
  const touchedPage = access && access.list.length > 0 ? Math.floor(Math.floor(access.list[0]!.addr / BANKS) / ROWS_PER_PAGE) : undefined;
  const [chosenPage, setChosenPage] = useState<number | undefined>();
  const page = Math.min(pages - 1, chosenPage ?? touchedPage ?? 0);
  const firstRow = page * ROWS_PER_PAGE;
  const shownRows = Math.min(ROWS_PER_PAGE, rows - firstRow);
  const touched = new Map<number, number[]>();
  for (const a of access?.list ?? []) touched.set(a.addr, [...(touched.get(a.addr) ?? []), a.lane]);
  // The camera: as many bank columns as fit the measured width at this zoom, the subject's first.
  const [scrollRef, fit] = useFrameWidth<HTMLDivElement>();
  const subjectLanes = useMemo(() => new Set(subject?.lanes.map(([, l]) => l)), [subject]);
  const subjectWords = useMemo(() => new Set(subject?.words ?? highlightWords ?? []), [subject, highlightWords]);
  const wantedColumns = useMemo(() => [...new Set([...(subject?.banks ?? []), ...[...subjectLanes].map((l) => l % BANKS)])].sort((a, b) => a - b), [subject, subjectLanes, BANKS]);
  const budget = fit ? (fit.width / fit.zoom - 60 - 8) / CELL_W : BANKS;
  // A subject wider than the frame (a whole row of 32 banks in a narrow stage) is framed from its
  // first bank: as many of its banks as fit, the rest summarised by one ⋯ run (itself marked as
  // part of the subject), so nothing of it is drawn off the edge.
  const framed = wantedColumns.length > budget ? wantedColumns.slice(0, Math.max(1, Math.floor(budget - GAP_COST))) : wantedColumns;
  const framing = frameKey(frameColumns(BANKS, framed, budget));
  const frame = useMemo(() => parseFrameKey(framing), [framing]);
  const { x: colX, total: colsWidth, at: xOfBank } = columnOffsets(frame, CELL_W);
  const width = 60 + Math.ceil(colsWidth);
  const height = LANE_ROW + 24 + shownRows * CELL_H + 8;

  const describe = !access
    ? ui('strip.untouched')
    : ui(access.write ? 'strip.write' : 'strip.read', {
        n: access.list.length,
        conflict: wavefronts <= 1 ? ui('strip.noConflict') : ui('strip.conflict', { n: wavefronts }),
      });

  return (
    <section className="panel shared-strip" aria-labelledby={titleId} data-testid="shared-strip" data-wavefronts={wavefronts}>
      <div className="panel-head">
        <h2 id={titleId}>
          {ui('strip.title')} <code>{mem?.name ?? '—'}</code>
        </h2>
        {pages > 1 && (
          <div className="button-group" role="group" aria-label={ui('strip.rowsShown')}>
            <button type="button" onClick={() => setChosenPage(Math.max(0, page - 1))} disabled={page === 0}>
              {ui('strip.rowsBack')}
            </button>
            <span>
              {ui('strip.words', { lo: firstRow * BANKS, hi: Math.min(words, (firstRow + shownRows) * BANKS) - 1 })}
            </span>
            <button type="button" onClick={() => setChosenPage(Math.min(pages - 1, page + 1))} disabled={page === pages - 1}>
              {ui('strip.rowsForward')}
            </button>
            {chosenPage !== undefined && (
              <button type="button" onClick={() => setChosenPage(undefined)}>
                {ui('strip.follow')}
              </button>
            )}
          </div>
        )}
      </div>
      <p className={wavefronts > 1 ? 'summary-line conflict' : 'summary-line'} data-testid="conflict-line" aria-live="polite">
        {wavefronts > 1 ? '⚠ ' : ''}
        {describe}
      </p>
      {frame.some((c) => c.kind === 'gap') && (
        <p className="frame-note" data-testid="strip-frame-note">
          {ui('strip.framed', { runs: frame.flatMap((c) => (c.kind === 'gap' ? [c.from === c.to ? String(c.from) : `${c.from}–${c.to}`] : [])).join(', ') })}
        </p>
      )}
      <div className="svg-scroll" tabIndex={0} role="region" aria-label={ui('strip.region')} ref={scrollRef}>
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={ui('strip.svgLabel', { name: mem?.name ?? '', words, banks: BANKS, describe })}>
          <defs>
            <marker id="arrow-w" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-head" />
            </marker>
          </defs>
          {/* Bank numbers, and each run of banks left out of the frame as one narrow column */}
          {frame.map((col, i) =>
            col.kind === 'column' ? (
              <text key={`b${col.index}`} x={60 + colX[i]! + CELL_W / 2} y={LANE_ROW + 16} className="bank-label" textAnchor="middle" data-subject={subject?.banks.includes(col.index) ? 'bank' : undefined}>
                {col.index}
              </text>
            ) : (
              <g key={`gap${col.from}`} className="bank-gap" data-testid="bank-gap" data-subject={subject?.banks.some((b) => b >= col.from && b <= col.to) ? 'bank-run' : undefined}>
                <title>{ui('strip.gap', { from: col.from, to: col.to })}</title>
                <text x={60 + colX[i]! + (CELL_W * 0.6) / 2} y={LANE_ROW + 16} className="bank-label" textAnchor="middle">
                  ⋯
                </text>
              </g>
            ),
          )}
          <text x={4} y={LANE_ROW + 16} className="bank-label">
            {ui('strip.bank')}
          </text>
          {/* Word cells */}
          {Array.from({ length: shownRows }, (_, r) =>
            frame.map((col, i) => {
              if (col.kind === 'gap') return null;
              const b = col.index;
              const addr = (firstRow + r) * BANKS + b;
              if (addr >= words) return null;
              const lanes = touched.get(addr);
              const y = LANE_ROW + 24 + r * CELL_H;
              const x = 60 + colX[i]!;
              return (
                <g
                  key={addr}
                  className={`word bank-${b % 2 ? 'odd' : 'even'}${lanes ? (access?.write ? ' word-written' : ' word-read') : ''}${highlightWords?.includes(addr) ? ' word-highlighted' : ''}`}
                  data-highlighted={highlightWords?.includes(addr) ? 'yes' : undefined}
                  data-subject={subjectWords.has(addr) ? 'word' : undefined}
                  data-addr={addr}
                >
                  <rect x={x} y={y} width={CELL_W - 2} height={CELL_H - 2} rx={3} />
                  {/* A marked word's value sits low and right, clear of its R / W mark in the top left corner. */}
                  <text x={lanes ? x + CELL_W - 5 : x + CELL_W / 2 - 1} y={lanes ? y + CELL_H - 5 : y + CELL_H / 2 + 4} textAnchor={lanes ? 'end' : 'middle'} className={written[addr] ? 'word-value' : 'word-value zero'}>
                    {fmt(values[addr] ?? 0)}
                  </text>
                  {lanes && (
                    <text x={x + 3} y={y + 11} className="word-mark">
                      {access?.write ? ui('strip.markWrite') : ui('strip.markRead')}
                    </text>
                  )}
                </g>
              );
            }),
          )}
          {Array.from({ length: shownRows }, (_, r) => (
            <text key={r} x={4} y={LANE_ROW + 24 + r * CELL_H + CELL_H / 2 + 4} className="row-label">
              {(firstRow + r) * BANKS}
            </text>
          ))}
          {/* Lanes of the request and arrows to their words */}
          {access?.list.map((a) => {
            const row = Math.floor(a.addr / BANKS) - firstRow;
            if (row < 0 || row >= shownRows) return null;
            const laneX = xOfBank.get(a.lane % BANKS);
            const bankX = xOfBank.get(a.bank);
            // A lane or a word in a run the frame left out is summarised by that run's ⋯ column.
            if (laneX === undefined || bankX === undefined) return null;
            const lx = 60 + laneX + CELL_W / 2;
            const tx = 60 + bankX + CELL_W / 2;
            const ty = LANE_ROW + 24 + row * CELL_H + 2;
            return (
              <g key={`${a.lane}-${a.addr}`} className={access.write ? 'access write' : 'access read'}>
                <text x={lx} y={12} textAnchor="middle" className="lane-label" data-subject={subjectLanes.has(a.lane) ? 'lane' : undefined}>
                  {a.lane}
                </text>
                <line x1={lx} y1={16} x2={tx} y2={ty} markerEnd="url(#arrow-w)" strokeDasharray={access.write ? undefined : '4 3'} />
              </g>
            );
          })}
          {access && (
            <text x={4} y={12} className="bank-label">
              {ui('strip.lane')}
            </text>
          )}
        </svg>
      </div>
    </section>
  );
}
