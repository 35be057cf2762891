import { useEffect, useId, useState } from 'react';
import type { Identity } from '../../classroom/client.ts';
import type { QuestionSpec } from '../../classroom/protocol.ts';
import { QrCode } from '../export/QrCode.tsx';
import { m } from './messages.ts';
import { Histogram, optionLabel, QuestionHead } from './Results.tsx';
import { joinUrl, readStored, STORAGE, useClassroom, useClassroomAvailable, writeStored } from './useClassroom.ts';
import { RefusalNotice, StatusLine } from './widgets.tsx';

/** The lesson question this step offers, with its answer computed from the simulation (if ready). */
export interface StepQuestion {
  readonly id: string;
  readonly prompt: string;
  /** Undefined until the simulation has reached the step's moment. */
  readonly answer: number | undefined;
}

interface TeacherKey {
  readonly room: string;
  readonly token: string;
}

/**
 * The presenter's live-class panel: start a room, show its code and QR code, keep the room on the
 * presenter's step, ask the step's own question or one typed on the spot, watch the answers come
 * in, lock, reveal, and vote again. Hidden when no classroom server serves the page.
 */
export function TeacherPanel({ lesson, step, question }: { lesson: string; step: number; question: StepQuestion | undefined }) {
  const available = useClassroomAvailable();
  const [identity, setIdentity] = useState<Identity | undefined>(() => {
    const kept = readStored<TeacherKey>(STORAGE.teacher(lesson));
    return kept ? { role: 'teacher', room: kept.room, token: kept.token } : undefined;
  });
  const live = useClassroom(available ? identity : undefined, {
    onCreated: (room, token) => {
      writeStored(STORAGE.teacher(lesson), { room, token } satisfies TeacherKey);
      writeStored(STORAGE.current, { room, lesson });
    },
  });
  const { state, client, status, refused } = live;
  const titleId = useId();

  // The room follows the presenter's step (also after a reconnection, when the room may lag).
  useEffect(() => {
    if (client && status === 'open' && state && !state.closed && (state.step !== step || state.lesson !== lesson)) {
      client.teacher({ type: 'step', lesson, step });
    }
  }, [client, status, state, step, lesson]);

  // A key for a room the server no longer has (expired, or a new server): forget it.
  useEffect(() => {
    if (refused?.reason === 'no-such-room' || refused?.reason === 'bad-token' || state?.closed) {
      writeStored(STORAGE.teacher(lesson), undefined);
      writeStored(STORAGE.current, undefined);
    }
  }, [refused, state?.closed, lesson]);

  if (!available) return null;
  const q = state?.question;
  return (
    <section className="panel live-teacher" aria-labelledby={titleId} data-testid="live-teacher">
      <h2 id={titleId}>{m('teacher.title')}</h2>
      {!identity || state?.closed ? (
        <>
          {state?.closed && <p role="status">{m('teacher.closed')}</p>}
          <p className="hint">{m('teacher.intro')}</p>
          <button type="button" data-testid="live-start" onClick={() => setIdentity({ role: 'new-room', lesson, step })}>
            {m('teacher.start')}
          </button>
        </>
      ) : !state ? (
        <>
          <StatusLine status={status} />
          <RefusalNotice refused={refused} />
          <p role="status">{m('teacher.starting')}</p>
        </>
      ) : (
        <>
          <StatusLine status={status} />
          <RefusalNotice refused={refused} />
          <div className="live-join">
            <div>
              <p>
                {m('teacher.code')}{' '}
                <strong className="live-code" data-testid="live-code" translate="no">
                  {state.room}
                </strong>
              </p>
              <p data-testid="live-join-url">{m('teacher.joinAt', { url: joinUrl() })}</p>
              <p data-testid="live-students" data-count={state.students}>
                {m('teacher.students', { count: state.students, connected: state.connected })}
              </p>
              <a href={`${location.pathname}?mode=projector`} target="_blank" rel="noopener" data-testid="live-projector-link">
                {m('teacher.openProjector')}
              </a>
            </div>
            <QrCode text={joinUrl(state.room)} label={m('teacher.qr', { url: joinUrl(state.room) })} size={140} />
          </div>
          {q && (
            <div className="live-current" data-testid="live-current">
              <QuestionHead q={q} total={state.students} level={3} />
              <Histogram q={q} />
              <div className="controls">
                <button type="button" data-testid="live-lock" disabled={q.phase !== 'open'} onClick={() => client?.teacher({ type: 'lock' })}>
                  {m('teacher.lock')}
                </button>
                <button type="button" data-testid="live-reveal" disabled={q.phase === 'revealed'} onClick={() => client?.teacher({ type: 'reveal' })}>
                  {m('teacher.reveal')}
                </button>
                <button type="button" data-testid="live-reset" disabled={q.phase === 'open'} onClick={() => client?.teacher({ type: 'reset' })}>
                  {m('teacher.reset')}
                </button>
              </div>
            </div>
          )}
          <div className="controls">
            {question ? (
              <button
                type="button"
                data-testid="live-ask-lesson"
                disabled={question.answer === undefined}
                onClick={() =>
                  client?.teacher({
                    type: 'open',
                    question: { kind: 'number', prompt: question.prompt, lessonQuestion: question.id, ...(question.answer !== undefined ? { answer: question.answer } : {}) },
                  })
                }
              >
                {m('teacher.askLesson')}
              </button>
            ) : (
              <p className="hint">{m('teacher.askLessonNone')}</p>
            )}
          </div>
          <QuickQuestion onAsk={(spec) => client?.teacher({ type: 'open', question: spec })} />
          <button type="button" className="live-end" data-testid="live-close" onClick={() => client?.teacher({ type: 'close' })}>
            {m('teacher.close')}
          </button>
        </>
      )}
    </section>
  );
}

/** A question typed on the spot: a number, or a choice among 2–6 options, with an optional answer. */
function QuickQuestion({ onAsk }: { onAsk: (spec: QuestionSpec) => void }) {
  const [prompt, setPrompt] = useState('');
  const [kind, setKind] = useState<'number' | 'choice'>('number');
  const [options, setOptions] = useState('');
  const [correct, setCorrect] = useState('');
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  const lines = options
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const submit = () => {
    if (prompt.trim() === '') return setError(m('teacher.badPrompt'));
    if (kind === 'choice') {
      if (lines.length < 2 || lines.length > 6) return setError(m('teacher.badOptions'));
      const answer = correct === '' ? undefined : Number(correct);
      setError(undefined);
      onAsk({ kind: 'choice', prompt: prompt.trim(), options: lines.map((l) => l.slice(0, 80)), ...(answer !== undefined && answer < lines.length ? { answer } : {}) });
      return;
    }
    const answer = correct.trim() === '' ? undefined : Number(correct.trim());
    if (answer !== undefined && !Number.isFinite(answer)) return setError(m('teacher.badNumber'));
    setError(undefined);
    onAsk({ kind: 'number', prompt: prompt.trim(), ...(answer !== undefined ? { answer } : {}) });
  };
  return (
    <form
      className="live-quick"
      data-testid="live-quick"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <fieldset>
        <legend>{m('teacher.quick')}</legend>
        <label htmlFor={`${id}-p`}>{m('teacher.quickPrompt')}</label>
        <input id={`${id}-p`} value={prompt} maxLength={300} onChange={(e) => setPrompt(e.target.value)} data-testid="live-quick-prompt" />
        <label htmlFor={`${id}-k`}>{m('teacher.quickKind')}</label>
        <select
          id={`${id}-k`}
          value={kind}
          onChange={(e) => {
            setKind(e.target.value === 'choice' ? 'choice' : 'number');
            setCorrect('');
          }}
          data-testid="live-quick-kind"
        >
          <option value="number">{m('teacher.kind.number')}</option>
          <option value="choice">{m('teacher.kind.choice')}</option>
        </select>
        {kind === 'choice' && (
          <>
            <label htmlFor={`${id}-o`}>{m('teacher.options')}</label>
            <textarea id={`${id}-o`} rows={4} value={options} onChange={(e) => setOptions(e.target.value)} data-testid="live-quick-options" />
          </>
        )}
        <label htmlFor={`${id}-c`}>{kind === 'choice' ? m('teacher.correctChoice') : m('teacher.correctNumber')}</label>
        {kind === 'choice' ? (
          <select id={`${id}-c`} value={correct} onChange={(e) => setCorrect(e.target.value)} data-testid="live-quick-correct">
            <option value="">{m('teacher.correctNone')}</option>
            {lines.slice(0, 6).map((l, i) => (
              <option key={i} value={String(i)}>
                {optionLabel(i, l)}
              </option>
            ))}
          </select>
        ) : (
          <input id={`${id}-c`} inputMode="decimal" value={correct} onChange={(e) => setCorrect(e.target.value)} data-testid="live-quick-correct" size={8} />
        )}
        {error && (
          <p className="verdict verdict-bad" role="alert">
            {error}
          </p>
        )}
        <button type="submit" data-testid="live-quick-ask">
          {m('teacher.open')}
        </button>
      </fieldset>
    </form>
  );
}
