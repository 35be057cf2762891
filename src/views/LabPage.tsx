import { useId, useMemo } from 'react';
import { useStore } from 'zustand';
import { useShortcuts } from '../app/shortcuts.ts';
import { alignedStep, type LabSession, type SimSlot } from '../app/session.ts';
import { timelineActions, useLabSession } from '../app/useLabSession.ts';
import type { LabRoute } from '../app/url.ts';
import type { AnyLab, LabVariant, ParamField, ParamValue, Params } from '../labs/lab.ts';
import type { CompanionView, LabPanel, LabUi } from '../labs/ui.ts';
import { LAB_UIS } from '../labs/uis.ts';
import type { Highlight } from '../lessons/types.ts';
import { OP_KIND_NAMES, traceStep, type Diagnostic, type Metrics, type Trace } from '../sim/index.ts';
import { barrierPhase, warpsAt, type TraceIndex } from '../trace/index.ts';
import { lastAccessOfLane } from '../trace/memory.ts';
import { CodePane } from './CodePane.tsx';
import { DataflowTreeView } from './DataflowTreeView.tsx';
import { Exportable } from './export/ExportButton.tsx';
import { MetricsPanel, type StepFacts } from './MetricsPanel.tsx';
import { PanelBoundary } from './PanelBoundary.tsx';
import { SharedMemoryStrip } from './SharedMemoryStrip.tsx';
import { TimelineBar } from './TimelineBar.tsx';
import { TimingsPanel } from './TimingsPanel.tsx';
import { WarpGrid } from './WarpGrid.tsx';

const NO_UI: LabUi = { panels: [] };

function describeStep(index: TraceIndex | undefined, step: number): string {
  if (!index || index.trace.stepCount === 0) return 'No steps yet.';
  const v = traceStep(index.trace, step);
  const mem = v.memory >= 0 ? ` on ${index.trace.memories[v.memory]?.name ?? '?'}` : '';
  const div = index.divergent[step] ? ' · the warp splits here' : '';
  const conflict = index.wavefronts[step]! > 1 ? ` · ${index.wavefronts[step]}-way bank conflict` : '';
  return `Warp ${v.warp}, line ${v.line}: ${v.kindName}${mem}, ${v.activeCount} of ${index.trace.warpSize} lanes active${div}${conflict}.`;
}

function Diagnostics({ list, file }: { list: readonly Diagnostic[]; file: string }) {
  if (list.length === 0) return null;
  return (
    <section className="banner banner-warning" role="status" data-testid="diagnostics">
      <h2>
        <span aria-hidden="true">⚠ </span>The simulator found {list.length} problem{list.length === 1 ? '' : 's'}
      </h2>
      <ul>
        {list.slice(0, 8).map((d, i) => (
          <li key={i}>
            <strong>
              {d.kind} at {file}:{d.line}:{d.column}
            </strong>{' '}
            — {d.message}
          </li>
        ))}
      </ul>
      {list.length > 8 && <p>…and {list.length - 8} more.</p>}
    </section>
  );
}

function SimulationProgress({ slot, cancel }: { slot: SimSlot; cancel: () => void }) {
  const status = slot.status;
  if (status.state === 'running') {
    return (
      <div className="panel sim-progress" role="status" data-testid="sim-progress">
        <label>
          Simulating warp by warp… {Math.round(status.progress * 100)} %
          <progress value={status.progress} max={1} />
        </label>
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </div>
    );
  }
  if (status.state === 'cancelled') return <p className="banner banner-warning">Simulation cancelled. Change a parameter to run it again.</p>;
  if (status.state === 'error') {
    return (
      <p className="banner banner-error" role="alert">
        The simulation failed: {status.message}
      </p>
    );
  }
  return null;
}

/** When a lesson hosts the lab: where the timeline starts, and who hears when the trace is ready. */
export interface LessonFrame {
  /** The step the lesson's moment names, once the trace is known. */
  readonly startAt: (index: TraceIndex) => number;
  /** Called with the simulated state at that step (for check questions). */
  readonly onReady: (state: { trace: Trace; index: TraceIndex; metrics: Metrics; step: number }) => void;
  /** Show the timings panel in this step. */
  readonly timings: boolean;
  /** Warps and code lines the lesson points at. */
  readonly highlight?: Highlight | undefined;
}

const showValue = (field: ParamField, v: ParamValue) => (field.show ? field.show(v) : String(v));

/** One control per parameter of the lab's spec, offering what the variant allows. */
function ParamControls({ lab, variant, params, setParam }: { lab: AnyLab; variant: LabVariant; params: Params; setParam: (name: string, value: ParamValue) => void }) {
  const base = useId();
  return (
    <>
      {Object.entries(lab.params).map(([name, field]) => {
        const id = `${base}-${name}`;
        const value = params[name]!;
        const choices = [...new Set([...field.choices(variant, params), value])];
        return (
          <span key={name} className="param-control">
            <label htmlFor={id}>{field.label === 'size n' ? 'n' : field.label[0]!.toUpperCase() + field.label.slice(1)}</label>
            <select
              id={id}
              value={String(value)}
              onChange={(e) => setParam(name, typeof value === 'number' ? Number(e.target.value) : e.target.value)}
              data-testid={`${field.key}-select`}
            >
              {choices.map((c) => (
                <option key={String(c)} value={String(c)}>
                  {showValue(field, c)}
                </option>
              ))}
            </select>
          </span>
        );
      })}
    </>
  );
}

const companionView = (slot: SimSlot): CompanionView => ({
  variant: slot.variant ?? '',
  state: slot.status.state,
  progress: slot.status.state === 'running' ? slot.status.progress : slot.status.state === 'done' ? 1 : 0,
  ...(slot.status.state === 'error' ? { message: slot.status.message } : {}),
  ...(slot.result ? { result: slot.result } : {}),
  ...(slot.index ? { index: slot.index } : {}),
});

/** A lab's own panel, with the companion simulations it declared. */
function LabPanelView({ panel, session, trace, index, step }: { panel: LabPanel; session: LabSession; trace: Trace; index: TraceIndex; step: number }) {
  const variant = useStore(session, (s) => s.variant);
  const variants = session.getState().lab.variants;
  const params = useStore(session, (s) => s.params);
  const memory = useStore(session, (s) => s.primary.memory);
  const slots = useStore(session, (s) => s.companions);
  const companions = useMemo(() => Object.fromEntries(Object.entries(slots).map(([id, slot]) => [id, companionView(slot)])), [slots]);
  if (panel.applies && !panel.applies(variant, params)) return null;
  const Component = panel.component;
  return (
    <Component trace={trace} index={index} step={step} memory={memory} variant={variant} variants={variants} params={params} companions={companions} seek={(s) => s >= 0 && session.getState().setStep(s)} />
  );
}

/**
 * A lab: pick a variant and parameters, step through the simulated kernel, and time it on the GPU.
 * Layout only: what is shown, simulated and written to the address lives in the lab session.
 * Inside a lesson the parameters are the lesson's: the pickers, compare mode and the URL stay put.
 */
export function LabPage({ lab, route, lesson }: { lab: AnyLab; route: LabRoute; lesson?: LessonFrame | undefined }) {
  const ui = LAB_UIS[lab.id] ?? NO_UI;
  const hooks = useMemo(
    () =>
      lesson && {
        startAt: lesson.startAt,
        onReady: ({ result, index, step }: { result: { trace?: Trace; metrics: Metrics }; index: TraceIndex; step: number }) =>
          result.trace && lesson.onReady({ trace: result.trace, index, metrics: result.metrics, step }),
      },
    [lesson],
  );
  const { session, go, setParam, setFocus } = useLabSession(lab, route, hooks, (v, p) => ui.panels.flatMap((panel) => panel.companions?.(v, p) ?? []));
  const state = useStore(session);
  const { variant, compare, params, notices, workgroup, primary: main, other, step, playing, speedIndex, focusWarp, focusLane } = state;
  const index = main.index;
  const variantId = useId();
  const compareId = useId();
  const actions = useMemo(() => timelineActions(state), [state]);

  useShortcuts({
    // In a lesson, Space belongs to the clicker (next lesson step); the Play button still plays.
    ...(lesson ? {} : { play: actions.togglePlay, compare: () => go({ compare: compare ? undefined : lab.variants.find((v) => v.id !== variant.id)?.id }) }),
    stepForward: actions.stepForward,
    stepBack: actions.stepBack,
    statementForward: actions.statementForward,
    statementBack: actions.statementBack,
    barrierForward: actions.barrierForward,
    barrierBack: actions.barrierBack,
    nextDivergence: actions.nextDivergence,
    nextConflict: actions.nextConflict,
    first: actions.first,
    last: actions.last,
    slower: actions.slower,
    faster: actions.faster,
  });

  const trace = main.result?.trace;
  const safeStep = trace ? Math.min(step, Math.max(0, trace.stepCount - 1)) : 0;
  const view = trace && trace.stepCount > 0 ? traceStep(trace, safeStep) : undefined;
  const warps = useMemo(() => (index ? warpsAt(index, safeStep) : []), [index, safeStep]);
  const description = describeStep(index, safeStep);
  const facts: StepFacts | undefined =
    view && index && trace
      ? {
          kind: OP_KIND_NAMES[view.kind],
          activeLanes: view.activeCount,
          warpSize: trace.warpSize,
          wavefronts: index.wavefronts[safeStep]!,
          sectors: index.sectors[safeStep]!,
          sectorBytes: trace.hardware.sectorBytes,
        }
      : undefined;

  // Compare mode: the other variant at the same barrier phase.
  const otherStep = compare ? alignedStep(index, other.index, safeStep) : 0;
  const otherWarps = useMemo(() => (compare && other.index ? warpsAt(other.index, otherStep) : []), [compare, other.index, otherStep]);
  const warpsOf = (slot: SimSlot) => slot.totalWorkgroups * (slot.index?.warpCount ?? 1);
  // Memoised: a lab's rows may scan the whole trace (the histogram's same-address counts).
  const extraMetrics = useMemo(
    () => (main.result && lab.metrics ? lab.metrics(main.result.metrics, params, main.variant && main.index ? { variant: main.variant, index: main.index } : undefined) : undefined),
    [lab, main.result, main.variant, main.index, params],
  );

  return (
    <div className="lab" data-testid="lab" data-variant={variant.id}>
      {lesson ? (
        <p className="lab-in-lesson" data-testid="lesson-lab">
          {lab.title}: <strong>{variant.title}</strong>
          {Object.entries(lab.params).map(([name, field]) => ` · ${field.label} ${showValue(field, params[name]!)}`)}
        </p>
      ) : (
        <section className="panel lab-head" aria-labelledby="lab-title">
          <h1 id="lab-title">{lab.title}</h1>
          <p>{lab.summary}</p>
          <div className="controls lab-controls">
            <label htmlFor={variantId}>Variant</label>
            <select id={variantId} value={variant.id} onChange={(e) => go({ variant: e.target.value, step: undefined })} data-testid="variant-select">
              {lab.variants.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.title}
                </option>
              ))}
            </select>
            <ParamControls lab={lab} variant={variant} params={params} setParam={setParam} />
            <label htmlFor={compareId}>Compare with</label>
            <select id={compareId} value={compare?.id ?? ''} onChange={(e) => go({ compare: e.target.value || undefined })} data-testid="compare-select">
              <option value="">— nothing —</option>
              {lab.variants
                .filter((v) => v.id !== variant.id)
                .map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.title}
                  </option>
                ))}
            </select>
          </div>
          <p className="variant-summary" data-testid="variant-summary">
            {variant.summary}
          </p>
          {variant.needsSubgroups && <p className="hint">Uses subgroup operations; the simulator runs them with 32-lane warps (subgroup = warp).</p>}
        </section>
      )}

      {(notices.length > 0 || workgroup >= main.totalWorkgroups) && (
        <section className="banner banner-warning" role="status" data-testid="lab-notices">
          <h2>
            <span aria-hidden="true">ⓘ </span>Adjusted to what this lab can show
          </h2>
          <ul>
            {notices.map((n) => (
              <li key={n}>{n}</li>
            ))}
            {workgroup >= main.totalWorkgroups && (
              <li>
                There are {main.totalWorkgroups} workgroups at these settings, so workgroup {workgroup} does not exist; showing workgroup{' '}
                {main.focus}.
              </li>
            )}
          </ul>
        </section>
      )}
      {main.buildError && (
        <p className="banner banner-error" role="alert">
          These parameters cannot run: {main.buildError}
        </p>
      )}
      <SimulationProgress slot={main} cancel={() => session.getState().cancel('primary')} />
      {main.result && <Diagnostics list={main.result.diagnostics} file={variant.file} />}

      <PanelBoundary id="timeline" title="the timeline">
        <TimelineBar step={safeStep} stepCount={trace?.stepCount ?? 0} playing={playing} speedIndex={speedIndex} describe={description} actions={actions} />
      </PanelBoundary>
      <p className="sr-only" aria-live="polite" data-testid="narration">
        {playing ? '' : description}
      </p>

      <div className={compare ? 'lab-grid compare' : 'lab-grid'}>
        <PanelBoundary id="code" title="the code pane">
          <CodePane wgsl={variant.wgsl} wgslFile={variant.file} cuda={variant.cuda} line={view?.line} column={view?.column} highlight={lesson?.highlight?.code} />
        </PanelBoundary>
        <div className="lab-views">
          <PanelBoundary id="warp-grid" title="the warp grid">
          {index && trace && (
            <Exportable name="warp-grid" title="the warp grid">
            <WarpGrid
              workgroup={main.focus}
              workgroupCount={main.totalWorkgroups}
              warpSize={trace.warpSize}
              warps={warps}
              focusedWarp={Math.min(focusWarp, warps.length - 1)}
              focusedLane={Math.min(focusLane, trace.warpSize - 1)}
              onFocus={setFocus}
              onWorkgroup={(g) => go({ workgroup: g, step: undefined })}
              describeLane={(w, l) => lastAccessOfLane(index, w, l, safeStep)}
              highlightWarps={lesson?.highlight?.warps}
              highlightLanes={lesson?.highlight?.lanes}
            />
            </Exportable>
          )}
          </PanelBoundary>
          <PanelBoundary id="shared-memory" title="the shared-memory strip">
            {trace && main.memory >= 0 && index && <Exportable name="memory" title="the shared-memory strip"><SharedMemoryStrip trace={trace} memory={main.memory} step={safeStep} wavefronts={index.wavefronts[safeStep]!} highlightWords={lesson?.highlight?.words} /></Exportable>}
          </PanelBoundary>
          <PanelBoundary id="dataflow" title="the dataflow tree">
            {trace && <Exportable name="tree" title="the dataflow tree"><DataflowTreeView trace={trace} memory={main.memory} step={safeStep} title={ui.treeTitle ?? 'Reduction tree'} /></Exportable>}
          </PanelBoundary>
          {trace &&
            index &&
            ui.panels.map((panel) => (
              <PanelBoundary key={panel.id} id={panel.id} title={panel.title}>
                <Exportable name={panel.id} title={panel.title}><LabPanelView panel={panel} session={session} trace={trace} index={index} step={safeStep} /></Exportable>
              </PanelBoundary>
            ))}
        </div>
      </div>

      <PanelBoundary id="compare" title="the side-by-side comparison">
      {compare && !lesson && (
        <section className="panel compare-pane" aria-labelledby="compare-title" data-testid="compare-pane">
          <h2 id="compare-title">
            Side by side: {variant.title} ↔ {compare.title}
          </h2>
          <p className="hint">
            Aligned by barrier phase: both panes show the workgroup after the same number of completed barriers (phase{' '}
            {index ? barrierPhase(index, safeStep) : 0}).
          </p>
          <SimulationProgress slot={other} cancel={() => session.getState().cancel('other')} />
          {other.index && other.result?.trace && (
            <div className="compare-grid">
              <div>
                <h3>{compare.title}</h3>
                <WarpGrid
                  workgroup={other.focus}
                  workgroupCount={other.totalWorkgroups}
                  warpSize={other.result.trace.warpSize}
                  warps={otherWarps}
                  focusedWarp={Math.min(focusWarp, otherWarps.length - 1)}
                  focusedLane={focusLane}
                  onFocus={(w, l) => session.getState().setFocus(w, l)}
                  onWorkgroup={(g) => go({ workgroup: g, step: undefined })}
                  describeLane={(w, l) => (other.index ? lastAccessOfLane(other.index, w, l, otherStep) : '')}
                />
              </div>
              <DataflowTreeView trace={other.result.trace} memory={other.memory} step={otherStep} title={ui.treeTitle ?? 'Reduction tree'} />
            </div>
          )}
        </section>
      )}
      </PanelBoundary>

      <PanelBoundary id="metrics" title="the metrics panel">
      {main.result && (
        <MetricsPanel
          metrics={main.result.metrics}
          warps={warpsOf(main)}
          step={facts}
          title={variant.title}
          warpSize={main.result.trace?.warpSize ?? 32}
          extra={extraMetrics}
          other={compare && other.result ? { title: compare.title, metrics: other.result.metrics, warps: warpsOf(other) } : undefined}
        />
      )}
      </PanelBoundary>

      <PanelBoundary id="timings" title="the timings panel">
        {(!lesson || lesson.timings) && <TimingsPanel session={session} />}
      </PanelBoundary>
    </div>
  );
}
