import { Suspense, use, useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { isNewer, newWindowId, nextVersion, NO_VERSION, parseSyncMessage, SYNC_CHANNEL, type Version } from '../../workbench/lessonSync.ts';
import { useShortcuts } from '../shell/shortcuts.ts';
import { labRoute, type LessonRoute } from '../../workbench/url.ts';
import { loadLab, loadLabs } from '../../labs/registry.ts';
import { findLesson, LESSONS } from '../../labs/lessons.ts';
import { markSeen, readProgress } from '../../workbench/lessonProgress.ts';
import { resolveMoment, type Lesson, type MomentState } from '../../workbench/lesson.ts';
import { judgeAnswer } from '../../workbench/checkAnswer.ts';
import { useAppStore } from '../../store/index.ts';
import { ExerciseList } from '../editor/ExerciseList.tsx';
import { LabPage, type LessonFrame } from './LabPage.tsx';
import { t } from '../../i18n/messages.ts';
import { ui as uiText } from '../../i18n/ui.ts';
import { Link } from '../shell/Link.tsx';
import { PanelBoundary } from '../shell/PanelBoundary.tsx';
import { useMeasured } from '../widgets/useMeasured.ts';
import { TeacherPanel } from '../classroom/TeacherPanel.tsx';
import { lessonQuestionId, ProjectorCard, type LiveReplay } from '../classroom/ProjectorCard.tsx';

/**
 * A check question: the right answer comes from the simulator's state at this moment. A first wrong
 * number sends the learner back to the picture (`lookAt`) to try again; the answer and why come on
 * the second miss, or at once when asked for (`judgeAnswer`).
 */
function CheckQuestion({ prompt, lookAt, state, answer, explain }: { prompt: string; lookAt: string | undefined; state: MomentState | undefined; answer: (s: MomentState) => number; explain: (s: MomentState, given: number) => string }) {
  const [value, setValue] = useState('');
  const [verdict, setVerdict] = useState<{ ok: boolean; text: string } | undefined>();
  const [misses, setMisses] = useState(0);
  const [revealed, setRevealed] = useState(false);
  const inputId = useId();
  const reveal = (given: number) => {
    if (!state) return;
    setRevealed(true);
    setVerdict({ ok: false, text: `${t('lesson.answerIs', { answer: answer(state) })} ${explain(state, given)}` });
  };
  const check = () => {
    if (!state) return;
    const v = judgeAnswer(value, answer(state), misses);
    if (v.kind === 'not-a-number') setVerdict({ ok: false, text: t('lesson.typeNumber') });
    else if (v.kind === 'right') setVerdict({ ok: true, text: t('lesson.right', { answer: answer(state) }) });
    else {
      setMisses(v.misses);
      if (v.kind === 'reveal') reveal(Number(value.trim()));
      else setVerdict({ ok: false, text: lookAt ? t('lesson.retryLookAt', { what: lookAt }) : t('lesson.retry') });
    }
  };
  return (
    <form
      className="question"
      data-testid="question"
      onSubmit={(e) => {
        e.preventDefault();
        check();
      }}
    >
      <label htmlFor={inputId}>
        <strong>{t('lesson.check')}</strong> {prompt}
      </label>
      <div className="controls">
        <input id={inputId} inputMode="numeric" value={value} onChange={(e) => setValue(e.target.value)} data-testid="answer" size={6} />
        <button type="submit" disabled={!state} data-testid="check-answer">
          {state ? t('lesson.checkButton') : t('lesson.simulating')}
        </button>
      </div>
      {verdict && (
        <p className={verdict.ok ? 'verdict verdict-ok' : 'verdict verdict-bad'} role="status" data-testid="verdict" data-ok={verdict.ok ? 'yes' : 'no'}>
          <span aria-hidden="true">{verdict.ok ? '✓ ' : '✗ '}</span>
          {verdict.text}
        </p>
      )}
      {verdict && !verdict.ok && misses > 0 && !revealed && (
        <button type="button" className="link-button" data-testid="show-answer" onClick={() => reveal(Number(value.trim()))}>
          {t('lesson.showAnswer')}
        </button>
      )}
    </form>
  );
}

/**
 * One lesson step: the narrative, an optional check question, and the lab at the named moment.
 * In a live class (the student's page) the step is the teacher's: `follow` hides the step
 * controls, `onGo` keeps a student's own exploring inside their page, and `live` holds the replay
 * before the moment while the class answers and plays it to the moment on reveal.
 */
export function LessonPage({ route, follow = false, onGo, live }: { route: LessonRoute; follow?: boolean; onGo?: (n: number) => void; live?: LiveReplay | undefined }) {
  const navigate = useAppStore((s) => s.navigate);
  const embedded = useAppStore((s) => s.chrome.embed);
  const projector = useAppStore((s) => s.chrome.mode === 'projector');
  // A student's page has no way out of the lesson either, only the live bar.
  const embed = embedded || onGo !== undefined;
  const [projected, setProjected] = useState<LiveReplay | undefined>();
  const replay = live ?? projected;
  const lesson = findLesson(route.lesson);
  const count = lesson?.steps.length ?? 0;
  const number = Math.min(Math.max(1, route.step), Math.max(1, count));
  const step = lesson?.steps[number - 1];
  // The step's lab module, a chunk of its own: the page waits (Suspense) until it has loaded.
  const lab = step && use(loadLab(step.lab));
  const [state, setState] = useState<MomentState | undefined>();

  const go = useCallback(
    (n: number) => {
      if (!lesson || follow || n < 1 || n > lesson.steps.length) return;
      if (onGo) onGo(n);
      else navigate({ kind: 'lesson', lesson: lesson.id, step: n });
    },
    [lesson, navigate, follow, onGo],
  );
  useShortcuts({ nextLessonStep: () => go(number + 1), prevLessonStep: () => go(number - 1) });

  useEffect(() => {
    setState(undefined);
    if (lesson) markSeen(lesson.id, number, lesson.steps.length);
  }, [lesson, number]);

  // Presenter and audience windows stay on the same step, whichever one moves.
  const presenter = useAppStore((s) => s.chrome.presenter);
  // A student's page follows the live class, not this browser's other windows.
  useLessonSync(onGo ? undefined : lesson?.id, count, number, go);

  const frame: LessonFrame | undefined = useMemo(
    () =>
      step &&
      lab && {
        startAt: (index) => resolveMoment(index, step.moment, lab),
        onReady: (s) => setState(s),
        timings: step.timings ?? false,
        highlight: step.highlight,
        stage: step.stage,
        ...(replay ? { hold: replay.hold, reveal: replay.reveal } : {}),
      },
    [step, lab, replay?.hold, replay?.reveal], // eslint-disable-line react-hooks/exhaustive-deps
  );
  // Whether the narration's text is taller than its box (so it scrolls inside itself).
  const [narrative, narrativeScrolls] = useMeasured<HTMLParagraphElement, boolean>(scrollsItself, { deps: [step?.narrative, step?.lookAt] });

  if (!lesson || !step || !lab) {
    return (
      <section className="banner banner-warning" role="status" data-testid="lesson-missing">
        <h1>{uiText('lesson.missing', { id: route.lesson })}</h1>
        <p>
          {uiText('lesson.chooseFrom')} <Link to={{ kind: 'lessons' }}>{t('home.lessonIndex')}</Link>
          {uiText('lesson.chooseFromEnd')}
        </p>
      </section>
    );
  }
  const labAt = labRoute(step.lab, { variant: step.variant, params: step.params, ...(step.stage?.workgroup !== undefined ? { workgroup: step.stage.workgroup } : {}) });
  if (presenter && !onGo) return <PresenterView lesson={lesson} number={number} go={go} preview={<LabPage key={`${lesson.id}-${number}`} lab={lab} route={labAt} lesson={frame} />} state={state} />;
  const nextLesson = LESSONS[LESSONS.findIndex((l) => l.id === lesson.id) + 1];
  const side = (
    <div className="lesson-side" data-testid="lesson-side">
      {/* Embedded in a course page: no way out of the lesson, only its own steps. */}
      {!embed && (
        <p className="lesson-crumb" title={lesson.title}>
          <Link to={{ kind: 'lessons' }}>{t('lesson.lessons')}</Link> › {lesson.title}
        </p>
      )}
      <h1 id="lesson-title">
        <span className="lesson-counter" data-testid="lesson-counter">
          {t('lesson.step', { n: number, count })}
        </span>{' '}
        {step.title}
      </h1>
      {route.step !== number && (
        <p className="hint" role="status">
          {t('lesson.clamped', { count, n: number })}
        </p>
      )}
      {/* Where the column is too short the text scrolls inside itself; it then takes a Tab stop, so
          the keyboard can scroll it too. */}
      <p className="narrative" aria-live="polite" data-testid="narrative" ref={narrative} tabIndex={narrativeScrolls ? 0 : undefined}>
        {step.narrative}
        {step.lookAt && (
          <span className="look-at" data-part={step.highlight?.part}>
            {t('lesson.lookAt', { what: step.lookAt })}
          </span>
        )}
      </p>
      {/* The question and the way on stay in view at the foot of the column, whatever the text above. */}
      <div className="lesson-act" data-testid="lesson-act">
      {/* Following a live class, the class's question takes the place of the step's own. */}
      {step.question && !follow && (
        <PanelBoundary key={`${lesson.id}-${number}`} id="question" title={uiText('panel.question')}>
          <CheckQuestion prompt={step.question.prompt} lookAt={step.lookAt} state={state} answer={step.question.answer} explain={step.question.explain} />
        </PanelBoundary>
      )}
      {projector && !onGo && <ProjectorCard lesson={lesson.id} step={number} onReplay={setProjected} />}
      {!follow && (
      <nav className="controls lesson-nav" aria-label={uiText('lesson.stepsNav')}>
        <button type="button" onClick={() => go(number - 1)} disabled={number <= 1} aria-keyshortcuts="PageUp ArrowLeft" data-testid="lesson-prev">
          {t('lesson.prev')}
        </button>
        <button type="button" onClick={() => go(number + 1)} disabled={number >= count} aria-keyshortcuts="PageDown ArrowRight Space" data-testid="lesson-next">
          {t('lesson.next')}
        </button>
      </nav>
      )}
      {number >= count && !follow && (
        <p className="lesson-end" data-testid="lesson-end">
          {t('lesson.finished')}{' '}
          {nextLesson && !embed ? <Link to={{ kind: 'lesson', lesson: nextLesson.id, step: 1 }}>{t('lesson.nextLesson', { title: nextLesson.title })}</Link> : !embed && t('lesson.lastLesson')}
        </p>
      )}
      </div>
      <p className="hint lesson-keys">{t('lesson.keys')}</p>
    </div>
  );
  return (
    <div className="lesson" data-testid="lesson" data-lesson={lesson.id} data-step={number}>
      <LabPage key={`${lesson.id}-${number}`} lab={lab} route={labAt} lesson={frame} side={side} />
    </div>
  );
}

/** This window's id in the step-sync protocol (one per page load). */
const WINDOW_ID = newWindowId();

/**
 * Keeps every window of this lesson on the same step through a BroadcastChannel (see
 * app/lessonSync.ts): a window that opens asks where the others are and follows them; after that,
 * each step this window takes is announced with a new version, and a step another window announces
 * is followed only if its version is newer than the one shown here. Following is never announced
 * back, so windows cannot echo each other. A burst of announcements is followed once, with the
 * newest. The channel lives exactly as long as the effect that opened it.
 */
/** How long announcements must pause before this window follows the newest (ms). */
const FOLLOW_QUIET_MS = 80;

function useLessonSync(lessonId: string | undefined, count: number, number: number, go: (n: number) => void): void {
  const sync = useRef<{ channel: BroadcastChannel | undefined; version: Version; step: number; shown: number }>({
    channel: undefined,
    version: NO_VERSION,
    step: number,
    shown: number,
  });
  const goRef = useRef(go);
  useEffect(() => {
    goRef.current = go;
    sync.current.shown = number;
  });

  useEffect(() => {
    if (!lessonId || typeof BroadcastChannel === 'undefined') return;
    const s = sync.current;
    const channel = new BroadcastChannel(SYNC_CHANNEL);
    s.channel = channel;
    s.version = NO_VERSION;
    s.step = s.shown;
    let pending: number | undefined;
    const follow = () => {
      pending = undefined;
      if (s.step !== s.shown) goRef.current(s.step);
    };
    channel.onmessage = (e: MessageEvent<unknown>) => {
      const msg = parseSyncMessage(e.data, lessonId, count);
      if (!msg || msg.from === WINDOW_ID) return;
      if (msg.kind === 'hello') {
        channel.postMessage({ kind: 'at', lesson: lessonId, step: s.step, clock: Math.max(s.version.clock, 0), from: s.version.from || WINDOW_ID });
        return;
      }
      if (!isNewer(msg, s.version)) return;
      s.version = { clock: msg.clock, from: msg.from };
      s.step = msg.step;
      // Many announcements in a row (a held key, a hostile page) make one navigation: it waits
      // until they pause. A zero timeout could fire between two messages of one burst (they
      // arrive as separate tasks) and show, and record as seen, a step in the middle of it.
      if (pending !== undefined) window.clearTimeout(pending);
      pending = window.setTimeout(follow, FOLLOW_QUIET_MS);
    };
    channel.postMessage({ kind: 'hello', lesson: lessonId, from: WINDOW_ID });
    return () => {
      if (pending !== undefined) window.clearTimeout(pending);
      channel.onmessage = null;
      channel.close();
      if (s.channel === channel) s.channel = undefined;
    };
  }, [lessonId, count]);

  // A step shown here that is not the newest version's step was taken here (keys, buttons, back
  // and forward): it becomes the newest version and is announced.
  useEffect(() => {
    const s = sync.current;
    if (!lessonId || !s.channel || number === s.step) return;
    s.version = nextVersion(s.version, WINDOW_ID);
    s.step = number;
    s.channel.postMessage({ kind: 'at', lesson: lessonId, step: number, clock: s.version.clock, from: WINDOW_ID });
  }, [lessonId, number]);
}

/**
 * The presenter's window: this step's notes, the answer to its question (computed from the same
 * simulation), what comes next, the clicker controls, and a live preview of what the room sees:
 * the same lab at the same moment, drawn small.
 */
function PresenterView({ lesson, number, go, preview, state }: { lesson: Lesson; number: number; go: (n: number) => void; preview: ReactNode; state: MomentState | undefined }) {
  const step = lesson.steps[number - 1]!;
  const next = lesson.steps[number];
  return (
    <div className="lesson presenter" data-testid="presenter" data-lesson={lesson.id} data-step={number}>
      <section className="panel presenter-notes" aria-labelledby="presenter-title">
        <p className="lesson-crumb">{t('presenter.notes', { title: lesson.title })}</p>
        <h1 id="presenter-title">
          <span className="lesson-counter" data-testid="lesson-counter">
            {t('lesson.step', { n: number, count: lesson.steps.length })}
          </span>{' '}
          {step.title}
        </h1>
        <p className="narrative" aria-live="polite">
          {step.narrative}
        </p>
        {step.lookAt && <p>{t('presenter.pointAt', { what: step.lookAt })}</p>}
        {step.question && (
          <>
            <p>{t('presenter.ask', { prompt: step.question.prompt })}</p>
            <p className="presenter-answer" data-testid="presenter-answer">
              {state ? t('presenter.answer', { answer: step.question.answer(state) }) : t('presenter.answerPending')}
            </p>
          </>
        )}
        <nav className="controls lesson-nav" aria-label={uiText('lesson.stepsNav')}>
          <button type="button" onClick={() => go(number - 1)} disabled={number <= 1} data-testid="lesson-prev">
            {t('lesson.prev')}
          </button>
          <button type="button" onClick={() => go(number + 1)} disabled={!next} data-testid="lesson-next">
            {t('lesson.next')}
          </button>
        </nav>
        <TeacherPanel lesson={lesson.id} step={number} question={step.question ? { id: lessonQuestionId(lesson.id, number), prompt: step.question.prompt, answer: state ? step.question.answer(state) : undefined } : undefined} />
        <section aria-labelledby="up-next" data-testid="up-next">
          <h2 id="up-next">{t('presenter.upNext')}</h2>
          {next ? (
            <>
              <p>
                <strong>{next.title}</strong>
              </p>
              <p className="hint">{next.narrative}</p>
            </>
          ) : (
            <p>{t('presenter.last')}</p>
          )}
        </section>
      </section>
      <section className="panel presenter-preview" aria-label={t('presenter.audience')} data-testid="presenter-preview">
        <h2>{t('presenter.audience')}</h2>
        <RoomPreview>{preview}</RoomPreview>
      </section>
    </div>
  );
}

/** The projector's wall as the room sees it: 1920×1080 CSS pixels in projector mode. */
const WALL = { width: 1920, height: 1080 };

/**
 * What the room sees, drawn as the room sees it: the lab laid out at the projector's 1920×1080 in
 * projector mode (its large type, its framing, its stage), scaled down as one picture to the
 * preview's width, so the presenter sees the subject where the wall shows it.
 */
function RoomPreview({ children }: { children: ReactNode }) {
  const [ref, measured] = useMeasured<HTMLDivElement, number>((frame) => frame.clientWidth / WALL.width);
  const scale = measured ?? 0;
  return (
    <div ref={ref} className="preview-frame" inert data-testid="presenter-wall">
      <div className="preview-scale mode-projector" style={{ width: WALL.width, height: WALL.height, transform: `scale(${scale})`, visibility: scale > 0 ? 'visible' : 'hidden' }}>
        {children}
      </div>
    </div>
  );
}

function AllExercises() {
  return <ExerciseList labs={use(loadLabs())} headingLevel={2} />;
}

/** Every lesson with the progress kept in this browser. */
export function LessonIndex() {
  const progress = readProgress();
  return (
    <section className="panel" aria-labelledby="lessons-title" data-testid="lesson-index">
      <h1 id="lessons-title">{t('lesson.lessons')}</h1>
      <p>{uiText('lessons.intro')}</p>
      <ol className="lesson-list">
        {LESSONS.map((l: Lesson) => {
          const seen = progress[l.id]?.seen.length ?? 0;
          const last = progress[l.id]?.last;
          return (
            <li key={l.id} data-testid={`lesson-${l.id}`}>
              <h2>
                <Link to={{ kind: 'lesson', lesson: l.id, step: last ?? 1 }}>{l.title}</Link>
              </h2>
              <p>{l.summary}</p>
              <p className="hint" data-testid="lesson-progress">
                {seen === 0
                  ? uiText('lessons.notStarted', { count: l.steps.length })
                  : seen === l.steps.length
                    ? uiText('lessons.allSeen', { seen, count: l.steps.length })
                    : uiText('lessons.continue', { seen, count: l.steps.length, step: last ?? 1 })}
              </p>
            </li>
          );
        })}
      </ol>
      {/* Every lab's exercises: they come with the labs' modules, so the lessons show first. */}
      <Suspense fallback={null}>
        <AllExercises />
      </Suspense>
    </section>
  );
}

const scrollsItself = (el: HTMLElement) => el.scrollHeight > el.clientHeight + 1;
