import { useId, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { subjectInvocations } from '../../../trace/subject.ts';
import type { PanelProps } from '../../../workbench/panel.ts';
import { useFrameWidth } from '../../../ui/widgets/useFrameWidth.ts';
import { LOWEST } from '../reference.ts';
import { isRadix, isTopkVariant } from '../kernel.ts';
import { floorAt, laneList, levelAt, listsAt, mergedAway, readRadixTrace, readTopkTrace, threshold, type TopkTraceView } from '../trace.ts';
import './TopkPanel.css';
import { m } from '../messages.ts';

const show = (v: number) => (v === LOWEST ? '—' : String(v));
/** Both radix selects keep a pool under a rising floor, which their stage draws. */
const isRadixId = (id: string) => isTopkVariant(id) && isRadix(id);

/**
 * The top-k stage, all from the trace: every lane's list as a column of dots (one per value, by
 * height), filling during the insert phase; the tree level by level, with lists merged away drawn
 * hollow and faded; and lane 0's k-th value, the threshold a value must beat, as a line.
 */
export function TopkPanel(props: PanelProps) {
  return isRadixId(props.variant.id) ? <RadixStage {...props} /> : <ListsStage {...props} />;
}

/**
 * The radix selects' stage, from the trace: the pool's size after every round, which rounds ended
 * in a cut (a radix select keeping the k largest, or for radix-ahead during the read the bucket
 * that holds the k-th) and the floor a value must beat at this step.
 */
function RadixStage({ trace, step, seek, variant }: PanelProps) {
  const titleId = useId();
  const view = useMemo(() => readRadixTrace(trace), [trace]);
  const floor = floorAt(view, step);
  const cuts = view.floors.filter((f, i) => i > 0 && f.step <= step).length;
  const last = view.rounds.length - 1;
  // The subject of a moment: the floor a value must beat now, and the round under way (the first
  // not yet done; the end once every round is).
  const ahead = view.rounds.findIndex((r) => r.step > step);
  const current = ahead < 0 ? last : ahead;
  return (
    <section className="panel topk-stage" aria-labelledby={titleId} data-testid="topk-stage" data-cuts={cuts}>
      <div className="panel-head">
        <h2 id={titleId}>{m('ui.radix.heading', { wg: trace.workgroups[0] ?? 0 })}</h2>
      </div>
      <p className="topk-phase" aria-live="polite" data-testid="topk-phase">
        {m('ui.radix.floorNow')} <strong data-testid="topk-threshold" data-subject="floor">{show(floor)}</strong> {m(variant.id === 'radix-ahead' ? 'ui.radixAhead.cuts' : 'ui.radix.cuts', { cuts })}
      </p>
      <ol className="topk-rounds" aria-label={m('ui.radix.rounds')}>
        {view.rounds.map((r, i) => {
          const cut = view.floors.find((f) => f.step > r.step && (view.rounds[i + 1] === undefined || f.step < view.rounds[i + 1]!.step));
          return (
            <li key={r.step} className={r.step <= step ? 'done' : undefined} data-subject={i === current ? 'round' : undefined}>
              <button type="button" onClick={() => seek(r.step)}>
                {i === last ? m('ui.radix.end') : m('ui.radix.round', { round: r.round + 1 })}
              </button>{' '}
              {m('ui.radix.holds', { n: r.size.toLocaleString('en') })}
              {cut && i !== last ? m('ui.radix.cut', { value: show(cut.value) }) : ''}
              {cut && i === last ? m('ui.radix.finalCut', { value: show(cut.value) }) : ''}
              {r.step <= step ? m('ui.radix.done') : ''}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function ListsStage({ trace, step, variant, seek, subject }: PanelProps) {
  const titleId = useId();
  const laneId = useId();
  const view = useMemo(() => readTopkTrace(trace, variant.wgsl), [trace, variant.wgsl]);
  const [lane, setLane] = useState(0);
  const level = levelAt(view, step);
  const current = view.levels[level - 1];
  const bar = threshold(view, step);
  const phase =
    level === 0
      ? step <= view.insertEnd
        ? m('ui.insertPhase', { k: view.k })
        : m('ui.insertDone')
      : m('ui.treeLevel', { level, levels: view.levels.length, last: current!.stride - 1, from: current!.stride, to: 2 * current!.stride - 1 });
  const list = laneList(view, step, Math.min(lane, view.lanes - 1));
  const jumps = [
    { id: 'inserts', label: m('ui.endOfInserts'), step: view.insertEnd, current: false },
    ...view.levels.map((l) => ({ id: `level-${l.level}`, label: m('ui.level', { level: l.level }), step: l.start, current: l.level === level })),
  ];

  return (
    <section className="panel topk-stage" aria-labelledby={titleId} data-testid="topk-stage" data-level={level}>
      <div className="panel-head">
        <h2 id={titleId}>{m('ui.heading', { wg: trace.workgroups[0] ?? 0 })}</h2>
      </div>
      <p className="topk-phase" aria-live="polite" data-testid="topk-phase">
        {phase} {m('ui.threshold', { k: view.k })} <strong data-testid="topk-threshold">{show(bar)}</strong>.
      </p>
      <div className="topk-jumps" role="group" aria-label={m('ui.jump')}>
        {jumps.map((j) => (
          <button key={j.id} type="button" onClick={() => seek(j.step)} className={j.current ? 'current' : undefined}>
            {j.label}
          </button>
        ))}
      </div>
      <Columns view={view} step={step} level={level} bar={bar} focus={lane} subjectLanes={subjectInvocations(subject, trace.warpSize)} />
      <div className="topk-lane">
        <label htmlFor={laneId}>{m('ui.lane')}</label>
        <select id={laneId} value={lane} onChange={(e) => setLane(Number(e.target.value))} data-testid="topk-lane">
          {Array.from({ length: view.lanes }, (_, t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <p data-testid="topk-lane-list">
          {mergedAway(view, lane, level) ? m('ui.mergedInto', { lane, into: lane % (view.lanes >> level) }) : ''}
          {m('ui.laneHolds', { lane, list: list.map(show).join(', '), filled: list.filter((v) => v !== LOWEST).length, k: view.k, accepted: view.accepted[lane] ?? 0 })}
        </p>
      </div>
    </section>
  );
}

function Columns({ view, step, level, bar, focus, subjectLanes }: { view: TopkTraceView; step: number; level: number; bar: number; focus: number; subjectLanes: ReadonlySet<number> }) {
  const lists = useMemo(() => listsAt(view, step), [view, step]);
  const values = useMemo(() => [...lists].filter((v) => v !== LOWEST), [lists]);
  const lo = values.length ? Math.min(...values) : 0;
  const hi = values.length ? Math.max(...values) : 1;
  const colW = Math.max(4, Math.min(16, Math.floor(960 / view.lanes)));
  const height = 240;
  const pad = 8;
  const width = view.lanes * colW + 2 * pad;
  // The k-th's label at the stage's smallest readable size as drawn (the picture is scaled to the
  // frame's width), 5 % to spare for rounding; above its line, or under it where the line is near the top.
  const [frameRef, fit] = useFrameWidth<HTMLDivElement>();
  const font = fit && fit.width > 0 ? Math.ceil((fit.minText * 1.05 * width) / fit.width) : 12;
  const y = (v: number) => pad + (height - 2 * pad) * (1 - (v - lo) / Math.max(1, hi - lo));
  let filledCount = 0;
  const dots: ReactNode[] = [];
  for (let t = 0; t < view.lanes; t++) {
    const away = mergedAway(view, t, level);
    for (let s = 0; s < view.k; s++) {
      const v = lists[s * view.lanes + t]!;
      if (v === LOWEST) continue;
      filledCount++;
      dots.push(<circle key={`${t}-${s}`} cx={pad + t * colW + colW / 2} cy={y(v)} r={Math.max(1.5, colW / 4)} className={`topk-dot${away ? ' away' : ''}${t === focus ? ' focus' : ''}`} />);
    }
  }
  return (
    <div ref={frameRef}>
      <svg
        className="topk-columns"
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        role="img"
        aria-label={m('ui.columns', { lanes: view.lanes, k: view.k, filled: filledCount, bar: show(bar) })}
        data-testid="topk-columns"
        data-filled={filledCount}
      >
        {/* Every lane's list as an empty slot, so the columns are there before the first insert. */}
        {Array.from({ length: view.lanes }, (_, t) => (
          <rect key={`slot-${t}`} className="topk-slot" data-subject={subjectLanes.has(t) ? 'list' : undefined} x={pad + t * colW + 0.5} y={0.5} width={colW - 1} height={height - 1} />
        ))}
        <rect className="topk-focus-band" x={pad + focus * colW} y={0} width={colW} height={height} />
        {dots}
        {bar !== LOWEST && values.length > 0 && (
          <g className="topk-threshold" data-testid="topk-threshold-line">
            <line x1={pad} x2={width - pad} y1={y(bar)} y2={y(bar)} />
            <text x={width - pad} y={y(bar) - 4 - font < 0 ? y(bar) + font : y(bar) - 4} textAnchor="end" className="topk-kth" style={{ '--topk-kth': `${font}px` } as CSSProperties}>
              {m('ui.kth', { bar })}
            </text>
          </g>
        )}
      </svg>
    </div>
  );
}
