import { useEffect, useState } from 'react';
import type { RoomView } from '../../classroom/protocol.ts';
import { QrCode } from '../export/QrCode.tsx';
import { m } from './messages.ts';
import { Histogram, QuestionHead } from './Results.tsx';
import { joinUrl, readStored, STORAGE, useClassroom } from './useClassroom.ts';

/** How a live question steers the replay: hold before the moment while the class predicts, play to it on reveal. */
export interface LiveReplay {
  /** A question about this step is open or locked: show the replay before the moment. */
  readonly hold: boolean;
  /** Counts reveals of this step's question: each new value plays the replay to the moment. */
  readonly reveal: number;
}

/** The live replay a room's state asks of the step `lesson`/`step` (its own question only). */
export function replayFor(state: RoomView | undefined, lesson: string, step: number, revealCount: number): LiveReplay {
  const q = state?.question;
  const mine = q?.lessonQuestion === lessonQuestionId(lesson, step) && state?.lesson === lesson && state.step === step;
  return { hold: mine === true && q?.phase !== 'revealed', reveal: mine ? revealCount : 0 };
}

/** The id a lesson step's check question has in the live class. */
export function lessonQuestionId(lesson: string, step: number): string {
  return `${lesson}-${step}`;
}

/** Counts the reveals of question rounds, so each reveal can be replayed once. */
export function useRevealCount(state: RoomView | undefined): number {
  const [count, setCount] = useState(0);
  const q = state?.question;
  const key = q?.phase === 'revealed' ? `${q.id}:${q.round}` : '';
  useEffect(() => {
    if (key) setCount((c) => c + 1);
  }, [key]);
  return count;
}

/**
 * The projector's live card, on the audience window of the machine that runs the class: how to
 * join while no question is open; the question and the live count while it is; the distribution
 * beside the answer once revealed. Never who answered what.
 */
export function ProjectorCard({ lesson, onReplay, step }: { lesson: string; step: number; onReplay: (r: LiveReplay) => void }) {
  const [current, setCurrent] = useState(() => readStored<{ room: string; lesson: string }>(STORAGE.current));
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === STORAGE.current) setCurrent(readStored(STORAGE.current));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  const room = current && current.lesson === lesson ? current.room : undefined;
  const { state } = useClassroom(room ? { role: 'projector', room } : undefined);
  const reveals = useRevealCount(state);
  const replay = replayFor(state, lesson, step, reveals);
  useEffect(() => onReplay(replay), [replay.hold, replay.reveal]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!room || !state || state.closed) return null;
  const q = state.question;
  return (
    <aside className="live-projector" aria-label={m('projector.label')} data-testid="live-projector">
      {q ? (
        <>
          <QuestionHead q={q} />
          {q.phase === 'revealed' && <Histogram q={q} />}
        </>
      ) : (
        <div className="live-projector-join">
          <p data-testid="live-projector-join">{m('projector.join', { url: joinUrl(), code: state.room })}</p>
          <QrCode text={joinUrl(state.room)} label={m('teacher.qr', { url: joinUrl(state.room) })} size={180} />
        </div>
      )}
    </aside>
  );
}
