import { useId } from 'react';
import type { Trace } from '../../../sim/index.ts';
import type { Subject } from '../../../trace/subject.ts';
import { lookBackAt, lookBackOf, type LookBack, type SlotEvent } from '../lookBack.ts';
import { m } from '../messages.ts';

const fmt = (v: number | undefined) => (v === undefined ? '—' : Number.isInteger(v) ? v.toLocaleString('en') : String(v));

/** What the card of a predecessor says: the last read of its slot so far. */
function readLine(reads: readonly SlotEvent[]): { text: string; ready: boolean } | undefined {
  const last = reads.at(-1);
  if (!last) return undefined;
  if (last.ready) return { text: m(last.part === 'inclusive' ? 'ui.look.readInclusive' : 'ui.look.readAggregate', { value: fmt(last.value) }), ready: true };
  return { text: m('ui.look.notReady', { reads: reads.length }), ready: false };
}

/**
 * The single pass's look-back for the traced tile, from the trace: the tiles before it as cards,
 * each with what the tile read in its slot (a value found, or "not ready" spin after spin), and the
 * tile's own card with what it has published so far. The card the current step touched is the
 * subject (`look-back`) where the step names that part, or names none while the look-back is going
 * on (at one of its events, or between two); once it is over (the tile writes its scanned words
 * out, a row of the scan network) the step is about the rest of the stage. The buttons move the
 * timeline to each publication and read.
 */
export function LookBackPanel({ trace, step, seek, subject, n }: { trace: Trace; step: number; seek: (step: number) => void; subject?: Subject | undefined; n: number }) {
  const titleId = useId();
  const look = lookBackOf(trace);
  if (!look) return null;
  return <LookBackView look={look} n={n} step={step} seek={seek} titleId={titleId} named={subject?.part === 'look-back'} unnamed={subject?.part === undefined} />;
}

function LookBackView({ look, n, step, seek, titleId, named, unnamed }: { look: LookBack; n: number; step: number; seek: (step: number) => void; titleId: string; named: boolean; unnamed: boolean }) {
  const seen = lookBackAt(look, step);
  const latest = seen.at(-1);
  const going = latest !== undefined && (latest.step === step || seen.length < look.events.length);
  const marked = named || (unnamed && going);
  // Predecessors shown: the nearest ones, back to the farthest the tile has read (at least one).
  const first = Math.max(0, Math.min(look.tile - 1, ...look.events.filter((e) => e.kind === 'read').map((e) => e.tile)));
  const predecessors = Array.from({ length: look.tile - first }, (_, i) => first + i);
  const own = (part: 'aggregate' | 'inclusive') => seen.find((e) => e.kind === 'publish' && e.part === part);
  const aggregate = own('aggregate');
  const inclusive = own('inclusive');
  const jumps = look.events.filter((e, i, all) => e.kind === 'publish' || (e.ready && all.findIndex((o) => o.kind === 'read' && o.ready) === i));
  const later = look.tiles - 1 - look.tile;
  return (
    <section className="panel scan-look-back" aria-labelledby={titleId} data-testid="look-back" data-tile={look.tile}>
      <h2 id={titleId}>{m('ui.look.heading', { tile: look.tile, last: look.tiles - 1 })}</h2>
      <p className="scan-phase" aria-live="polite" data-testid="look-back-now">
        {latest ? sayEvent(latest, look.tile) : m('ui.look.before', { tile: look.tile })}
      </p>
      {jumps.length > 0 && (
        <div className="button-group scan-jumps" role="group" aria-label={m('ui.look.jump')}>
          {jumps.map((e) => {
            const current = latest === e;
            return (
              <button key={e.step} type="button" aria-current={current ? 'step' : undefined} className={current ? 'current' : undefined} onClick={() => seek(e.step)}>
                {current ? '● ' : ''}
                {e.kind === 'read' ? m('ui.look.jumpRead', { tile: e.tile }) : m(e.part === 'aggregate' ? 'ui.look.jumpAggregate' : 'ui.look.jumpInclusive')}
              </button>
            );
          })}
        </div>
      )}
      {look.tiles === 1 ? <p className="hint">{m('ui.look.oneTile', { n })}</p> : look.tile === 0 ? <p className="hint">{m('ui.look.first')}</p> : null}
      <ol className="look-tiles" aria-label={m('ui.look.tiles')}>
        {first > 0 && <li className="look-more">{m('ui.look.earlier', { last: first - 1 })}</li>}
        {predecessors.map((t) => {
          const reads = seen.filter((e) => e.kind === 'read' && e.tile === t);
          const line = readLine(reads);
          const current = latest?.kind === 'read' && latest.tile === t;
          return (
            <li key={t} className={`look-tile${current ? ' current' : ''}`} data-testid={`look-tile-${t}`} data-subject={marked && current ? 'look-back' : undefined}>
              <span className="look-name">{m('ui.look.tile', { tile: t })}</span>
              <span className={line?.ready ? 'look-ready' : line ? 'look-wait' : 'look-unread'}>
                {line ? `${line.ready ? '✓' : '…'} ${line.text}` : m('ui.look.unread')}
              </span>
            </li>
          );
        })}
        <li className={`look-tile own${latest?.kind === 'publish' ? ' current' : ''}`} data-testid={`look-tile-${look.tile}`} data-subject={marked && latest?.kind === 'publish' ? 'look-back' : undefined}>
          <span className="look-name">{m('ui.look.ownTile', { tile: look.tile })}</span>
          <span className={aggregate ? 'look-ready' : 'look-unread'}>{look.tile === 0 ? m('ui.look.noAggregate') : aggregate ? `✓ ${m('ui.look.ownAggregate', { value: fmt(aggregate.value) })}` : m('ui.look.notYet')}</span>
          <span className={inclusive ? 'look-ready' : 'look-unread'}>{inclusive ? `✓ ${m('ui.look.ownInclusive', { value: fmt(inclusive.value) })}` : m('ui.look.inclusiveNotYet')}</span>
        </li>
        {later > 0 && <li className="look-more">{m('ui.look.later', { first: look.tile + 1, last: look.tiles - 1 })}</li>}
      </ol>
    </section>
  );
}

function sayEvent(e: SlotEvent, tile: number): string {
  if (e.kind === 'publish') return m(e.part === 'aggregate' ? 'ui.look.sayAggregate' : 'ui.look.sayInclusive', { tile, value: fmt(e.value) });
  if (!e.ready) return m('ui.look.sayNotReady', { tile, pred: e.tile });
  return m(e.part === 'inclusive' ? 'ui.look.sayReadInclusive' : 'ui.look.sayReadAggregate', { tile, pred: e.tile, value: fmt(e.value) });
}
