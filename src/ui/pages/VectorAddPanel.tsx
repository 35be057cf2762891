/* eslint-disable boundaries/rooms -- this panel still guards, simulates and checks an edited kernel itself (the watchdog, the parser's error type): that run belongs in src/workbench beside editorRun.ts (issue #25) */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { pageGpu, recoverGpu } from '../../workbench/gpu.ts';
import { browserDraftDatabase, browserLocalStorage, DraftStore, draftNotice } from '../../workbench/drafts.ts';
import { isGpuError, type ShaderMessage, type Timing } from '../../gpu/index.ts';
import { workgroupCount, type KernelRun } from '../../kernel/types.ts';
import { guardKernel } from '../../kernel/watchdog.ts';
import { iterationBudget, loopAround, originalPosition, type GuardedSource } from '../../wgsl/watchdog.ts';
import { homeDemo } from '../../labs/catalog.ts';
import { WgslError } from '../../sim/ast.ts';
import { SimCancelled } from '../../sim/workerClient.ts';
import type { SimClient } from '../../workbench/services.ts';
import { useServices } from '../shell/services.tsx';
import { randomF32, seededRandom } from '../../util/random.ts';
import { selectGpuStatus, useAppStore } from '../../store/index.ts';
import { ShaderErrorView, type ShownError } from '../widgets/ShaderErrorView.tsx';
import { formatFixed, formatInteger } from '../../i18n/numbers.ts';
import { ui, type UiKey } from '../../i18n/ui.ts';

const { VECTOR_ADD_FILE, vectorAddBytes, vectorAddReference, vectorAddRun } = homeDemo;

const SIZES = [10, 12, 14, 16, 18, 20, 22, 24] as const;
const DRAFT_KEY = 'warpscope.vector-add.draft';
/** Drafts from this many characters on are saved a moment after the last keystroke, not on each. */
const BIG_DRAFT = 100_000;
/** Elements the simulator checks an edited kernel at (or n, when smaller). */
export const CHECK_ELEMENTS = 2 ** 12;
/** Warp instructions the simulator's check may take; vector add at 4 096 elements needs about 2 000 (a loop of 100 iterations per element, about 60 000). */
export const CHECK_STEPS = 1_000_000;
/** GPU time limits, after which the device is given up and a new one requested. */
const RUN_TIMEOUT_MS = 15_000;
const TIME_TIMEOUT_MS = 30_000;

type Phase = 'idle' | 'checking' | 'running' | 'timing';
const PHASE_TEXT: Record<Exclude<Phase, 'idle'>, UiKey> = {
  checking: 'va.phase.checking',
  running: 'va.phase.running',
  timing: 'va.phase.timing',
};

interface Outcome {
  readonly n: number;
  readonly mismatches: number;
  readonly firstMismatch: number;
  readonly timing: Timing;
  readonly gbps: number;
  /** What guarded the run: undefined for the teaching kernel as written. */
  readonly guard?: string;
}

/** A refusal or failure shown with its place in the edited code. */
function placed(title: string, message: string, hint: string, code: string, line: number, column: number): ShownError {
  const sourceLine = code.split('\n')[line - 1];
  const m: ShaderMessage = {
    severity: 'error',
    message,
    line,
    column,
    file: VECTOR_ADD_FILE,
    ...(sourceLine !== undefined ? { sourceLine } : {}),
  };
  return { title, message, hint, messages: [m] };
}

/** Compiler messages about guarded code, moved back to where they are in the person's code. */
function unguardMessages(messages: readonly ShaderMessage[], guarded: GuardedSource | undefined, code: string): ShaderMessage[] {
  const lines = code.split('\n');
  return messages.map((m) => {
    const { line, column } = guarded ? originalPosition(guarded, m.line, m.column) : m;
    const sourceLine = lines[line - 1];
    const { sourceLine: _guardedLine, ...rest } = m;
    return { ...rest, line, column, ...(sourceLine !== undefined ? { sourceLine } : {}) };
  });
}

/**
 * The first kernel: vector add with a grid-stride loop, run on the GPU, checked element by element
 * against the CPU, timed with timestamp queries. The WGSL is editable; a broken edit shows the
 * compiler's line and column and is kept (also across reloads) until fixed or reset.
 *
 * Edited code never reaches the GPU unguarded: it is first simulated at a small size within a
 * step budget (an endless loop is refused there, with its line), then every loop gets the
 * watchdog (`src/kernel/watchdog.ts`), and the GPU work runs under a timeout with a Cancel button;
 * past either the device is given up and a new one requested. The teaching kernel runs as written.
 */
export function VectorAddPanel() {
  const status = useAppStore(selectGpuStatus);
  const original = useMemo(() => vectorAddRun({ a: new Float32Array(0), b: new Float32Array(0) }).code, []);
  const drafts = useMemo(() => new DraftStore(browserLocalStorage(), browserDraftDatabase()), []);
  const [code, setCode] = useState(() => drafts.loadLocal(DRAFT_KEY) ?? original);
  const [draftLoading, setDraftLoading] = useState(() => drafts.inDatabase(DRAFT_KEY));
  const [draftMessage, setDraftMessage] = useState<string | undefined>();
  const [log2n, setLog2n] = useState<number>(16);
  const [phase, setPhase] = useState<Phase>('idle');
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [error, setError] = useState<ShownError | undefined>();
  const [note, setNote] = useState<string | undefined>();
  const checker = useRef<SimClient | null>(null);
  const { simulator } = useServices();
  const abort = useRef<AbortController | null>(null);
  const mounted = useRef(false);
  const editorId = useId();
  const sizeId = useId();
  const busy = phase !== 'idle';

  // The simulator worker for checks: the services' `check` channel (the page keeps it for the next visit).
  useEffect(() => {
    mounted.current = true;
    checker.current = simulator('check');
    return () => {
      mounted.current = false;
      checker.current = null;
    };
  }, [simulator]);

  // A draft kept in IndexedDB (too big for localStorage) arrives after the first render.
  useEffect(() => {
    if (!draftLoading) return;
    let live = true;
    void drafts.load(DRAFT_KEY).then((text) => {
      if (!live) return;
      if (text !== undefined) setCode(text);
      setDraftLoading(false);
    });
    return () => {
      live = false;
    };
  }, [drafts, draftLoading]);

  // Keep the draft: at once while it is small (localStorage writes synchronously, so a reload right
  // after an edit keeps it), a moment after the last keystroke when it is big, and on leaving the
  // page; say so when it cannot go where it was.
  useEffect(() => {
    if (draftLoading) return;
    let live = true;
    let pending = true;
    const save = () => {
      if (!pending) return;
      pending = false;
      if (code === original) {
        void drafts.clear(DRAFT_KEY);
        if (live) setDraftMessage(undefined);
        return;
      }
      void drafts.save(DRAFT_KEY, code).then((saved) => {
        if (live) setDraftMessage(draftNotice(saved));
      });
    };
    if (code.length < BIG_DRAFT) {
      save();
      return () => {
        live = false;
      };
    }
    const timer = setTimeout(save, 300);
    window.addEventListener('pagehide', save);
    return () => {
      live = false;
      clearTimeout(timer);
      window.removeEventListener('pagehide', save);
    };
  }, [code, original, drafts, draftLoading]);

  const cancel = useCallback(() => abort.current?.abort(), []);

  const run = useCallback(async () => {
    const controller = new AbortController();
    abort.current = controller;
    const { signal } = controller;
    const show = (f: () => void) => {
      if (mounted.current && abort.current === controller) f();
    };
    setError(undefined);
    setOutcome(undefined);
    setNote(undefined);
    const edited = code !== original;
    let guarded: GuardedSource | undefined;
    try {
      const n = 2 ** log2n;
      const rng = seededRandom(log2n);
      const a = randomF32(rng, n, -1000, 1000);
      const b = randomF32(rng, n, -1000, 1000);
      const kernel: KernelRun = { ...vectorAddRun({ a, b }), code };
      let gpuKernel = kernel;
      let guardText: string | undefined;

      if (edited) {
        setPhase('checking');
        // 1. The watchdog needs the loops, so the code must parse first.
        const invocations = workgroupCount(kernel.workgroups) * (kernel.overrides?.WORKGROUP_SIZE ?? 256);
        let guardedRun: ReturnType<typeof guardKernel>;
        try {
          guardedRun = guardKernel(kernel, { budget: iterationBudget(invocations) });
        } catch (e) {
          if (!(e instanceof WgslError)) throw e;
          // The compiler's own messages are the better ones; compiling runs nothing.
          await pageGpu.prepare(kernel);
          show(() =>
            setError(
              placed(
                ui('va.unreadable.title'),
                ui('va.unreadable.message', { line: e.pos.line, column: e.pos.col, message: e.message }),
                ui('va.unreadable.hint'),
                code,
                e.pos.line,
                e.pos.col,
              ),
            ),
          );
          return;
        }
        guarded = guardedRun.guarded;

        // 2. Simulate at a small size within a step budget; what does not finish there is refused.
        const checkN = Math.min(n, CHECK_ELEMENTS);
        const small: KernelRun = { ...vectorAddRun({ a: a.slice(0, checkN), b: b.slice(0, checkN) }), code };
        const client = checker.current;
        if (!client) return;
        const job = client.simulate(small, { trace: 'summary', maxSteps: CHECK_STEPS });
        signal.addEventListener('abort', () => job.cancel(), { once: true });
        const checked = await job.promise;
        const stop = checked.diagnostics.find((d) => d.kind === 'step-limit');
        if (stop) {
          const loop = loopAround(code, stop.line);
          const where = loop
            ? ui(loop.kind === 'loop' ? 'va.where.loop' : 'va.where.kindLoop', { kind: loop.kind, line: loop.line, column: loop.column })
            : ui('va.where.at', { line: stop.line, column: stop.column });
          show(() =>
            setError(
              placed(
                ui('va.endless.title'),
                ui('va.endless.message', { n: formatInteger(checkN), steps: formatInteger(CHECK_STEPS), where }),
                ui('va.endless.hint'),
                code,
                loop?.line ?? stop.line,
                loop?.column ?? stop.column,
              ),
            ),
          );
          return;
        }
        const unsupported = checked.diagnostics.find((d) => d.kind === 'unsupported');
        const w = guarded.watchdog;
        guardText = [
          unsupported
            ? ui('va.guard.notSimulated', { message: unsupported.message })
            : ui('va.guard.simulated', { n: formatInteger(checkN), steps: formatInteger(checked.metrics.warpInstructions) }),
          w ? ui('va.guard.loops', { loops: w.loops.length, bound: formatInteger(w.bound) }) : ui('va.guard.noLoops'),
        ].join(ui('va.guard.separator'));
        gpuKernel = guardedRun.run;
      }

      setPhase('running');
      const watchdog = guarded?.watchdog;
      const out = await pageGpu.run(gpuKernel, { signal, timeoutMs: RUN_TIMEOUT_MS, ...(watchdog ? { watchdog } : {}) });
      const c = out[0]?.[2];
      const expected = vectorAddReference(a, b);
      let mismatches = 0;
      let firstMismatch = -1;
      for (let i = 0; i < n; i++) {
        if (!Object.is(c?.[i], expected[i])) {
          if (firstMismatch < 0) firstMismatch = i;
          mismatches++;
        }
      }
      show(() => setPhase('timing'));
      const timing = await pageGpu.time(gpuKernel, { repeats: 10, signal, timeoutMs: TIME_TIMEOUT_MS });
      show(() =>
        setOutcome({
          n,
          mismatches,
          firstMismatch,
          timing,
          gbps: vectorAddBytes(n) / (timing.medianMs * 1e6),
          ...(guardText ? { guard: guardText } : {}),
        }),
      );
    } catch (e) {
      if (e instanceof SimCancelled) {
        show(() => setNote(ui('va.cancelledEarly')));
      } else if (isGpuError(e)) {
        if (e.kind === 'cancelled' || e.kind === 'timeout') void recoverGpu();
        if (e.kind === 'cancelled') {
          show(() => setNote(ui('va.cancelled')));
        } else if (e.kind === 'watchdog' && e.location) {
          const loc = e.location;
          show(() => setError(placed(ui('va.watchdog'), e.message, e.hint, code, loc.line, loc.column)));
        } else {
          const messages = e.kind === 'compile' && edited ? unguardMessages(e.messages, guarded, code) : e.messages;
          const first = messages.find((m) => m.severity === 'error');
          show(() =>
            setError({
              title:
                e.kind === 'compile'
                  ? ui('va.compileError')
                  : e.kind === 'timeout'
                    ? ui('va.timeout')
                    : ui('va.gpuError', { kind: e.kind }),
              message: first ? `${first.file ?? VECTOR_ADD_FILE}:${first.line}:${first.column}: ${first.message}` : e.message,
              hint: e.hint,
              messages,
            }),
          );
        }
      } else {
        show(() =>
          setError({ title: ui('va.unexpected'), message: e instanceof Error ? e.message : String(e), hint: ui('va.unexpectedHint') }),
        );
      }
    } finally {
      if (abort.current === controller) {
        abort.current = null;
        if (mounted.current) setPhase('idle');
      }
    }
  }, [code, log2n, original]);

  const ready = status.state === 'ready';
  return (
    <section className="panel" aria-labelledby="vector-add-title" data-testid="vector-add">
      <h2 id="vector-add-title">{ui('va.title')}</h2>
      <p>
        {ui('va.introBefore')}
        <code>a[i] + b[i]</code>
        {ui('va.introAfter')}
      </p>
      <label htmlFor={editorId} className="field-label">
        {VECTOR_ADD_FILE}
      </label>
      <textarea
        id={editorId}
        className="code-editor"
        spellCheck={false}
        value={code}
        readOnly={draftLoading}
        aria-busy={draftLoading}
        rows={Math.min(28, code.split('\n', 29).length + 1)}
        onChange={(e) => setCode(e.target.value)}
        data-testid="wgsl-editor"
      />
      {draftLoading && <p className="hint">{ui('va.loadingDraft')}</p>}
      {draftMessage && (
        <p className="banner banner-warning" role="status" data-testid="draft-notice">
          {draftMessage}
        </p>
      )}
      <div className="controls">
        <label htmlFor={sizeId}>{ui('va.elements')}</label>
        <select id={sizeId} value={log2n} onChange={(e) => setLog2n(Number(e.target.value))} disabled={busy} data-testid="size-select">
          {SIZES.map((s) => (
            <option key={s} value={s}>
              2^{s} = {formatInteger(2 ** s)}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void run()} disabled={!ready || busy || draftLoading} data-testid="run-vector-add">
          {busy ? ui('va.running') : ui('va.run')}
        </button>
        {busy && (
          <button type="button" onClick={cancel} data-testid="cancel-vector-add">
            {ui('common.cancel')}
          </button>
        )}
        <button type="button" onClick={() => setCode(original)} disabled={code === original || busy}>
          {ui('va.reset')}
        </button>
      </div>
      {!ready && status.state !== 'pending' && (
        <p className="hint">{ui('va.needWebGpu')}</p>
      )}
      <div aria-live="polite" data-testid="vector-add-result">
        {phase !== 'idle' && <p data-testid="vector-add-phase">{ui(PHASE_TEXT[phase])}</p>}
        {note && (
          <p className="hint" data-testid="vector-add-note">
            {note}
          </p>
        )}
        {error && <ShaderErrorView error={error} />}
        {outcome && (
          <div className={outcome.mismatches === 0 ? 'result result-ok' : 'result result-bad'}>
            <p data-testid="check">
              {outcome.mismatches === 0 ? (
                <>
                  <span aria-hidden="true">✓ </span>
                  {ui('va.allMatch', { n: formatInteger(outcome.n) })}
                </>
              ) : (
                <>
                  <span aria-hidden="true">✗ </span>
                  {ui('va.differ', { bad: formatInteger(outcome.mismatches), n: formatInteger(outcome.n), first: outcome.firstMismatch })}
                </>
              )}
            </p>
            <p data-testid="timing">
              {ui('va.timing', {
                median: formatFixed(outcome.timing.medianMs, 4),
                repeats: outcome.timing.repeats,
                min: formatFixed(outcome.timing.minMs, 4),
                max: formatFixed(outcome.timing.maxMs, 4),
                dispatches: outcome.timing.dispatchesPerPass,
                gbps: formatFixed(outcome.gbps, 2),
              })}
            </p>
            {outcome.guard && (
              <p className="hint" data-testid="guard-note">
                {ui('va.guardNote', { guard: outcome.guard })}
              </p>
            )}
            {outcome.timing.source === 'wall-clock' && (
              <p className="hint">{ui('va.wallClock')}</p>
            )}
            {outcome.timing.quantized && (
              <p className="hint">
                {ui('va.quantized', { dispatches: outcome.timing.dispatchesPerPass })}
              </p>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
