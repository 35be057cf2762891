import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { commandNeedsLocals, DebugError, defaultWatch, learnerNames, makeBreakpoint, needsLocals, runCommand, warpWatch, type Breakpoint, type CommandEffect, type DebugSource, type DebugState } from '../../workbench/debugger.ts';
import type { LabSession } from '../../workbench/session.ts';
import { client } from '../../workbench/simulation.ts';
import { createWatchRunner } from '../../workbench/warpWatch.ts';
import { t } from '../../i18n/messages.ts';
import { useLocale } from '../../i18n/useLocale.ts';
import type { WatchCapture } from '../../sim/instance.ts';
import { DEBUG_TEXT as T } from './strings.ts';

/** Re-runs for the warp watch, on a worker of their own (checkpoints are kept per run). */
const watchRunner = createWatchRunner((run, options) => client('watch').simulate(run, options));

type Capture = { readonly state: 'running'; readonly step: number; readonly warp: number } | { readonly state: 'done'; readonly step: number; readonly warp: number; readonly capture: WatchCapture | undefined } | { readonly state: 'error'; readonly step: number; readonly warp: number; readonly message: string };

/**
 * Breakpoints, continue / reverse-continue, a cuda-gdb console and a warp watch over the replay.
 * The logic is `src/workbench/debugger.ts`; this lays it out and applies what a command asks.
 * With a `source` (the CUDA tab replaying the learner's CUDA) every line is a CUDA line and every
 * expression C over the kernel's CUDA names.
 */
export function DebugPanel({
  session,
  breakpoints,
  setBreakpoints,
  onWorkgroup,
  source,
}: {
  session: LabSession;
  breakpoints: readonly Breakpoint[];
  setBreakpoints: (list: readonly Breakpoint[]) => void;
  onWorkgroup?: ((workgroup: number) => void) | undefined;
  source?: DebugSource | undefined;
}) {
  const index = useStore(session, (s) => s.primary.index);
  const step = useStore(session, (s) => s.step);
  const focusWarp = useStore(session, (s) => s.focusWarp);
  const focusLane = useStore(session, (s) => s.focusLane);
  const workgroup = useStore(session, (s) => s.primary.focus);
  const workgroupCount = useStore(session, (s) => s.primary.totalWorkgroups);
  const locale = useLocale();
  const [log, setLog] = useState<readonly string[]>([]);
  const [command, setCommand] = useState('');
  const id = useId();
  // The watch's first expression comes from the kernel loaded (its workgroup array, or its first
  // per-lane variable) and follows the kernel and the tab; one the learner wrote stays.
  const [written, setWatch] = useState<string>();
  const run = useStore(session, (s) => s.primary.run);
  const trace = index?.trace;
  const fallback = useMemo(() => defaultWatch(trace, run, source), [trace, run, source]);
  const watch = written ?? fallback;
  const lineLabel = (line: number) => (source ? T.cudaLine(line) : T.line(line));

  const apply = (text: string, effect: CommandEffect) => {
    setLog((l) => [...l, `(cuda-gdb) ${text}`, ...effect.output].slice(-200));
    const s = session.getState();
    if (effect.breakpoints) setBreakpoints(effect.breakpoints);
    if (effect.focus) s.setFocus(effect.focus.warp, effect.focus.lane);
    if (effect.step !== undefined) s.setStep(effect.step);
    if (effect.watch !== undefined) setWatch(effect.watch);
    if (effect.workgroup !== undefined) onWorkgroup?.(effect.workgroup);
  };
  const warp = index ? Math.min(focusWarp, index.warpCount - 1) : 0;
  const simOptions = useStore(session, (s) => s.primary.simOptions);
  const shownStep = index ? Math.max(0, Math.min(step, index.trace.stepCount - 1)) : 0;
  const exec = async (text: string) => {
    if (!index) {
      setLog((l) => [...l, T.noTrace]);
      return;
    }
    const state: DebugState = { index, step, workgroup, workgroupCount, focusWarp, focusLane, breakpoints, source };
    // `print tid`: the kernel's own names where the focused warp stands, from the simulator's re-run to this step.
    if (commandNeedsLocals(state, text) && run && simOptions && index.trace.stepCount > 0) {
      setLog((l) => [...l, t('watch.rerunning')]);
      try {
        const locals = await watchRunner.watch(run, simOptions, shownStep, focusWarp).promise;
        apply(text, runCommand({ ...state, step: shownStep, ...(locals ? { locals } : {}) }, text));
      } catch (e) {
        if (!(e instanceof Error && e.name === 'SimCancelled')) setLog((l) => [...l, `(cuda-gdb) ${text}`, t('watch.failed', { message: e instanceof Error ? e.message : String(e) })]);
      }
      return;
    }
    apply(text, runCommand(state, text));
  };
  // The kernel's own names (s, v, i…) come from a deterministic re-run to this step; builtins and
  // workgroup memory come from the trace at once.
  const wantsLocals = useMemo(() => {
    if (!index || watch.trim() === '') return false;
    try {
      return needsLocals(index.trace, watch, source);
    } catch {
      return false;
    }
  }, [index, watch, source]);
  // The watch works only while it is on screen: scrolled out of view under the listing, a step
  // neither re-runs the simulator nor evaluates the expression (a key press pays for neither).
  const panel = useRef<HTMLInputElement>(null);
  const [seen, setSeen] = useState(true);
  useEffect(() => {
    const el = panel.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => setSeen(entries.some((e) => e.isIntersecting)));
    io.observe(el);
    return () => io.disconnect();
  }, []);
  const [capture, setCapture] = useState<Capture>();
  useEffect(() => {
    if (!seen || !wantsLocals || !index || !run || !simOptions || index.trace.stepCount === 0) return;
    let live = true;
    setCapture({ state: 'running', step: shownStep, warp });
    const job = watchRunner.watch(run, simOptions, shownStep, warp);
    job.promise.then(
      (c) => {
        if (live) setCapture({ state: 'done', step: shownStep, warp, capture: c });
      },
      (e: unknown) => {
        if (live && !(e instanceof Error && e.name === 'SimCancelled')) setCapture({ state: 'error', step: shownStep, warp, message: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => {
      live = false;
    };
  }, [seen, wantsLocals, index, run, simOptions, shownStep, warp]);
  const current = capture && capture.step === shownStep && capture.warp === warp ? capture : undefined;
  const locals = current?.state === 'done' ? current.capture : undefined;
  // The watch over the trace alone follows a step in a render of its own, after the step's frame
  // (a key press paints the stage first, the table a moment later); with the kernel's own names it
  // already waits for the re-run.
  // Out of view, the watch shows nothing and the deferred values stand still: a step then costs
  // no second render of this panel.
  const laterStep = useDeferredValue(seen ? shownStep : 0);
  const laterWarp = useDeferredValue(seen ? warp : 0);
  const watchStep = wantsLocals ? shownStep : laterStep;
  const watchWarp = wantsLocals ? warp : laterWarp;
  const cells = useMemo(() => {
    if (!seen || !index || index.trace.stepCount === 0 || watch.trim() === '') return undefined;
    if (wantsLocals && current?.state !== 'done') return undefined;
    try {
      // A deferred step or warp may still be the last trace's: it stays within this one.
      return { cells: warpWatch(index, Math.min(watchStep, index.trace.stepCount - 1), Math.min(watchWarp, index.warpCount - 1), watch, locals, source) };
    } catch (e) {
      return { error: e instanceof DebugError ? e.message : String(e) };
    }
    // Its messages (an unknown name, say) are written in the language shown: a switch rewrites them.
  }, [seen, index, watchStep, watchWarp, watch, wantsLocals, current?.state, locals, source, locale]); // eslint-disable-line react-hooks/exhaustive-deps
  const scopeNames = learnerNames(locals, source);

  return (
    <section className="debug-panel" aria-labelledby={`${id}-title`} data-testid="debug-panel">
      <h3 id={`${id}-title`}>{T.title}</h3>
      <p className="hint">{T.intro}</p>
      <h4>{T.breakpoints}</h4>
      {breakpoints.length === 0 ? (
        <p className="hint">{T.none}</p>
      ) : (
        <ul className="breakpoint-list">
          {breakpoints.map((b) => (
            <li key={b.id} data-testid={`breakpoint-${b.line}`}>
              <span>{lineLabel(b.line)}</span>{' '}
              <label>
                {T.condition}{' '}
                <input
                  type="text"
                  defaultValue={b.condition ?? ''}
                  placeholder={source ? T.conditionPlaceholderCuda : T.conditionPlaceholder}
                  aria-label={`${T.condition}, ${lineLabel(b.line)}`}
                  data-testid="breakpoint-condition"
                  onBlur={(e) => {
                    try {
                      const next = makeBreakpoint(b.id, b.line, e.target.value, source);
                      setBreakpoints(breakpoints.map((x) => (x.id === b.id ? next : x)));
                    } catch (err) {
                      setLog((l) => [...l, `Error: ${err instanceof Error ? err.message : String(err)}.`]);
                    }
                  }}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') e.currentTarget.blur();
                  }}
                />
              </label>{' '}
              <button type="button" onClick={() => setBreakpoints(breakpoints.filter((x) => x.id !== b.id))}>
                {T.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="controls">
        <button type="button" onClick={() => void exec('reverse-continue')} data-testid="debug-reverse">
          {T.reverse}
        </button>
        <button type="button" onClick={() => void exec('continue')} data-testid="debug-continue">
          {T.cont}
        </button>
        <button type="button" onClick={() => void exec('step')} data-testid="debug-step">
          {T.step}
        </button>
      </div>
      <h4>{T.console}</h4>
      <pre className="debug-log" aria-live="polite" data-testid="debug-log" tabIndex={0}>
        {log.join('\n')}
      </pre>
      <form
        className="controls"
        onSubmit={(e) => {
          e.preventDefault();
          if (command.trim() === '') return;
          void exec(command);
          setCommand('');
        }}
      >
        <label htmlFor={`${id}-cmd`} className="sr-only">
          {T.consoleLabel}
        </label>
        <span aria-hidden="true">(cuda-gdb)</span>
        <input id={`${id}-cmd`} type="text" value={command} onChange={(e) => setCommand(e.target.value)} placeholder={T.consolePlaceholder} data-testid="debug-command" autoComplete="off" spellCheck={false} />
        <button type="submit">{T.send}</button>
      </form>
      <h4>
        <label htmlFor={`${id}-watch`}>{T.watch}</label>
      </h4>
      <input ref={panel} id={`${id}-watch`} type="text" value={watch} onChange={(e) => setWatch(e.target.value)} aria-label={T.watchLabel} data-testid="watch-expression" spellCheck={false} />
      {wantsLocals && (!current || current.state === 'running') && (
        <p className="hint" role="status" data-testid="watch-rerunning">
          {t('watch.rerunning')}
        </p>
      )}
      {wantsLocals && current?.state === 'error' && <p data-testid="watch-error">{t('watch.failed', { message: current.message })}</p>}
      {locals && scopeNames && (
        <p className="hint" data-testid="watch-scope">
          {scopeNames.length > 0 ? (
            <>
              {source ? t('watch.inScopeCuda', { line: source.lineOf(locals.line, 1) ?? locals.line }) : t('watch.inScope', { line: locals.line })} <code>{scopeNames.join(', ')}</code>
            </>
          ) : (
            t('watch.noneInScope', { warp })
          )}
        </p>
      )}
      {cells && 'error' in cells && <p data-testid="watch-error">{T.error(cells.error)}</p>}
      {cells && 'cells' in cells && index && (
        <table className="warp-watch" data-testid="warp-watch">
          <caption>{T.watchCaption(watch, watchWarp, watchStep)}</caption>
          <thead>
            <tr>
              <th scope="col">{T.lane}</th>
              <th scope="col">{T.value}</th>
            </tr>
          </thead>
          <tbody>
            {cells.cells.map((c) => (
              <tr key={c.lane} data-lane={c.lane} data-value={c.value ?? ''} className={c.active ? undefined : 'inactive'}>
                <th scope="row">{c.lane}</th>
                <td>
                  {c.value ?? c.error} {c.active ? '' : T.inactive}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
