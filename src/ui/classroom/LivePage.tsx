import { useEffect, useId, useState } from 'react';
import type { AnswerValue, QuestionView, RoomView } from '../../classroom/protocol.ts';
import { ROOM_ALPHABET, ROOM_CODE_LENGTH } from '../../classroom/protocol.ts';
import type { Identity } from '../../classroom/client.ts';
import { useAppStore } from '../../store/index.ts';
import { LessonPage } from '../pages/LessonPage.tsx';
import { m } from './messages.ts';
import { replayFor, useRevealCount } from './ProjectorCard.tsx';
import { Histogram, optionLabel, QuestionHead, valueLabel } from './Results.tsx';
import { readStored, STORAGE, useClassroom, useClassroomAvailable, writeStored } from './useClassroom.ts';
import { RefusalNotice, StatusLine } from './widgets.tsx';

/** A typed room code, tidied: upper case, without spaces or dashes; undefined if it cannot be one. */
export function normaliseCode(text: string): string | undefined {
  const code = text.toUpperCase().replace(/[\s-]/g, '');
  return code.length === ROOM_CODE_LENGTH && [...code].every((c) => ROOM_ALPHABET.includes(c)) ? code : undefined;
}

/** `/live` and `/live/CODE`: a student joins a room, follows the teacher's step and answers. */
export function LivePage({ room }: { room: string | undefined }) {
  const available = useClassroomAvailable();
  const navigate = useAppStore((s) => s.navigate);
  const [joining, setJoining] = useState<{ room: string; name: string } | undefined>(() => {
    // Back in a room this browser joined before (a reload, a dropped network): straight in.
    const kept = room ? readStored<{ token: string; name: string }>(STORAGE.student(room)) : undefined;
    return room && kept ? { room, name: kept.name } : undefined;
  });
  if (available === false) {
    return (
      <section className="panel live-student" data-testid="live-unavailable">
        <h1>{m('student.title')}</h1>
        <p>{m('student.noServer')}</p>
      </section>
    );
  }
  if (!joining) {
    return (
      <JoinForm
        room={room}
        onJoin={(code, name) => {
          if (code !== room) navigate({ kind: 'live', room: code });
          setJoining({ room: code, name });
        }}
      />
    );
  }
  return <Following room={joining.room} name={joining.name} onLeave={() => setJoining(undefined)} />;
}

function JoinForm({ room, onJoin }: { room: string | undefined; onJoin: (room: string, name: string) => void }) {
  const [code, setCode] = useState(room ?? '');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  return (
    <section className="panel live-student live-join-form" aria-labelledby={`${id}-t`} data-testid="live-join-form">
      <h1 id={`${id}-t`}>{m('student.title')}</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const c = normaliseCode(code);
          if (!c) return setError(m('student.badCode'));
          setError(undefined);
          onJoin(c, name.trim());
        }}
      >
        <label htmlFor={`${id}-c`}>{m('student.code')}</label>
        <input
          id={`${id}-c`}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-h`}
          data-testid="live-code-input"
          translate="no"
        />
        <p id={`${id}-h`} className="hint">
          {m('student.codeHint')}
        </p>
        <label htmlFor={`${id}-n`}>{m('student.name')}</label>
        <input id={`${id}-n`} value={name} maxLength={40} onChange={(e) => setName(e.target.value)} autoComplete="nickname" data-testid="live-name" />
        {error && (
          <p className="verdict verdict-bad" role="alert" data-testid="live-join-error">
            {error}
          </p>
        )}
        <button type="submit" data-testid="live-join">
          {m('student.join')}
        </button>
      </form>
    </section>
  );
}

function Following({ room, name, onLeave }: { room: string; name: string; onLeave: () => void }) {
  const [identity] = useState<Identity>(() => {
    const kept = readStored<{ token: string; name: string }>(STORAGE.student(room));
    return { role: 'student', room, ...(kept ? { student: kept.token } : {}), ...(name ? { name } : {}) };
  });
  const { state, status, refused, acked, client } = useClassroom(identity, {
    onStudent: (token) => writeStored(STORAGE.student(room), { token, name }),
  });
  const [exploring, setExploring] = useState<number | undefined>();
  const reveals = useRevealCount(state);
  if (!state) {
    return (
      <section className="panel live-student" data-testid="live-waiting">
        <h1>{m('student.title')}</h1>
        <StatusLine status={status} />
        <RefusalNotice refused={refused} />
        {refused?.reason === 'no-such-room' || refused?.reason === 'room-closed' || refused?.reason === 'rate-limited' ? (
          <button type="button" onClick={onLeave}>
            {m('student.leave')}
          </button>
        ) : (
          <p>{m('student.joining')}</p>
        )}
      </section>
    );
  }
  if (state.closed) {
    return (
      <section className="panel live-student" data-testid="live-closed">
        <p role="status">{m('student.closed')}</p>
      </section>
    );
  }
  const following = exploring === undefined;
  const shownStep = exploring ?? state.step;
  return (
    <div className="live-student-page" data-testid="live-student" data-step={state.step} data-following={following ? 'yes' : 'no'}>
      <div className="live-bar-top panel">
        <StatusLine status={status} />
        <p className="live-where" data-testid="live-where">
          {following ? m('student.following', { step: state.step }) : m('student.exploring', { step: state.step })}
        </p>
        {following ? (
          <button type="button" data-testid="live-break-away" onClick={() => setExploring(state.step)}>
            {m('student.breakAway')}
          </button>
        ) : (
          <button type="button" data-testid="live-back" onClick={() => setExploring(undefined)}>
            {m('student.back')}
          </button>
        )}
      </div>
      <RefusalNotice refused={refused} />
      {state.question && <StudentQuestion key={`${state.question.id}:${state.question.round}`} q={state.question} state={state} acked={acked} answer={(v) => client?.answer(state.question!.id, state.question!.round, v)} />}
      <LessonPage
        route={{ kind: 'lesson', lesson: state.lesson, step: shownStep }}
        follow={following}
        onGo={(n) => setExploring(n)}
        live={following ? replayFor(state, state.lesson, state.step, reveals) : undefined}
      />
    </div>
  );
}

function StudentQuestion({ q, state, acked, answer }: { q: QuestionView; state: RoomView; acked: { question: number; round: number; value: AnswerValue } | undefined; answer: (v: AnswerValue) => void }) {
  const mine = state.mine ?? (acked && acked.question === q.id && acked.round === q.round ? acked.value : undefined);
  const [text, setText] = useState(mine?.kind === 'number' ? String(mine.value) : '');
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  useEffect(() => setError(undefined), [q.phase]);
  const shown = mine ? valueLabel(q, mine.kind === 'choice' ? mine.index : mine.value) : undefined;
  return (
    <section className="panel live-question" aria-labelledby={`${id}-q`} data-testid="live-question" data-phase={q.phase}>
      <div id={`${id}-q`}>
        <QuestionHead q={q} level={2} />
      </div>
      {q.phase === 'open' &&
        (q.kind === 'choice' ? (
          <div className="live-choices" role="group" aria-labelledby={`${id}-q`}>
            {(q.options ?? []).map((o, i) => (
              <button
                key={i}
                type="button"
                className="live-choice"
                aria-pressed={mine?.kind === 'choice' && mine.index === i}
                data-testid={`live-choice-${i}`}
                onClick={() => answer({ kind: 'choice', index: i })}
              >
                {mine?.kind === 'choice' && mine.index === i && <span aria-hidden="true">✓ </span>}
                {optionLabel(i, o)}
              </button>
            ))}
          </div>
        ) : (
          <form
            className="controls"
            onSubmit={(e) => {
              e.preventDefault();
              const v = Number(text.trim());
              if (text.trim() === '' || !Number.isFinite(v)) return setError(m('student.typeNumber'));
              setError(undefined);
              answer({ kind: 'number', value: v });
            }}
          >
            <label htmlFor={`${id}-a`}>{m('student.answerNumber')}</label>
            <input id={`${id}-a`} inputMode="decimal" value={text} onChange={(e) => setText(e.target.value)} size={8} data-testid="live-answer" />
            <button type="submit" data-testid="live-send">
              {mine ? m('student.change') : m('student.send')}
            </button>
          </form>
        ))}
      {error && (
        <p className="verdict verdict-bad" role="alert">
          {error}
        </p>
      )}
      <p role="status" data-testid="live-received" data-answered={mine ? 'yes' : 'no'}>
        {mine
          ? q.phase === 'open'
            ? m('student.received', { answer: shown ?? '' })
            : m('student.receivedLocked', { answer: shown ?? '' })
          : q.phase === 'open'
            ? ''
            : m('student.notAnswered')}
      </p>
      {q.phase === 'revealed' && <Histogram q={q} />}
    </section>
  );
}
