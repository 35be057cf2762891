import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSimulation, type SimChannel } from '../app/simulation.ts';
import { useShortcuts } from '../app/shortcuts.ts';
import { labRoute, type LabRoute } from '../app/url.ts';
import type { KernelRun } from '../kernel/types.ts';
import { supportedWorkgroupSize, type LabDefinition, type LabParams, type LabVariant } from '../labs/lab.ts';
import type { ElementType } from '../labs/types.ts';
import type { Highlight } from '../lessons/types.ts';
import { OP_KIND_NAMES, traceStep, type Diagnostic, type Metrics, type SimResult, type Trace } from '../sim/index.ts';
import { SPEEDS, useAppStore } from '../store/index.ts';
import {
  barrierPhase,
  endOfPhase,
  findForward,
  indexTrace,
  nextStatement,
  previousStatement,
  warpsAt,
  type TraceIndex,
} from '../trace/index.ts';
import { lastAccessOfLane, mainSharedMemory } from '../trace/memory.ts';
import { CodePane } from './CodePane.tsx';
import { DataflowTreeView } from './DataflowTreeView.tsx';
import { MetricsPanel, type StepFacts } from './MetricsPanel.tsx';
import { PanelBoundary } from './PanelBoundary.tsx';
import { SharedMemoryStrip } from './SharedMemoryStrip.tsx';
import { TimelineBar, type TimelineActions } from './TimelineBar.tsx';
import { TimingsPanel } from './TimingsPanel.tsx';
import { WarpGrid } from './WarpGrid.tsx';
import { ScanInsights } from './scan/ScanInsights.tsx';

const WARP_SIZE = 32;
const INPUT_SEED = 1;

interface Resolved {
  readonly variant: LabVariant;
  readonly compare: LabVariant | undefined;
  readonly params: LabParams;
  readonly workgroup: number;
  /** What the address asked for that this lab cannot do, and what is shown instead. */
  readonly notices: readonly string[];
}

/** The most elements the step-through simulates (the timings go further, on the GPU). */
const MAX_STEP_N = 1 << 16;

/** Fills what the route leaves open with the lab's defaults, and fixes what the variant cannot take. */
function resolve(lab: LabDefinition, route: LabRoute): Resolved {
  const notices: string[] = [];
  const fallback = lab.variants.find((v) => v.id === lab.defaultVariant)!;
  let variant = fallback;
  if (route.variant !== undefined) {
    const found = lab.variants.find((v) => v.id === route.variant);
    if (found) variant = found;
    else notices.push(`This lab has no variant “${route.variant}”; showing ${fallback.title}.`);
  }
  let compare: LabVariant | undefined;
  if (route.compare !== undefined) {
    compare = lab.variants.find((v) => v.id === route.compare && v.id !== variant.id);
    if (!compare) notices.push(`Cannot compare with “${route.compare}”: pick another variant of this lab.`);
  }
  let type = lab.defaultParams.type;
  if (route.type !== undefined) {
    if ((variant.elementTypes as readonly string[]).includes(route.type)) type = route.type as ElementType;
    else notices.push(`${variant.title} does not run on ${route.type}; using ${type}.`);
  }
  // The step-through runs on the simulator, which takes any size the variant is written for (up to
  // 1024); the GPU timings pick what the adapter allows.
  const wanted = route.workgroupSize ?? lab.defaultParams.workgroupSize;
  const workgroupSize = supportedWorkgroupSize(variant, wanted);
  if (workgroupSize !== wanted) notices.push(`${variant.title} is written for workgroups of ${variant.workgroupSizes.join(', ')}; using ${workgroupSize}.`);
  let n = route.n ?? lab.defaultParams.n;
  if (n > MAX_STEP_N) {
    notices.push(`Stepping through ${n.toLocaleString('en')} elements would trace too much; simulating ${MAX_STEP_N.toLocaleString('en')}. The timings below go to larger sizes.`);
    n = MAX_STEP_N;
  }
  return { variant, compare, params: { n, workgroupSize, type }, workgroup: route.workgroup ?? 0, notices };
}

function workgroupsOf(run: KernelRun | undefined): number {
  if (!run) return 1;
  const [x, y = 1, z = 1] = run.workgroups;
  return x * y * z;
}

/** One simulated variant: its run, its trace index and what the views need from it. */
function useVariantSimulation(lab: LabDefinition, variant: LabVariant | undefined, params: LabParams, workgroup: number, channel: SimChannel) {
  const input = useMemo(() => lab.makeInput(params, INPUT_SEED), [lab, params]);
  const { run, buildError } = useMemo((): { run: KernelRun | undefined; buildError: string | undefined } => {
    if (!variant) return { run: undefined, buildError: undefined };
    try {
      return { run: lab.stepRun(variant.id, params, input), buildError: undefined };
    } catch (e) {
      return { run: undefined, buildError: e instanceof Error ? e.message : String(e) };
    }
  }, [lab, variant, params, input]);
  const totalWorkgroups = workgroupsOf(run);
  const focus = Math.min(workgroup, totalWorkgroups - 1);
  const { status, cancel } = useSimulation(run, { warpSize: WARP_SIZE, trace: 'full', traceWorkgroups: [focus] }, channel);
  const result: SimResult | undefined = status.state === 'done' ? status.result : undefined;
  const index = useMemo(() => (result?.trace ? indexTrace(result.trace, params.workgroupSize) : undefined), [result, params.workgroupSize]);
  const memory = useMemo(() => (result?.trace ? mainSharedMemory(result.trace) : -1), [result]);
  return { run, status, cancel, result, index, memory, totalWorkgroups, focus, buildError };
}

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

function SimulationProgress({ status, cancel }: { status: ReturnType<typeof useSimulation>['status']; cancel: () => void }) {
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

/**
 * A lab: pick a variant and parameters, step through the simulated kernel, and time it on the GPU.
 * Inside a lesson the parameters are the lesson's: the pickers, compare mode and the URL stay put.
 */
export function LabPage({ lab, route, lesson }: { lab: LabDefinition; route: LabRoute; lesson?: LessonFrame | undefined }) {
  const navigate = useAppStore((s) => s.navigate);
  const step = useAppStore((s) => s.step);
  const stepCount = useAppStore((s) => s.stepCount);
  const playing = useAppStore((s) => s.playing);
  const speedIndex = useAppStore((s) => s.speedIndex);
  const { setStep, setStepCount, togglePlaying, setPlaying, faster, slower } = useAppStore.getState();
  // Keyed by the route's parts that change the simulation, so stepping (which rewrites the URL's
  // step) never re-runs it.
  const { variant: rv, compare: rc, n: rn, workgroupSize: rw, type: rt, workgroup: rg } = route;
  const { variant, compare, params, workgroup, notices } = useMemo(
    () => resolve(lab, labRoute(lab.id, { variant: rv, compare: rc, n: rn, workgroupSize: rw, type: rt, workgroup: rg })),
    [lab, rv, rc, rn, rw, rt, rg],
  );
  const [focusWarp, setFocusWarp] = useState(route.warp ?? 0);
  const [focusLane, setFocusLane] = useState(route.lane ?? 0);
  const main = useVariantSimulation(lab, variant, params, workgroup, 'primary');
  const other = useVariantSimulation(lab, compare, params, workgroup, 'compare');
  const index = main.index;
  const variantId = useId();
  const compareId = useId();
  const nId = useId();
  const wgId = useId();
  const typeId = useId();

  const go = useCallback(
    (patch: Partial<Omit<LabRoute, 'kind' | 'lab'>>, replace = false) => {
      if (lesson) return; // the lesson's address names the step; the lab's parameters are fixed
      navigate(labRoute(lab.id, { ...route, ...patch }), { replace });
    },
    [navigate, lab.id, route, lesson],
  );

  // The trace decides how many steps there are; the URL's step is restored once it is known.
  const restoredStep = useRef(route.step);
  useEffect(() => {
    if (!index) return;
    setStepCount(index.trace.stepCount);
    // A new simulation (other variant or parameters) starts at its first step, unless the URL
    // named a step when the page opened, or a lesson names a moment.
    const start = lesson ? lesson.startAt(index) : (restoredStep.current ?? 0);
    setStep(start);
    restoredStep.current = undefined;
    if (lesson && main.result?.trace) lesson.onReady({ trace: main.result.trace, index, metrics: main.result.metrics, step: start });
    // The lesson frame is rebuilt with each lesson step, which also changes `index`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [index, setStep, setStepCount]);

  // Keep the step in the URL once stepping pauses for a moment (not on every key or frame).
  useEffect(() => {
    if (!index || playing || restoredStep.current !== undefined) return;
    if (route.step === step) return;
    const timer = window.setTimeout(() => go({ step }, true), 250);
    return () => window.clearTimeout(timer);
  }, [step, playing, index, route.step, go]);

  // Playback at the chosen speed; reduced motion does not change what is shown, only how it moves.
  useEffect(() => {
    if (!playing) return;
    const interval = 1000 / SPEEDS[speedIndex]!;
    const timer = window.setInterval(() => {
      const { step: s, stepCount: n } = useAppStore.getState();
      if (s >= n - 1) setPlaying(false);
      else setStep(s + 1);
    }, interval);
    return () => window.clearInterval(timer);
  }, [playing, speedIndex, setStep, setPlaying]);

  const jump = useCallback(
    (target: number) => {
      if (target >= 0) setStep(target);
    },
    [setStep],
  );

  const actions: TimelineActions = useMemo(
    () => ({
      togglePlay: togglePlaying,
      first: () => setStep(0),
      last: () => setStep(stepCount - 1),
      stepBack: () => setStep(step - 1),
      stepForward: () => setStep(step + 1),
      statementForward: () => index && jump(nextStatement(index, step)),
      statementBack: () => index && jump(previousStatement(index, step)),
      // Barrier to barrier: to the step where the whole workgroup has arrived (the barrier completes).
      barrierForward: () => index && jump(endOfPhase(index, barrierPhase(index, step))),
      barrierBack: () => index && jump(endOfPhase(index, barrierPhase(index, step) - 2)),
      nextDivergence: () => index && jump(findForward(index, step, (s) => index.divergent[s] === 1)),
      nextConflict: () => index && jump(findForward(index, step, (s) => index.wavefronts[s]! > 1)),
      seek: setStep,
      slower,
      faster,
    }),
    [togglePlaying, setStep, stepCount, step, index, jump, slower, faster],
  );

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
    slower,
    faster,
  });

  const trace = main.result?.trace;
  const safeStep = trace ? Math.min(step, Math.max(0, trace.stepCount - 1)) : 0;
  const view = trace && trace.stepCount > 0 ? traceStep(trace, safeStep) : undefined;
  const warps = useMemo(() => (index ? warpsAt(index, safeStep) : []), [index, safeStep]);
  const description = describeStep(index, safeStep);
  const facts: StepFacts | undefined =
    view && index
      ? {
          kind: OP_KIND_NAMES[view.kind],
          activeLanes: view.activeCount,
          warpSize: trace!.warpSize,
          wavefronts: index.wavefronts[safeStep]!,
          sectors: index.sectors[safeStep]!,
        }
      : undefined;

  // Compare mode: the other variant at the same barrier phase.
  const otherStep = useMemo(() => {
    if (!compare || !index || !other.index) return 0;
    return endOfPhase(other.index, barrierPhase(index, safeStep));
  }, [compare, index, other.index, safeStep]);
  const otherWarps = useMemo(() => (compare && other.index ? warpsAt(other.index, otherStep) : []), [compare, other.index, otherStep]);

  const setParam = (patch: Partial<Omit<LabRoute, 'kind' | 'lab'>>) => go({ ...patch, step: undefined });

  return (
    <div className="lab" data-testid="lab" data-variant={variant.id}>
      {lesson ? (
        <p className="lab-in-lesson" data-testid="lesson-lab">
          {lab.title}: <strong>{variant.title}</strong> · n = {params.n.toLocaleString('en')} · workgroups of {params.workgroupSize} ·{' '}
          {params.type}
        </p>
      ) : (
        <section className="panel lab-head" aria-labelledby="lab-title">
          <h1 id="lab-title">{lab.title}</h1>
          <p>{lab.summary}</p>
          <div className="controls lab-controls">
            <label htmlFor={variantId}>Variant</label>
            <select id={variantId} value={variant.id} onChange={(e) => setParam({ variant: e.target.value })} data-testid="variant-select">
              {lab.variants.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.title}
                </option>
              ))}
            </select>
            <label htmlFor={nId}>n</label>
            <select id={nId} value={params.n} onChange={(e) => setParam({ n: Number(e.target.value) })} data-testid="n-select">
              {[...new Set([...lab.stepSizes, params.n])].sort((a, b) => a - b).map((n) => (
                <option key={n} value={n}>
                  {n.toLocaleString('en')}
                </option>
              ))}
            </select>
            <label htmlFor={wgId}>Workgroup size</label>
            <select id={wgId} value={params.workgroupSize} onChange={(e) => setParam({ workgroupSize: Number(e.target.value) })}>
              {variant.workgroupSizes.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
            <label htmlFor={typeId}>Type</label>
            <select id={typeId} value={params.type} onChange={(e) => setParam({ type: e.target.value })}>
              {variant.elementTypes.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
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
      <SimulationProgress status={main.status} cancel={main.cancel} />
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
            <WarpGrid
              workgroup={main.focus}
              workgroupCount={main.totalWorkgroups}
              warpSize={trace.warpSize}
              warps={warps}
              focusedWarp={Math.min(focusWarp, warps.length - 1)}
              focusedLane={Math.min(focusLane, trace.warpSize - 1)}
              onFocus={(w, l) => {
                setFocusWarp(w);
                setFocusLane(l);
                go({ warp: w, lane: l }, true);
              }}
              onWorkgroup={(g) => setParam({ workgroup: g })}
              describeLane={(w, l) => lastAccessOfLane(index, w, l, safeStep)}
              highlightWarps={lesson?.highlight?.warps}
              highlightLanes={lesson?.highlight?.lanes}
            />
          )}
          </PanelBoundary>
          <PanelBoundary id="shared-memory" title="the shared-memory strip">
            {trace && main.memory >= 0 && index && <SharedMemoryStrip trace={trace} memory={main.memory} step={safeStep} wavefronts={index.wavefronts[safeStep]!} highlightWords={lesson?.highlight?.words} />}
          </PanelBoundary>
          <PanelBoundary id="dataflow" title="the dataflow tree">
            {trace && <DataflowTreeView trace={trace} memory={main.memory} step={safeStep} kind={lab.tree} />}
          </PanelBoundary>
          <PanelBoundary id="scan-insights" title="the scan insights">
            {lab.id === 'scan' && trace && index && <ScanInsights trace={trace} index={index} step={safeStep} memory={main.memory} variantId={variant.id} params={params} />}
          </PanelBoundary>
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
          <SimulationProgress status={other.status} cancel={other.cancel} />
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
                  onFocus={(w, l) => {
                    setFocusWarp(w);
                    setFocusLane(l);
                  }}
                  onWorkgroup={(g) => setParam({ workgroup: g })}
                  describeLane={(w, l) => (other.index ? lastAccessOfLane(other.index, w, l, otherStep) : '')}
                />
              </div>
              <DataflowTreeView trace={other.result.trace} memory={other.memory} step={otherStep} kind={lab.tree} />
            </div>
          )}
        </section>
      )}
      </PanelBoundary>

      <PanelBoundary id="metrics" title="the metrics panel">
      {main.result && (
        <MetricsPanel
          metrics={main.result.metrics}
          warps={main.totalWorkgroups * Math.ceil(params.workgroupSize / WARP_SIZE)}
          step={facts}
          title={variant.title}
          other={compare && other.result ? { title: compare.title, metrics: other.result.metrics, warps: other.totalWorkgroups * Math.ceil(params.workgroupSize / WARP_SIZE) } : undefined}
        />
      )}
      </PanelBoundary>

      <PanelBoundary id="timings" title="the timings panel">
        {(!lesson || lesson.timings) && <TimingsPanel lab={lab} params={params} />}
      </PanelBoundary>
    </div>
  );
}
