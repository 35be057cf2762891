/**
 * The lab's code pane: the kernel in an editor (loaded only on lab pages, a split chunk), the CUDA
 * rendering as a read-only tab, a diff against the original, and the toolbar: run the edit on both
 * executors (Ctrl/Cmd+Enter), reset to the original, copy a share link. Results and findings
 * appear under it and as annotations in the editor.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { pageGpu, recoverGpu } from '../../workbench/gpu.ts';
import { shareLink } from '../../workbench/shareLink.ts';
import {
  compilerDiagnostics,
  simulatorDiagnostics,
  tokenEnd,
  type EditorDiagnostic,
} from '../../workbench/editorLint.ts';
import { editorLint } from '../../workbench/editorLintWorker.ts';
import { checkDraft, lastGlobalWrite, type DraftCheck, type ExecOutcome } from '../../workbench/editorRun.ts';
import { INPUT_SEED, type LabSession } from '../../workbench/session.ts';
import { client } from '../../workbench/simulation.ts';
import { lineDiff } from '../../workbench/lineDiff.ts';
import type { KernelRun } from '../../kernel/types.ts';
import { traceStep, type Trace } from '../../sim/index.ts';
import { selectGpuStatus, useAppStore } from '../../store/index.ts';
import { KernelEditor, type KernelEditorHandle } from './KernelEditor.tsx';
import { DebugPanel } from './DebugPanel.tsx';
import { makeBreakpoint, type Breakpoint } from '../../workbench/debugger.ts';
import {
  activeExercise,
  findExercise,
  markSolved,
  readExerciseFragment,
  setActiveExercise,
} from '../../workbench/exercises.ts';
import { checkExercise, type ExerciseVerdict } from '../../workbench/exerciseCheck.ts';
import type { Exercise } from '../../workbench/exercise.ts';
import type { AnyLab } from '../../workbench/lab.ts';
import { EDITOR_TEXT as T, EXERCISE_TEXT as X } from './strings.ts';
import { compileCudaDraft, cudaDebugSource, cudaPass, cudaPlace, type CudaProgram } from '../../workbench/cudaDraft.ts';
import './editor.css';
import { ColumnHeads } from '../widgets/ColumnHeads.tsx';
import { FileName } from '../widgets/FileName.tsx';

/** Where the page remembers the learner's language (CUDA or WGSL). */
const LANGUAGE_KEY = 'warpscope.editor.language';
function rememberedLanguage(): 'wgsl' | 'cuda' {
  try {
    return globalThis.localStorage?.getItem(LANGUAGE_KEY) === 'cuda' ? 'cuda' : 'wgsl';
  } catch {
    return 'wgsl';
  }
}
function rememberLanguage(language: 'wgsl' | 'cuda'): void {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_KEY, language);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
}
/** The session's draft key of a variant's CUDA text. */
const cudaKey = (variant: string) => `${variant}.cu`;
const cudaFile = (file: string) => file.replace(/^.*\//, '').replace(/\.wgsl$/, '.cu');

type Tab = 'wgsl' | 'cuda' | 'diff';

function Outcome({ name, outcome }: { name: string; outcome: ExecOutcome }) {
  let text: string;
  if (outcome.state === 'done')
    text = outcome.check.ok ? `✓ ${T.matches}` : `✗ ${T.differs(outcome.check.message)}`;
  else if (outcome.state === 'stopped') text = `■ ${outcome.message}`;
  else text = `✗ ${outcome.message}${outcome.hint ? ` ${outcome.hint}` : ''}`;
  return (
    <li
      data-testid={`check-${name === T.gpu ? 'gpu' : 'sim'}`}
      data-ok={outcome.state === 'done' && outcome.check.ok ? 'yes' : 'no'}
    >
      <strong>{name}:</strong> {text}
    </li>
  );
}

/**
 * The check's verdict and its first wrong elements. The step that last wrote each element is read
 * from the trace on screen when the table shows: running a draft re-simulates it, so the trace of
 * the moment the check started is gone, and the new one is the edited kernel's own.
 */
function CheckView({
  check,
  trace,
  seek,
  showGenerated,
}: {
  check: DraftCheck;
  trace: Trace | undefined;
  seek: (step: number) => void;
  /** Opens the generated WGSL at a line (a CUDA run whose generated WGSL the GPU's compiler rejected). */
  showGenerated?: ((line: number) => void) | undefined;
}) {
  const generated = check.gpu.state === 'failed' ? check.gpu.messages?.find((m) => m.generated)?.generated : undefined;
  return (
    <section className="editor-check" aria-label={T.resultTitle} data-testid="editor-check">
      <h3>{T.resultTitle}</h3>
      <ul>
        <Outcome name={T.gpu} outcome={check.gpu} />
        <Outcome name={T.sim} outcome={check.sim} />
      </ul>
      {generated && showGenerated && (
        <button type="button" className="link-button" onClick={() => showGenerated(generated.line)} data-testid="show-generated-line">
          {T.showGeneratedLine(generated.line)}
        </button>
      )}
      {check.notGuaranteed && (
        <p className="banner banner-warning" data-testid="not-guaranteed">
          <span aria-hidden="true">⚠ </span>
          {check.notGuaranteed}
        </p>
      )}
      {check.mismatches.length > 0 && (
        <table className="mismatches" data-testid="mismatches">
          <caption>{T.mismatchCaption}</caption>
          <ColumnHeads labels={[T.index, T.expected, T.gpu, T.sim, T.stepLink]} />
          <tbody>
            {check.mismatches
              .map((m) => ({ ...m, step: trace ? lastGlobalWrite(trace, m.index) : m.step }))
              .map((m) => (
                <tr key={m.index}>
                  <td>{m.index}</td>
                  <td>{m.expected ?? '—'}</td>
                  <td>{m.gpu ?? '—'}</td>
                  <td>{m.sim ?? '—'}</td>
                  <td>
                    {m.step >= 0 ? (
                      <button type="button" className="link-button" onClick={() => seek(m.step)}>
                        {T.goToStep(m.step)}
                      </button>
                    ) : (
                      T.noStep
                    )}
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The exercise being worked on: its goal, a hint behind a disclosure, and the check. */
function ExerciseBar({
  lab,
  exercise,
  text,
  onLeave,
}: {
  lab: AnyLab;
  exercise: Exercise;
  text: () => string;
  onLeave: () => void;
}) {
  const [verdict, setVerdict] = useState<ExerciseVerdict | undefined>();
  const [busy, setBusy] = useState(false);
  const check = async () => {
    setBusy(true);
    setVerdict(undefined);
    try {
      const v = await checkExercise(lab, exercise, text(), (r, o) => client('exercise-check').simulate(r, o));
      if (v.ok) markSolved(exercise.id);
      setVerdict(v);
    } catch (e) {
      setVerdict({ ok: false, message: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section
      className="exercise-bar banner"
      aria-label={X.barTitle(exercise.title)}
      data-testid="exercise-bar"
    >
      <h3>{X.barTitle(exercise.title)}</h3>
      <p>
        <strong>{X.goal}</strong> {exercise.goal}
      </p>
      <details>
        <summary>{X.hint}</summary>
        <p>{exercise.hint}</p>
      </details>
      <div className="controls">
        <button type="button" onClick={() => void check()} disabled={busy} data-testid="exercise-check">
          {X.check}
        </button>
        <button type="button" onClick={onLeave}>
          {X.leave}
        </button>
      </div>
      <p role="status" data-testid="exercise-verdict" data-ok={verdict?.ok ? 'yes' : 'no'}>
        {busy ? X.checking : verdict ? (verdict.ok ? X.solved : verdict.message) : ''}
      </p>
    </section>
  );
}

export interface EditorPaneProps {
  readonly session: LabSession;
  /** Moves the focus to another workgroup (the console's `cuda block N`). */
  readonly onWorkgroup?: ((workgroup: number) => void) | undefined;
}

const noLint = () => Promise.resolve([]);
const ignore = () => {};

/** Findings on the generated WGSL at the CUDA positions they came from (those in code the translator added are dropped). */
function cudaDiagnostics(
  program: CudaProgram,
  source: string,
  list: readonly EditorDiagnostic[],
): EditorDiagnostic[] {
  return list.flatMap((d) => {
    const at = program.sourceMap.toCuda(d.line, d.column);
    if (!at || at.file !== undefined) return [];
    return [{ ...d, line: at.line, column: at.column, ...tokenEnd(source, at.line, at.column) }];
  });
}

export default function EditorPane({ session, onWorkgroup }: EditorPaneProps) {
  const lab = useStore(session, (s) => s.lab);
  const variant = useStore(session, (s) => s.variant);
  const params = useStore(session, (s) => s.params);
  const draft = useStore(session, (s) => s.drafts[s.variant.id]);
  const notice = useStore(session, (s) => s.draftNotice);
  const primary = useStore(session, (s) => s.primary);
  const step = useStore(session, (s) => s.step);
  const gpuStatus = useAppStore(selectGpuStatus);
  const softwareAdapter = gpuStatus.state === 'ready' && gpuStatus.adapter.isFallbackAdapter;
  const projector = useAppStore((s) => s.chrome.mode === 'projector');
  const cudaDraft = useStore(session, (s) => s.drafts[cudaKey(s.variant.id)]);
  const [tab, setTabState] = useState<Tab>(() =>
    variant.cuda !== undefined ? rememberedLanguage() : 'wgsl',
  );
  const setTab = (next: Tab) => {
    if (next !== 'diff') rememberLanguage(next);
    setTabState(next);
  };
  const [language, setLanguage] = useState<'wgsl' | 'cuda'>(tab === 'cuda' ? 'cuda' : 'wgsl');
  useEffect(() => {
    if (tab !== 'diff') setLanguage(tab);
  }, [tab]);
  const cudaMode = language === 'cuda' && variant.cuda !== undefined;
  const [cudaText, setCudaText] = useState(cudaDraft ?? variant.cuda ?? '');
  /** The CUDA program the step-through replays: the last one that translated and ran. */
  const [cudaRan, setCudaRan] = useState<CudaProgram | undefined>(
    () => compileCudaDraft(cudaDraft ?? variant.cuda ?? '').program,
  );
  const [showWgsl, setShowWgsl] = useState(false);
  const [cudaCursor, setCudaCursor] = useState<number | undefined>();
  const [wgslCursor, setWgslCursor] = useState<number | undefined>();
  const cudaEditor = useRef<KernelEditorHandle>(null);
  const generatedRef = useRef<KernelEditorHandle>(null);
  const [text, setText] = useState(draft ?? variant.wgsl);
  const [message, setMessage] = useState<string | undefined>();
  const [share, setShare] = useState<string | undefined>();
  const [shareUrl, setShareUrl] = useState<string | undefined>();
  const [check, setCheck] = useState<DraftCheck | undefined>();
  const [gpuFound, setGpuFound] = useState<readonly EditorDiagnostic[]>([]);
  /** The GPU compiler's messages on generated WGSL, at the CUDA lines they came from. */
  const [cudaGpuFound, setCudaGpuFound] = useState<readonly EditorDiagnostic[]>([]);
  /** A generated WGSL line to show highlighted (from "Show generated WGSL line N"). */
  const [generatedFocus, setGeneratedFocus] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);
  const editor = useRef<KernelEditorHandle>(null);
  /** The controller of the run under way, from its first line to the end of its check; null when none is. */
  const abort = useRef<AbortController | null>(null);
  /** A run asked for while another was under way (the newest request only): its language and text. */
  const queued = useRef<{ readonly cuda: boolean; readonly code: string } | null>(null);
  const [waiting, setWaiting] = useState(false);
  /** This render's `runCode`, for a queued request started when the run before it ends. */
  const latestRunCode = useRef<(cuda: boolean, code: string) => Promise<void>>(() => Promise.resolve());
  const pane = useRef<HTMLElement>(null);
  const id = useId();
  const [exerciseId, setExerciseId] = useState(() => {
    const linked = typeof location === 'undefined' ? undefined : readExerciseFragment(location.hash);
    return linked !== undefined && findExercise([lab], linked)?.lab === lab.id
      ? linked
      : activeExercise(lab.id);
  });
  const exercise = exerciseId === undefined ? undefined : findExercise([lab], exerciseId);
  // Breakpoints on WGSL lines, and on CUDA lines for the CUDA tab: each editor's gutter shows its own.
  const [breakpoints, setBreakpoints] = useState<readonly Breakpoint[]>([]);
  const [cudaBreakpoints, setCudaBreakpoints] = useState<readonly Breakpoint[]>([]);
  const marksOf = (list: readonly Breakpoint[]) => list.map((b) => ({ line: b.line, conditional: b.condition !== undefined }));
  const gutterMarks = useMemo(() => marksOf(breakpoints), [breakpoints]);
  const cudaGutterMarks = useMemo(() => marksOf(cudaBreakpoints), [cudaBreakpoints]);
  const toggleIn = (list: readonly Breakpoint[], line: number) =>
    list.some((b) => b.line === line)
      ? list.filter((b) => b.line !== line)
      : [...list, makeBreakpoint(list.reduce((m, b) => Math.max(m, b.id), 0) + 1, line)];
  const toggleBreakpoint = useCallback((line: number) => setBreakpoints((list) => toggleIn(list, line)), []);
  // A CUDA line without code (a comment, a brace) takes the breakpoint on the next line that has some, as cuda-gdb does.
  const cudaCodeLines = cudaRan?.sourceMap.cudaLines;
  const toggleCudaBreakpoint = useCallback(
    (line: number) => {
      const at = cudaCodeLines && !cudaCodeLines.includes(line) ? cudaCodeLines.find((l) => l > line) : line;
      if (at !== undefined) setCudaBreakpoints((list) => toggleIn(list, at));
    },
    [cudaCodeLines],
  );

  // A new variant: its draft or its kernel, and nothing found yet.
  useEffect(() => {
    setText(session.getState().drafts[variant.id] ?? variant.wgsl);
    const cu = session.getState().drafts[cudaKey(variant.id)] ?? variant.cuda ?? '';
    setCudaText(cu);
    setCudaRan(compileCudaDraft(cu).program);
    setCheck(undefined);
    setGpuFound([]);
    setMessage(undefined);
    setShare(undefined);
    // A run asked for on the variant before does not run on this one.
    queued.current = null;
    setWaiting(false);
  }, [session, variant]);

  // A draft that arrives from elsewhere (a shared link, IndexedDB) replaces the text; the editor's own runs set what it already shows.
  useEffect(() => {
    if (draft === undefined) return;
    const ed = editor.current;
    if (ed && ed.text() !== draft) {
      ed.setText(draft);
      setText(draft);
    }
  }, [draft]);

  // A CUDA draft that arrives from elsewhere (a shared link, IndexedDB) replaces the CUDA text.
  useEffect(() => {
    if (cudaDraft === undefined) return;
    const ed = cudaEditor.current;
    if (ed && ed.text() !== cudaDraft) {
      ed.setText(cudaDraft);
      setCudaText(cudaDraft);
      const program = compileCudaDraft(cudaDraft).program;
      if (program) setCudaRan(program);
    }
  }, [cudaDraft]);

  // In CUDA mode the step-through replays the CUDA kernel that last ran, launched as the lab launches its WGSL.
  useEffect(() => {
    const program = cudaMode ? cudaRan : undefined;
    const id = variant.id;
    session
      .getState()
      .setTranslate(program ? (v, run) => (v === id ? cudaPass(program, run).run : undefined) : undefined);
  }, [session, cudaMode, cudaRan, variant.id]);
  useEffect(() => () => session.getState().setTranslate(undefined), [session]);

  const inputs = useMemo(() => lab.inputs(params, INPUT_SEED), [lab, params]);
  // The edit compiled as the lab dispatches it (the driver's element type and helpers around it),
  // linted on a worker so typing never waits for the front end.
  const lint = useCallback(
    (code: string): Promise<readonly EditorDiagnostic[]> => {
      let r: KernelRun;
      try {
        r = lab.stepRun(variant.id, params, inputs, code);
      } catch {
        return Promise.resolve([]);
      }
      return editorLint.lint(r);
    },
    [lab, variant, params, inputs],
  );

  const trace = primary.result?.trace;
  const ran = primary.run?.code ?? variant.wgsl;
  const replaysCuda = cudaMode && cudaRan !== undefined && ran === cudaRan.wgsl;
  const wgslFound = useMemo(
    () => [
      ...(primary.result ? simulatorDiagnostics(ran, primary.result.diagnostics) : []),
      ...gpuFound,
      ...(check ? simulatorDiagnostics(ran, check.diagnostics) : []),
    ],
    [primary.result, ran, gpuFound, check],
  );
  // The simulator's findings on the generated WGSL, moved to the CUDA lines they came from.
  const cudaFound = useMemo(
    () => (replaysCuda && cudaRan ? cudaDiagnostics(cudaRan, cudaRan.source, wgslFound) : []),
    [replaysCuda, cudaRan, wgslFound],
  );
  const found = useMemo(() => (cudaMode ? [...cudaFound, ...cudaGpuFound] : wgslFound), [cudaMode, cudaFound, cudaGpuFound, wgslFound]);
  const view =
    trace && trace.stepCount > 0 ? traceStep(trace, Math.min(step, trace.stepCount - 1)) : undefined;
  const cudaAt =
    replaysCuda && view && cudaRan ? cudaRan.sourceMap.toCuda(view.line, view.column) : undefined;
  const cudaLine = cudaAt && cudaAt.file === undefined ? cudaAt.line : undefined;
  // On the CUDA tab the debugger reads the replay through the source map: its breakpoints, stops,
  // steps and expressions are the CUDA's.
  const debugSource = useMemo(
    () => (replaysCuda && cudaRan && primary.run ? cudaDebugSource(cudaRan, primary.run) : undefined),
    [replaysCuda, cudaRan, primary.run],
  );
  const cudaLint = useCallback((code: string) => Promise.resolve(compileCudaDraft(code).diagnostics), []);
  const linkedWgsl =
    cudaRan && cudaCursor !== undefined ? cudaRan.sourceMap.toWgsl(cudaCursor)?.line : undefined;
  const linkedCuda =
    cudaRan && wgslCursor !== undefined ? cudaRan.sourceMap.toCuda(wgslCursor)?.line : undefined;

  /**
   * Runs `code` (CUDA when `cuda`) and checks it. One run at a time: from its first line to the end
   * of its check `abort.current` is its controller; a request made meanwhile waits in `queued`
   * (see `run`) and starts here when this one ends, with the text it asked to run.
   */
  const runCode = async (cuda: boolean, code: string) => {
    const controller = new AbortController();
    abort.current = controller;
    try {
      const compiled = cuda ? compileCudaDraft(code) : undefined;
      const errors = (compiled ? compiled.diagnostics : await lint(code)).filter((d) => d.severity === 'error');
      if (errors.length > 0) {
        const e = errors[0]!;
        setMessage(T.notRun(e.line, e.column, e.message));
        return;
      }
      const program = compiled?.program;
      if (program) {
        // The lab must be able to launch it before anything is replaced.
        try {
          cudaPass(program, lab.stepRun(variant.id, params, inputs));
        } catch (e) {
          setMessage(T.cudaLaunch(e instanceof Error ? e.message : String(e)));
          return;
        }
      }
      setMessage(undefined);
      setCheck(undefined);
      setGpuFound([]);
      setCudaGpuFound([]);
      setGeneratedFocus(undefined);
      if (program) {
        session.getState().setDraft(cudaKey(variant.id), code === variant.cuda ? undefined : code);
        setCudaRan(program);
        // A run that waited for a check may be of a text edited since: the lines stay the old run's then.
        if (cudaEditor.current?.text() === code) cudaEditor.current.markRun();
      } else {
        session.getState().setDraft(variant.id, code === variant.wgsl ? undefined : code);
        if (editor.current?.text() === code) editor.current.markRun();
      }
      setBusy(true);
      const result = await checkDraft({
        lab,
        variant: variant.id,
        params,
        draft: code,
        gpu: gpuStatus.state === 'ready' ? pageGpu : undefined,
        simulate: (r, o) => client('editor-check').simulate(r, o),
        trace: session.getState().primary.result?.trace,
        signal: controller.signal,
        softwareAdapter,
        ...(program
          ? {
              translated: {
                code: program.wgsl,
                pass: (r: KernelRun) => cudaPass(program, r),
                place: (line: number, column: number) => cudaPlace(program, line, column),
              },
            }
          : {}),
      });
      if (abort.current !== controller) return;
      setCheck(result);
      if (!program && result.gpu.state === 'failed' && result.gpu.messages)
        setGpuFound(compilerDiagnostics(code, result.gpu.messages));
      // On the CUDA, each GPU compiler message at its CUDA line, naming the generated line it is about.
      if (program && result.gpu.state === 'failed' && result.gpu.messages)
        setCudaGpuFound(
          compilerDiagnostics(
            code,
            result.gpu.messages.map((m) => (m.generated ? { ...m, message: T.gpuOnGenerated(m.generated.line, m.message) } : m)),
          ),
        );
      if (
        result.gpu.state === 'failed' &&
        (result.gpu.timedOut === true || /cancel|lost/i.test(result.gpu.message))
      )
        void recoverGpu();
    } finally {
      // Its check is over (or it never started): the request that waited, if any, runs now.
      if (abort.current === controller) {
        abort.current = null;
        setBusy(false);
        const next = queued.current;
        queued.current = null;
        setWaiting(false);
        if (next) void latestRunCode.current(next.cuda, next.code);
      }
    }
  };
  latestRunCode.current = runCode;

  /**
   * Ctrl+Enter and the Run button: runs the editor's text, or, while a check is under way, keeps
   * the request (the newest replaces an older one) and says so; it runs when that check ends.
   */
  const run = () => {
    const cuda = cudaMode;
    const code = cuda ? (cudaEditor.current?.text() ?? cudaText) : (editor.current?.text() ?? text);
    if (abort.current) {
      queued.current = { cuda, code };
      setWaiting(true);
      return;
    }
    void runCode(cuda, code);
  };

  const reset = () => {
    if (cudaMode) {
      const original = variant.cuda ?? '';
      cudaEditor.current?.setText(original);
      setCudaText(original);
      setCudaRan(compileCudaDraft(original).program);
      session.getState().setDraft(cudaKey(variant.id), undefined);
      setCheck(undefined);
      setMessage(T.resetDone);
      return;
    }
    editor.current?.setText(variant.wgsl);
    setText(variant.wgsl);
    session.getState().setDraft(variant.id, undefined);
    setCheck(undefined);
    setGpuFound([]);
    setMessage(T.resetDone);
  };

  const copyLink = async () => {
    const code = cudaMode ? (cudaEditor.current?.text() ?? cudaText) : (editor.current?.text() ?? text);
    const link = shareLink(location.href, cudaMode ? cudaKey(variant.id) : variant.id, code);
    if (!link.ok) {
      setShare(link.message);
      setShareUrl(undefined);
      return;
    }
    setShareUrl(link.url);
    setShare(`${T.sharedNoClipboard} ${link.url}`);
    try {
      // The clipboard may ask for permission or be refused; the link is on the page either way.
      await navigator.clipboard.writeText(link.url);
      setShare(`${T.shared(link.length)} ${link.url}`);
    } catch {
      // Keep the link shown for copying by hand.
    }
  };

  const diff = useMemo(
    () => (tab === 'diff' ? lineDiff(variant.wgsl, text) : undefined),
    [tab, variant.wgsl, text],
  );
  const edited = cudaMode ? cudaText !== variant.cuda : text !== variant.wgsl;
  const shownDraft = cudaMode ? cudaDraft : draft;

  const toolbar = (
    <div className="editor-toolbar controls" role="toolbar" aria-label={T.toolbar}>
      {/* Never disabled: pressed while a check is under way, it queues the run and says so. */}
      <button type="button" onClick={run} data-testid="run-edit">
        {T.run} <kbd>{T.runKeys}</kbd>
      </button>
      {busy && (
        <button
          type="button"
          onClick={() => {
            // Cancel stops the check under way and the run that waited for it.
            queued.current = null;
            setWaiting(false);
            abort.current?.abort();
          }}
        >
          {T.cancel}
        </button>
      )}
      <button
        type="button"
        onClick={reset}
        disabled={!edited && shownDraft === undefined}
        data-testid="reset-edit"
      >
        {T.reset}
      </button>
      <button type="button" onClick={() => void copyLink()} data-testid="share-edit">
        {T.share}
      </button>
      <span className="draft-state" data-testid="draft-state">
        {edited ? T.edited : T.original}
      </span>
      {tab === 'cuda' && (
        <button
          type="button"
          aria-pressed={showWgsl}
          onClick={() => setShowWgsl((x) => !x)}
          data-testid="show-wgsl"
        >
          {T.showWgsl}
        </button>
      )}
    </div>
  );
  const debugPanel = (
    <DebugPanel
      session={session}
      breakpoints={cudaMode ? cudaBreakpoints : breakpoints}
      setBreakpoints={cudaMode ? setCudaBreakpoints : setBreakpoints}
      source={cudaMode ? debugSource : undefined}
      onWorkgroup={onWorkgroup}
    />
  );

  return (
    <section
      ref={pane}
      className="panel code-pane editor-pane"
      aria-label={T.paneLabel}
      data-testid="editor-pane"
      tabIndex={-1}
    >
      <div role="tablist" aria-label={T.tabsLabel} className="tabs">
        <button
          role="tab"
          type="button"
          id={`${id}-wgsl`}
          aria-selected={tab === 'wgsl'}
          aria-controls={`${id}-panel`}
          onClick={() => setTab('wgsl')}
        >
          {T.wgslTab} <FileName path={variant.file} />
        </button>
        {variant.cuda !== undefined && (
          <button
            role="tab"
            type="button"
            id={`${id}-cuda`}
            aria-selected={tab === 'cuda'}
            aria-controls={`${id}-panel`}
            onClick={() => setTab('cuda')}
          >
            {T.cudaTab}
          </button>
        )}
        <button
          role="tab"
          type="button"
          id={`${id}-diff`}
          aria-selected={tab === 'diff'}
          aria-controls={`${id}-panel`}
          onClick={() => setTab('diff')}
        >
          {T.diffTab}
        </button>
      </div>
      {!projector && toolbar}
      {exercise && exercise.lab === lab.id && exercise.variant === variant.id && (
        <ExerciseBar
          lab={lab}
          exercise={exercise}
          text={() => editor.current?.text() ?? text}
          onLeave={() => {
            setActiveExercise(lab.id, undefined);
            setExerciseId(undefined);
          }}
        />
      )}
      {view && tab === 'wgsl' && !replaysCuda && (
        <p className="code-position" data-testid="code-position">
          {T.position(view.line, view.column)}
        </p>
      )}
      {view && tab === 'cuda' && replaysCuda && (
        <p className="code-position" data-testid="code-position">
          {cudaLine !== undefined ? T.cudaPosition(cudaLine) : T.cudaNoLine}
        </p>
      )}
      <div
        id={`${id}-panel`}
        role="tabpanel"
        aria-labelledby={`${id}-${tab}`}
        className="code-scroll editor-scroll"
      >
        <div hidden={tab !== 'wgsl'}>
          <KernelEditor
            key={variant.id}
            wrap={projector}
            initial={draft ?? variant.wgsl}
            label={T.editorLabel(variant.file)}
            currentLine={replaysCuda ? undefined : view?.line}
            found={cudaMode ? [] : wgslFound}
            lint={lint}
            onChange={setText}
            onRun={run}
            editorRef={editor}
            breakpoints={gutterMarks}
            onToggleBreakpoint={toggleBreakpoint}
          />
        </div>
        {variant.cuda !== undefined && (
          <div
            hidden={tab !== 'cuda'}
            className={showWgsl ? 'cuda-split' : undefined}
            data-testid="cuda-pane"
          >
            <KernelEditor
              key={`${variant.id}.cu`}
              language="cuda"
              testId="cuda-editor"
              wrap={projector}
              initial={cudaDraft ?? variant.cuda}
              label={T.cudaEditorLabel(cudaFile(variant.file))}
              currentLine={cudaLine}
              found={found}
              lint={cudaLint}
              onChange={setCudaText}
              onRun={run}
              editorRef={cudaEditor}
              breakpoints={cudaGutterMarks}
              onToggleBreakpoint={toggleCudaBreakpoint}
              onCursorLine={(line) => {
                setCudaCursor(line);
                setGeneratedFocus(undefined);
              }}
              linkedLine={showWgsl ? linkedCuda : undefined}
            />
            {showWgsl && (
              <section aria-label={T.generatedTitle} data-testid="generated-wgsl">
                <h3>{T.generatedTitle}</h3>
                {cudaRan ? (
                  <KernelEditor
                    key={cudaRan.wgsl}
                    readOnly
                    testId="generated-editor"
                    wrap={projector}
                    initial={cudaRan.wgsl}
                    label={T.generatedLabel(cudaFile(variant.file))}
                    currentLine={replaysCuda ? view?.line : undefined}
                    found={[]}
                    lint={noLint}
                    onChange={ignore}
                    onRun={run}
                    editorRef={generatedRef}
                    onCursorLine={setWgslCursor}
                    linkedLine={generatedFocus ?? linkedWgsl}
                  />
                ) : (
                  <p>{T.noGenerated}</p>
                )}
              </section>
            )}
          </div>
        )}
        {tab === 'diff' && (
          <pre className="code-diff" aria-label={T.diffLabel} tabIndex={0} data-testid="draft-diff">
            {!edited
              ? T.noDiff
              : diff === undefined
                ? T.diffTooLong
                : diff
                    .filter((d) => d.op !== ' ')
                    .map((d, i) => (
                      <div
                        key={i}
                        className={d.op === '+' ? 'diff-add' : 'diff-del'}
                      >{`${d.op} ${d.line}: ${d.text}`}</div>
                    ))}
          </pre>
        )}
      </div>
      <div role="status" aria-live="polite" className="editor-status">
        {busy && <p data-testid="editor-busy">{T.running}</p>}
        {waiting && <p data-testid="editor-queued">{T.queued}</p>}
        {message && <p data-testid="editor-message">{message}</p>}
        {share && (
          <p data-testid="share-message" data-url={shareUrl}>
            {share}
          </p>
        )}
        {notice && <p>{notice}</p>}
        {found.length > 0 && <p data-testid="editor-findings">{T.diagnosticsFound(found.length)}</p>}
      </div>
      {check && (
        <CheckView
          check={check}
          trace={trace}
          seek={(s) => session.getState().setStep(s)}
          showGenerated={
            cudaMode
              ? (line) => {
                  setTab('cuda');
                  setShowWgsl(true);
                  setGeneratedFocus(line);
                }
              : undefined
          }
        />
      )}
      {projector ? (
        // In front of a class the listing gets the column's height: the editing tools and the
        // debugger wait behind one disclosure (a summary the keyboard reaches), under the listing.
        <details className="editor-tools" data-testid="editor-tools">
          <summary>{T.tools}</summary>
          {toolbar}
          {debugPanel}
        </details>
      ) : (
        debugPanel
      )}
    </section>
  );
}
