import { useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { PanelProps } from '../../../workbench/panel.ts';
import { binLabel, isDistribution, rangeOf } from '../data.ts';
import { copiesInterleaved, isPackedVariant, privateCopiesOf } from '../kernel.ts';
import { atomicMemories, atomicSummary, binsAfter, countingAtomics, packedBinOf, packedBinsAfter, privateWordOf, type AtomicStep } from '../trace.ts';
import './HistogramStage.css';
import { m } from '../messages.ts';
import { ColumnHeads } from '../../../ui/widgets/ColumnHeads.tsx';
import { useStageRoom, type StageRoom } from '../../../ui/widgets/useFrameWidth.ts';

/** Bins listed in full up to this many; beyond it only the bins in play. */
const ALL_BINS_UP_TO = 16;

/** The latest of `steps` at or before `step` (binary search), or undefined. */
function atOrBefore(steps: readonly AtomicStep[], step: number): AtomicStep | undefined {
  let lo = 0;
  let hi = steps.length - 1;
  let found: AtomicStep | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid]!.step <= step) {
      found = steps[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Every bin up to ALL_BINS_UP_TO of them; beyond, the bins in the queue and the first filled ones. */
function binsToShow(bins: number, hit: readonly number[], filled: (bin: number) => number): number[] {
  if (bins <= ALL_BINS_UP_TO) return Array.from({ length: bins }, (_, b) => b);
  const pick = new Set(hit);
  for (let b = 0; b < bins && pick.size < ALL_BINS_UP_TO; b++) if (filled(b) > 0) pick.add(b);
  return [...pick].sort((a, b) => a - b);
}

/** A stage narrower than this draws each bin's fill under its name instead of in a column of its own. */
const NARROW = 640;

/**
 * How far the bins table folds to fit the stage frame it is seen through, measured after each
 * render: 0 as designed; 1 the fill drawn as two thin bars under the bin's name (its column gone,
 * so the queues get its width); 2 also every copy's queue of a bin side by side in a box of its
 * own, without its written count (the variants with 16 copies queue a warp on up to 32 words), and
 * the lanes of a packed variant's bin, each on its own counter, in one box.
 * It folds further while the rows of the queued bins (the step's subject) are taller than the
 * frame, and starts again unfolded for another variant, bin count or frame height. A frame
 * narrower than `NARROW` starts at 1. Measured again at every step (the queues change).
 */
function useFold(room: StageRoom | undefined, key: string, step: number): [level: number, table: RefObject<HTMLTableElement | null>] {
  const table = useRef<HTMLTableElement>(null);
  // The frame's width is left out of the key: a scroll bar that comes and goes with the fold changes it.
  const roomKey = `${key}/${room?.height}/${room?.minText}`;
  const [fold, setFold] = useState({ key: '', level: 0 });
  const least = room && room.width <= NARROW ? 1 : 0;
  const level = Math.max(least, fold.key === roomKey ? fold.level : 0);
  useLayoutEffect(() => {
    const marked = table.current?.querySelectorAll('th[data-subject]');
    if (!room || !marked || marked.length === 0 || level >= 2) return;
    const top = marked[0]!.getBoundingClientRect().top;
    const bottom = marked[marked.length - 1]!.getBoundingClientRect().bottom;
    // A few px for the frame's padding.
    if (bottom - top > room.height - 8) setFold({ key: roomKey, level: level + 1 });
  }, [room, level, roomKey, step]);
  return [level, table];
}

/** A bin's fill as bars, each a share of the fullest bin shown: its private count (where there are private bins) and its global one. */
function FillBars({ private: own, global }: { private: number | undefined; global: number }) {
  return (
    <>
      {own !== undefined && <span className="histo-bar workgroup" style={{ width: `${100 * own}%` }} />}
      <span className="histo-bar global" style={{ width: `${100 * global}%` }} />
    </>
  );
}

const spaceName = (a: AtomicStep) => (a.space === 'global' ? m('ui.global') : m('ui.workgroup'));

/**
 * The histogram lab's stage, read from the trace of workgroup 0: its bins as they fill (private
 * bins in workgroup memory, and its contribution to the global histogram), and for the current
 * atomic instruction the lanes of the warp queued on each bin, which the hardware serves one after
 * another.
 */
export function HistogramStage({ trace, step, params, variant, seek }: PanelProps) {
  const titleId = useId();
  const [sectionRef, room] = useStageRoom<HTMLElement>();
  const bins = Number(params.bins);
  const dist = String(params.dist);
  const range = rangeOf(isDistribution(dist) ? dist : 'letters');
  const atomics = useMemo(() => countingAtomics(trace), [trace]);
  const summary = useMemo(() => atomicSummary(trace), [trace]);
  const mems = useMemo(() => atomicMemories(trace), [trace]);
  const copies = privateCopiesOf(variant.id, trace.invocations);
  // Copies laid out bin by bin (bin b of copy c at b × copies + c) instead of copy after copy.
  const interleaved = copiesInterleaved(variant.id);
  // Packed counters: four bins to a word, one word per invocation and four bins (no bin per word).
  const packed = isPackedVariant(variant.id);
  const current = atOrBefore(atomics, step);
  const exact = current?.step === step;
  const privateBins = useMemo(
    () =>
      mems.workgroup === undefined
        ? undefined
        : packed
          ? packedBinsAfter(trace, mems.workgroup, step, bins, trace.invocations)
          : binsAfter(trace, mems.workgroup, step, bins, copies, interleaved),
    [trace, mems, step, bins, copies, packed, interleaved],
  );
  const globalBins = useMemo(() => (mems.global === undefined ? undefined : binsAfter(trace, mems.global, step, bins)), [trace, mems, step, bins]);

  // Lanes of the current instruction per bin (and per private copy).
  // `ownWords`: lanes of a packed variant that hit one bin, each in its own counter (no queue).
  const queues = new Map<number, { copy: number; lanes: readonly number[]; ownWords?: boolean }[]>();
  if (current) {
    const inWorkgroup = current.space === 'workgroup';
    for (const q of current.queues) {
      if (inWorkgroup && packed) {
        const bin = packedBinOf(q.addr, q.values[0]!, trace.invocations);
        if (bin === undefined) continue; // a packed flush: the counter is read and cleared, nothing counted
        // Every lane has its own word: lanes on one bin are served together, not one after another.
        const list = queues.get(bin) ?? [];
        if (list[0]) list[0] = { ...list[0], lanes: [...list[0].lanes, ...q.lanes] };
        else list.push({ copy: 0, lanes: q.lanes, ownWords: true });
        queues.set(bin, list);
      } else {
        const { bin, copy } = inWorkgroup ? privateWordOf(q.addr, bins, copies, interleaved) : { bin: q.addr, copy: 0 };
        queues.set(bin, [...(queues.get(bin) ?? []), { copy, lanes: q.lanes }]);
      }
    }
  }
  const shownBins = binsToShow(bins, exact ? [...queues.keys()] : [], (b) => (privateBins?.[b] ?? 0) + (globalBins?.[b] ?? 0));
  // With no queued bin on the table (before the first atomic, after the last), the stage is about
  // the run's atomic counts: the row of the memory its atomics went to is the subject.
  const totals = !shownBins.some((b) => queues.has(b));
  const most = Math.max(1, ...shownBins.map((b) => Math.max(privateBins?.[b] ?? 0, globalBins?.[b] ?? 0)));

  const [fold, tableRef] = useFold(room, `${variant.id}/${bins}`, step);
  const narrow = fold >= 1;
  // Boxes without their written count: where a bin's lanes go to several copies, or each to its own counter.
  const boxed = fold >= 2 && (copies > 1 || packed);

  const nextOf = (from: number) => atomics.find((a) => a.step > from)?.step ?? -1;
  const prevOf = (from: number) => [...atomics].reverse().find((a) => a.step < from)?.step ?? -1;
  const firstGlobal = atomics.find((a) => a.space === 'global')?.step ?? -1;
  const longest = atomics.reduce<AtomicStep | undefined>((best, a) => (!best || a.sameAddress > best.sameAddress ? a : best), undefined);

  return (
    <section ref={sectionRef} className="panel histo-stage" aria-labelledby={titleId} data-fold={fold} data-testid="histogram-stage" data-same-address={current && exact ? current.sameAddress : ''} data-atomic-space={current && exact ? current.space : ''}>
      <div className="panel-head">
        <h2 id={titleId}>{m('ui.heading', { wg: trace.workgroups[0] ?? 0 })}</h2>
      </div>
      <p className="histo-now" aria-live="polite" data-testid="histogram-now">
        {current === undefined
          ? m('ui.noAtomic')
          : m('ui.now', { when: exact ? m('ui.nowWhen') : m('ui.lastAtomic', { step: current.step }), warp: current.warp, words: current.queues.length, space: spaceName(current), lanes: current.sameAddress })}
      </p>
      <div className="histo-jumps" role="group" aria-label={m('ui.jump')}>
        <button type="button" disabled={prevOf(step) < 0} onClick={() => seek(prevOf(step))}>{m('ui.prev')}</button>
        <button type="button" disabled={nextOf(step) < 0} onClick={() => seek(nextOf(step))} data-testid="histogram-next-atomic">{m('ui.next')}</button>
        <button type="button" disabled={!longest} onClick={() => longest && seek(longest.step)}>{m('ui.longest', { n: longest?.sameAddress ?? 0 })}</button>
        {mems.workgroup !== undefined && (
          <button type="button" disabled={firstGlobal < 0} onClick={() => seek(firstGlobal)} data-testid="histogram-merge">{m('ui.merge')}</button>
        )}
      </div>
      <ul className="histo-key" aria-label={m('ui.key')}>
        {privateBins && !packed && (
          <li><span className="histo-bar workgroup" aria-hidden="true" /> {copies > 1 ? m('ui.key.privateCopies', { copies }) : m('ui.key.private')}</li>
        )}
        {privateBins && packed && (
          <li><span className="histo-bar workgroup" aria-hidden="true" /> {m('ui.key.packed')}</li>
        )}
        <li><span className="histo-bar global" aria-hidden="true" /> {m('ui.key.global')}</li>
        <li><span className="histo-lane">7</span> {m('ui.key.lane')}</li>
        {boxed && (
          <li><span className="histo-queue boxed" aria-hidden="true"><span className="histo-lane">7</span><span className="histo-lane">23</span></span> {m(packed ? 'ui.key.ownBox' : 'ui.key.copyBox')}</li>
        )}
      </ul>
      <table ref={tableRef} className="histo-table" data-testid="histogram-bins">
        <caption className="sr-only">{m('ui.caption', { step })}</caption>
        <ColumnHeads
          labels={[
            m('ui.col.bin'),
            privateBins && m('ui.col.private'),
            m('ui.col.global'),
            !narrow && m('ui.col.fill'),
            m('ui.col.queue'),
          ]}
        />
        <tbody>
          {shownBins.map((b) => {
            const q = exact ? queues.get(b) : undefined;
            const p = privateBins?.[b] ?? 0;
            const g = globalBins?.[b] ?? 0;
            return (
              <tr key={b} className={q ? 'hit' : undefined} data-bin={b} data-queue={q ? Math.max(...q.map((x) => (x.ownWords ? 1 : x.lanes.length))) : 0}>
                <th scope="row" data-subject={queues.has(b) ? 'bin' : undefined}>
                  {b} ({binLabel(b, bins, range)})
                  {/* The same fill, drawn under the bin's name where the Fill column is left out to fit the stage. */}
                  {narrow && (
                    <span className="histo-bar-mini" aria-hidden="true">
                      <FillBars private={privateBins && p / most} global={g / most} />
                    </span>
                  )}
                </th>
                {privateBins && <td className="num">{p.toLocaleString('en')}</td>}
                <td className="num">{g.toLocaleString('en')}</td>
                {!narrow && (
                  <td className="histo-bar-cell">
                    <FillBars private={privateBins && p / most} global={g / most} />
                  </td>
                )}
                <td className={boxed ? 'histo-boxes' : undefined}>
                  {q?.map((x) => (
                    <div
                      key={x.copy}
                      className={boxed ? 'histo-queue boxed' : 'histo-queue'}
                      role="group"
                      aria-label={x.ownWords ? m('ui.ownLabel', { n: x.lanes.length, lanes: x.lanes.join(', ') }) : m('ui.queueLabel', { n: x.lanes.length, copy: copies > 1 ? m('ui.inCopy', { copy: x.copy }) : '', lanes: x.lanes.join(', ') })}
                    >
                      {!boxed && (
                        <span className="histo-queue-len">
                          {m('ui.queueLen', { n: x.lanes.length })}
                          {x.ownWords ? m('ui.ownCounter') : copies > 1 ? m('ui.copy', { copy: x.copy }) : ''}:
                        </span>
                      )}
                      {x.lanes.map((l, k) => (
                        <span key={l} className={k === 0 && !x.ownWords ? 'histo-lane first' : 'histo-lane'} aria-hidden="true">
                          {l}
                        </span>
                      ))}
                    </div>
                  ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {packed && mems.workgroup === undefined && (
        <p className="hint" data-testid="histogram-packed-note">
          {m('ui.packedNote')}
        </p>
      )}
      {bins > ALL_BINS_UP_TO && <p className="hint">{m('ui.manyBins', { bins })}</p>}
      <h3>{m('ui.numbers', { wg: trace.workgroups[0] ?? 0 })}</h3>
      <dl className="histo-summary" data-testid="histogram-summary">
        <dt>{m('ui.sum.global')}</dt>
        <dd data-testid="histogram-global-ops" data-subject={totals && summary.workgroupInstructions === 0 ? 'atomics' : undefined}>{m('ui.sum.ops', { ops: summary.globalLaneOps.toLocaleString('en'), n: summary.globalInstructions })}</dd>
        <dt>{m('ui.sum.shared')}</dt>
        <dd data-subject={totals && summary.workgroupInstructions > 0 ? 'atomics' : undefined}>{m('ui.sum.ops', { ops: summary.workgroupLaneOps.toLocaleString('en'), n: summary.workgroupInstructions })}</dd>
        <dt>{m('ui.sum.clear')}</dt>
        <dd>{m('ui.sum.stores', { n: summary.clearLaneOps.toLocaleString('en') })}</dd>
        <dt>{m('ui.sum.merge')}</dt>
        <dd>{summary.mergeLaneOps.toLocaleString('en')}</dd>
        <dt>{m('ui.sum.same')}</dt>
        <dd data-testid="histogram-serialisation">
          {summary.maxSameAddress} / {summary.meanSameAddress.toFixed(2)}
        </dd>
      </dl>
    </section>
  );
}
