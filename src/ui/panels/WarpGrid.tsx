import { memo, useCallback, useId, useMemo, useState, type CSSProperties, type KeyboardEvent, type MouseEvent } from 'react';
import { columnOffsets, frameColumns, frameKey, GAP_COST, parseFrameKey, type FramedColumn } from '../../workbench/camera.ts';
import { LaneState, type WarpSnapshot } from '../../trace/index.ts';
import type { Subject } from '../../trace/subject.ts';
import { useFrameWidth } from '../widgets/useFrameWidth.ts';
import { ui, type UiKey } from '../../i18n/ui.ts';
import { useLocale } from '../../i18n/useLocale.ts';

interface Props {
  readonly workgroup: number;
  readonly workgroupCount: number;
  readonly warpSize: number;
  readonly warps: readonly WarpSnapshot[];
  readonly focusedWarp: number;
  readonly focusedLane: number;
  readonly onFocus: (warp: number, lane: number) => void;
  readonly onWorkgroup: (workgroup: number) => void;
  /** What a lane last read or wrote by this step, for the details line (hovered or focused lane). */
  readonly describeLane: (warp: number, lane: number) => string;
  /** Warps a lesson points at: outlined with a dashed frame and a ★. */
  readonly highlightWarps?: readonly number[] | undefined;
  /** Lanes a lesson points at, as [warp, lane]: a dashed ring. */
  readonly highlightLanes?: readonly (readonly [number, number])[] | undefined;
  /** What the step is about: its lanes are framed and carry `data-subject`, as do its warps' labels. */
  readonly subject?: Subject | undefined;
}

const CELL = 16;
const GAP = 2;
/** The split mark's column after the lanes, in ems of the labels' font. */
const MARK_EM = 1.4;

/**
 * The warp labels' column, in ems of their font: as wide as the longest label with its “▶ ” or
 * “★ ” (“▶ warp 12”, “▶ 线程束 12”) and half an em before the lanes. A CJK character or a mark is
 * one em wide, others 0.6 (the monospace face).
 */
function labelEms(warps: readonly WarpSnapshot[]): number {
  const ems = (text: string) => [...text].reduce((w, ch) => w + (ch.codePointAt(0)! >= 0x2000 ? 1 : 0.6), 0);
  return Math.max(0, ...warps.map((w) => ems(ui('warps.rowLabel', { warp: w.id })))) + 1.6 + 0.5;
}

const STATE_LABEL: Record<number, UiKey> = {
  [LaneState.Active]: 'lane.state.active',
  [LaneState.Masked]: 'lane.state.masked',
  [LaneState.Exited]: 'lane.state.exited',
  [LaneState.NotStarted]: 'lane.state.notStarted',
  [LaneState.Waiting]: 'lane.state.waiting',
  [LaneState.Absent]: 'lane.state.absent',
};

/** One lane cell: shape and pattern tell the state, colour only repeats it. */
function LaneCell({ x, y, state, focused }: { x: number; y: number; state: LaneState; focused: boolean }) {
  const cls = `lane lane-${LaneState[state]?.toLowerCase() ?? 'absent'}${focused ? ' lane-focused' : ''}`;
  switch (state) {
    case LaneState.Active:
      return <rect className={cls} x={x} y={y} width={CELL} height={CELL} rx={2} />;
    case LaneState.Masked:
      return <rect className={cls} x={x + 0.5} y={y + 0.5} width={CELL - 1} height={CELL - 1} rx={2} fill="url(#hatch)" />;
    case LaneState.Waiting:
      return (
        <g className={cls}>
          <rect x={x + 0.5} y={y + 0.5} width={CELL - 1} height={CELL - 1} rx={2} />
          <line x1={x + 4} y1={y + 3} x2={x + 4} y2={y + CELL - 3} />
          <line x1={x + CELL - 4} y1={y + 3} x2={x + CELL - 4} y2={y + CELL - 3} />
        </g>
      );
    case LaneState.Exited:
      return (
        <g className={cls}>
          <line x1={x + 3} y1={y + 3} x2={x + CELL - 3} y2={y + CELL - 3} />
          <line x1={x + CELL - 3} y1={y + 3} x2={x + 3} y2={y + CELL - 3} />
        </g>
      );
    case LaneState.NotStarted:
      return <circle className={cls} cx={x + CELL / 2} cy={y + CELL / 2} r={3} />;
    default:
      return null;
  }
}

function sameRow(a: RowProps, b: RowProps): boolean {
  if (a.highlighted !== b.highlighted || a.ringed !== b.ringed || a.subject !== b.subject || a.frame !== b.frame || a.label !== b.label || a.font !== b.font || a.row !== b.row || a.pitch !== b.pitch || a.warpSize !== b.warpSize || a.focused !== b.focused || (a.focused && a.focusedLane !== b.focusedLane)) return false;
  const x = a.warp;
  const y = b.warp;
  if (x.id !== y.id || x.current !== y.current || x.divergent !== y.divergent) return false;
  for (let i = 0; i < x.lanes.length; i++) if (x.lanes[i] !== y.lanes[i]) return false;
  return true;
}

interface RowProps {
  highlighted: boolean;
  /** Lanes of this warp to ring, joined as "3,5" so rows can compare them cheaply. */
  ringed: string;
  /** Lanes of this warp that are the step's subject, joined like `ringed`; `*` for the warp itself. */
  subject: string;
  /** The camera's columns (one per lane, or a run of lanes drawn as ⋯). */
  frame: readonly FramedColumn[];
  /** Width of the warp labels' column, in drawing units. */
  label: number;
  /** The labels' font size, in drawing units (the split mark is drawn to match it). */
  font: number;
  warp: WarpSnapshot;
  row: number;
  /** Drawing units from one row to the next: room for a cell, or for a label grown past one. */
  pitch: number;
  warpSize: number;
  focusedLane: number;
  focused: boolean;
}

// Rows compare their lanes by value: a step usually changes one warp, so the other rows (up to 31
// of them, 32 cells each) skip rendering.
const WarpRow = memo(function WarpRow({
  highlighted,
  ringed,
  subject,
  frame,
  label,
  font,
  warp,
  row,
  pitch,
  focusedLane,
  focused,
}: RowProps) {
  useLocale(); // the row's label is text: it follows a language switch despite the memo
  const y = row * pitch;
  const { x: colX, total } = columnOffsets(frame, CELL + GAP);
  const ringedLanes = ringed.split(',');
  const subjectLanes = subject.split(',');
  return (
    <g>
      {highlighted && (
        <rect className="warp-highlight" x={label - 4} y={y - 3} width={total + 6} height={CELL + 6} rx={4} />
      )}
      <text x={0} y={y + CELL - 3} className={warp.current ? 'warp-label current' : 'warp-label'} data-subject={subject !== '' ? 'warp' : undefined}>
        {warp.current ? '▶ ' : highlighted ? '★ ' : ''}
        {ui('warps.rowLabel', { warp: warp.id })}
      </text>
      {frame.map((col, i) => {
        const x = label + colX[i]!;
        if (col.kind === 'gap') {
          return (
            <text key={`gap${col.from}`} x={x + ((CELL + GAP) * GAP_COST) / 2} y={y + CELL - 3} className="lane-gap" textAnchor="middle">
              <title>{ui('warps.gap', { from: col.from, to: col.to })}</title>⋯
            </text>
          );
        }
        const lane = col.index;
        return (
          <g key={lane} data-subject={subjectLanes.includes(String(lane)) ? 'lane' : undefined} data-lane={lane}>
            <LaneCell x={x} y={y} state={(warp.lanes[lane] ?? LaneState.Absent)} focused={focused && lane === focusedLane} />
            {ringedLanes.includes(String(lane)) && <circle className="lane-ring" cx={x + CELL / 2} cy={y + CELL / 2} r={CELL / 2 + 3} data-ringed="yes" />}
          </g>
        );
      })}
      {/* ⑂ after the lanes, as tall as a label: a fork, not a colour, says the warp split (the legend names it). */}
      {warp.divergent && (
        <g className="divergence-mark" aria-hidden="true" transform={`translate(${label + total + font * 0.7} ${y + CELL}) scale(${(font / 14).toFixed(3)})`}>
          <title>{ui('warps.diverged')}</title>
          <path d="M0 0 v-7 l-5 -7 M0 -7 l5 -7" />
        </g>
      )}
    </g>
  );
}, sameRow);

/**
 * The focused workgroup's lanes grouped into warps at the current step. Active lanes are solid
 * squares, lanes masked off by a branch are hatched, exited lanes are crosses, lanes waiting at a
 * barrier show two bars; warps whose lanes split carry a ⑂ mark. Arrow keys move the lane focus.
 */
export function WarpGrid({ workgroup, workgroupCount, warpSize, warps, focusedWarp, focusedLane, onFocus, onWorkgroup, describeLane, highlightWarps, highlightLanes, subject }: Props) {
  // Hovering shows a lane's details without moving the focus (or the URL); leaving restores them.
  const [hovered, setHovered] = useState<{ warp: number; lane: number } | undefined>();
  const titleId = useId();
  const selectId = useId();
  // The camera: lanes that do not fit at a readable size collapse into ⋯ runs, the subject's kept.
  // The grid is drawn at the frame's width; lanes get the width that the labels and the split mark,
  // at the stage's smallest readable size, leave them, at cells that grow with the labels (16 units
  // at a scale of minText / 12: 16 px cells beside 12 px labels, 37 px beside a projector's 28 px).
  const [scrollRef, fit] = useFrameWidth<HTMLDivElement>();
  const minText = fit?.minText ?? 12;
  const labelEm = labelEms(warps);
  const budget = fit ? (fit.width - (labelEm + MARK_EM) * minText) / (minText / 12) / (CELL + GAP) : warpSize;
  const wanted = useMemo(() => [...new Set(subject?.lanes.map(([, l]) => l))], [subject]);
  const framing = frameKey(frameColumns(warpSize, wanted, budget));
  // One array while the framing is the same: the rows compare it by identity and skip rendering.
  const frame = useMemo(() => parseFrameKey(framing), [framing]);
  const { total: lanesWidth } = columnOffsets(frame, CELL + GAP);
  // A subject wider than the budget shrinks the drawing: its text grows in drawing units to stay
  // readable, and its cells shrink with it, no further than the room the labels leave (the split
  // mark is a fork, not a word, so a warp of 32 lanes keeps cells of 17 px beside projector labels
  // of 28 px). With the label column L em (5.7 for “▶ warp 7”) and the split mark 1.4 em wide, a
  // font f gives a drawing (L + 1.4)·f + lanes wide, drawn at frame/width: f·frame/width ≥ minText
  // solves to the below.
  const room = fit ? fit.width - (labelEm + MARK_EM) * minText : 0;
  // Rounded up to the tenth written into the style, with 2 % to spare for the drawing's own
  // rounding, so a label never lands a hair under the readable size.
  const font = room > 0 ? Math.max(12, Math.ceil(((minText * lanesWidth) / room) * 1.02 * 10) / 10) : 12;
  const laneAtX = (x: number): number => {
    const { x: colX } = columnOffsets(frame, CELL + GAP);
    for (let i = frame.length - 1; i >= 0; i--) {
      const col = frame[i]!;
      if (x >= colX[i]!) return col.kind === 'column' && x < colX[i]! + CELL + GAP ? col.index : -1;
    }
    return -1;
  };
  const subjectOf = (warp: number): string => {
    const lanes = (subject?.lanes ?? []).filter(([w]) => w === warp).map(([, l]) => l);
    return lanes.length > 0 ? lanes.join(',') : subject?.warps.includes(warp) ? '*' : '';
  };
  const labelWidth = Math.round(font * labelEm);
  // Room above the first row for labels taller than a cell (their baseline sits on the cell's).
  const headroom = Math.max(0, Math.ceil(font - CELL + 2));
  // Rows far enough apart that labels grown past a cell's height never stack on one another.
  const pitch = Math.max(CELL + 8, Math.ceil(font * 1.15) + 2);
  const width = labelWidth + Math.ceil(lanesWidth) + Math.round(font * MARK_EM);
  const height = warps.length * pitch;
  const divergent = warps.filter((w) => w.divergent).map((w) => w.id);
  const active = warps.filter((w) => w.lanes.some((s) => s === (LaneState.Active as number))).length;

  const onKey = useCallback(
    (e: KeyboardEvent<SVGSVGElement>) => {
      let warp = focusedWarp;
      let lane = focusedLane;
      if (e.key === 'ArrowRight') lane = Math.min(warpSize - 1, lane + 1);
      else if (e.key === 'ArrowLeft') lane = Math.max(0, lane - 1);
      else if (e.key === 'ArrowDown') warp = Math.min(warps.length - 1, warp + 1);
      else if (e.key === 'ArrowUp') warp = Math.max(0, warp - 1);
      else return;
      e.preventDefault();
      e.stopPropagation();
      onFocus(warp, lane);
    },
    [focusedWarp, focusedLane, warpSize, warps.length, onFocus],
  );

  /** The lane under the pointer, from the SVG's scale (it may be drawn smaller than its viewBox). */
  const laneAt = (e: MouseEvent<SVGSVGElement>): { warp: number; lane: number } | undefined => {
    const box = e.currentTarget.getBoundingClientRect();
    const scale = box.width / width;
    const lane = laneAtX((e.clientX - box.left) / scale - labelWidth);
    const warp = Math.floor(((e.clientY - box.top) / scale - headroom) / pitch);
    return lane >= 0 && lane < warpSize && warp >= 0 && warp < warps.length ? { warp, lane } : undefined;
  };
  const shown = hovered ?? { warp: focusedWarp, lane: focusedLane };
  const shownState = (warps[shown.warp]?.lanes[shown.lane] ?? LaneState.Absent) as LaneState;
  const focusedState = (warps[focusedWarp]?.lanes[focusedLane] ?? LaneState.Absent) as LaneState;
  return (
    <section
      className="panel warp-grid"
      aria-labelledby={titleId}
      data-testid="warp-grid"
      data-divergent-warps={divergent.join(',')}
      data-highlighted-warps={highlightWarps?.join(',') ?? ''}
    >
      <div className="panel-head">
        <h2 id={titleId}>{ui('warps.title', { workgroup })}</h2>
        <label htmlFor={selectId}>{ui('warps.workgroup')}</label>
        <select id={selectId} value={workgroup} onChange={(e) => onWorkgroup(Number(e.target.value))} data-testid="workgroup-select">
          {Array.from({ length: Math.min(workgroupCount, 256) }, (_, g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
      </div>
      <p className="summary-line" data-testid="warp-summary">
        {ui('warps.activeCount', { active, count: warps.length })} ·{' '}
        {divergent.length === 0 ? ui('warps.noneSplit') : ui('warps.divergent', { warps: divergent.join(', ') })}
      </p>
      <div className="svg-scroll" ref={scrollRef}>
        <svg
          width={width}
          height={height + headroom}
          viewBox={`0 ${-headroom} ${width} ${height + headroom}`}
          style={{ '--lane-font': `${font.toFixed(1)}px` } as CSSProperties}
          role="group"
          aria-roledescription={ui('warps.roledescription')}
          data-testid="lane-grid"
          aria-label={ui('warps.gridLabel', { workgroup, warp: focusedWarp, lane: focusedLane, state: ui(STATE_LABEL[focusedState]!) })}
          tabIndex={0}
          onKeyDown={onKey}
          onClick={(e) => {
            const hit = laneAt(e);
            if (hit) onFocus(hit.warp, hit.lane);
          }}
          onMouseMove={(e) => {
            const hit = laneAt(e);
            if (hit?.warp !== hovered?.warp || hit?.lane !== hovered?.lane) setHovered(hit);
          }}
          onMouseLeave={() => setHovered(undefined)}
        >
          <defs>
            <pattern id="hatch" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <line x1="0" y1="0" x2="0" y2="5" className="hatch-line" />
            </pattern>
          </defs>
          {warps.map((w, row) => (
            <WarpRow
              key={w.id}
              highlighted={highlightWarps?.includes(w.id) ?? false}
              ringed={(highlightLanes ?? []).filter(([hw]) => hw === w.id).map(([, l]) => l).join(',')}
              subject={subjectOf(w.id)}
              frame={frame}
              label={labelWidth}
              font={font}
              warp={w} row={row} pitch={pitch} warpSize={warpSize} focusedLane={focusedLane} focused={row === focusedWarp} />
          ))}
        </svg>
      </div>
      <ul className="legend" aria-label={ui('warps.legend')}>
        <li>
          <svg width="18" height="18" aria-hidden="true"><rect className="lane lane-active" x="1" y="1" width="16" height="16" rx="2" /></svg> {ui('lane.legend.active')}
        </li>
        <li>
          <svg width="18" height="18" aria-hidden="true"><rect className="lane lane-masked" x="1.5" y="1.5" width="15" height="15" rx="2" fill="url(#hatch)" /></svg> {ui('lane.legend.masked')}
        </li>
        <li>
          <svg width="18" height="18" aria-hidden="true"><g className="lane lane-waiting"><rect x="1.5" y="1.5" width="15" height="15" rx="2" /><line x1="5" y1="4" x2="5" y2="14" /><line x1="13" y1="4" x2="13" y2="14" /></g></svg> {ui('lane.legend.waiting')}
        </li>
        <li>
          <svg width="18" height="18" aria-hidden="true"><g className="lane lane-exited"><line x1="4" y1="4" x2="14" y2="14" /><line x1="14" y1="4" x2="4" y2="14" /></g></svg> {ui('lane.legend.exited')}
        </li>
        <li>
          <svg width="18" height="18" aria-hidden="true"><circle className="lane lane-notstarted" cx="9" cy="9" r="3" /></svg> {ui('lane.legend.notStarted')}
        </li>
        <li>
          <svg width="18" height="18" aria-hidden="true"><g className="divergence-mark"><path d="M9 17 v-7 l-5 -7 M9 10 l5 -7" /></g></svg> {ui('lane.legend.split')}
        </li>
      </ul>
      <p className="lane-detail" data-testid="lane-detail" aria-live="polite">
        {ui(hovered ? 'warps.pointerDetail' : 'warps.laneDetail', { warp: shown.warp, lane: shown.lane, invocation: shown.warp * warpSize + shown.lane, state: ui(STATE_LABEL[shownState]!) })}{' '}
        {describeLane(shown.warp, shown.lane)}
      </p>
    </section>
  );
}
