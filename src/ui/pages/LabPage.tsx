import { memo, use, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { t } from '../../i18n/messages.ts';
import { diagnosticKind, ui as uiText } from '../../i18n/ui.ts';
import { useStore } from 'zustand';
import { useShortcuts } from '../shell/shortcuts.ts';
import { alignedStep, type LabSession, type SimSlot } from '../../workbench/session.ts';
import { timelineActions, useLabSession, type LabSessionHandle } from './useLabSession.ts';
import { useLocale } from '../../i18n/useLocale.ts';
import type { LabRoute } from '../../workbench/url.ts';
import { overDeviceLabel, showParam, type AnyLab, type DeviceLimits, type LabVariant, type ParamValue, type Params } from '../../workbench/lab.ts';
import type { CompanionView, LabPanel, LabUi, PanelProps } from '../../workbench/panel.ts';
import { loadLabUi } from '../../labs/uis.ts';
import type { Highlight, StageView } from '../../workbench/lesson.ts';
import { OP_KIND_NAMES, traceStep, type Diagnostic, type Metrics, type Trace } from '../../sim/index.ts';
import { barrierPhase, type TraceIndex } from '../../trace/index.ts';
import { dataflowTree } from '../../trace/memory.ts';
import { levelEnds, nextLevelEnd, previousLevelEnd } from '../../trace/levels.ts';
import { subjectAt } from '../../trace/subject.ts';
import { narrate } from '../../trace/narrate.ts';
import { StageCamera } from '../widgets/StageCamera.tsx';
import { CodePane } from '../panels/CodePane.tsx';
import { LabCodePane } from '../editor/LabCodePane.tsx';
import { ExerciseList } from '../editor/ExerciseList.tsx';
import { Exportable } from '../export/ExportButton.tsx';
import { MetricFigures, MetricsPanel, type StepFacts } from '../panels/MetricsPanel.tsx';
import { PanelBoundary } from '../shell/PanelBoundary.tsx';
import { TimelineBar, type LevelActions } from '../widgets/TimelineBar.tsx';
import { TimingsPanel } from '../panels/TimingsPanel.tsx';
import { BuiltInView, builtInViewsOf, isBuiltInView } from '../panels/BuiltInView.tsx';
import { useServices } from '../shell/services.tsx';
import { SHORT_SCREEN, useMediaQuery, usePrefersReducedMotion } from '../widgets/motion.ts';
import { MoreMenu } from '../widgets/MoreMenu.tsx';
import { useAppStore } from '../../store/index.ts';
import { NoticeBanner } from '../widgets/NoticeBanner.tsx';

const NO_UI: LabUi = { panels: [] };

const Diagnostics = memo(function Diagnostics({ list, file }: { list: readonly Diagnostic[]; file: string }) {
  useLocale();
  if (list.length === 0) return null;
  return (
    <section className="banner banner-warning" role="status" data-testid="diagnostics">
      <h2>
        <span aria-hidden="true">⚠ </span>
        {t('lab.problems', { n: list.length })}
      </h2>
      <ul>
        {list.slice(0, 8).map((d, i) => (
          <li key={i}>
            <strong>{uiText('diag.at', { kind: diagnosticKind(d.kind), where: `${file}:${d.line}:${d.column}` })}</strong>{' '}
            — {d.message}
          </li>
        ))}
      </ul>
      {list.length > 8 && <p>{t('lab.moreProblems', { n: list.length - 8 })}</p>}
    </section>
  );
});

function SimulationProgress({ slot, cancel }: { slot: SimSlot; cancel: () => void }) {
  const status = slot.status;
  if (status.state === 'running') {
    return (
      <div className="panel sim-progress" role="status" data-testid="sim-progress">
        <label>
          {t('lab.simulating', { percent: Math.round(status.progress * 100) })}
          <progress value={status.progress} max={1} />
        </label>
        <button type="button" onClick={cancel}>
          {t('lab.cancel')}
        </button>
      </div>
    );
  }
  if (status.state === 'cancelled') return <p className="banner banner-warning">{t('lab.cancelled')}</p>;
  if (status.state === 'error') {
    return (
      <p className="banner banner-error" role="alert">
        {t('lab.failed', { message: status.message })}
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
  /** Offer the timings drawer in this step (it opens by itself where `stage.drawer` is `timings`). */
  readonly timings: boolean;
  /** Warps and code lines the lesson points at. */
  readonly highlight?: Highlight | undefined;
  /** The stage panel and window the step asks for. */
  readonly stage?: StageView | undefined;
  /** A live class is answering this step's question: stand at the start, before the moment. */
  readonly hold?: boolean;
  /** Counts reveals: each new value plays the replay from where it stands to the moment. */
  readonly reveal?: number;
}

/** How long a reveal takes to play the replay to its moment (none under reduced motion). */
const REVEAL_MS = 2500;

/** What the folded settings are set to, on their disclosure: "Settings: n 4,096 · bins 7 · compared with …". */
function SettingsSummary({ lab, params, compare }: { lab: AnyLab; params: Params; compare: string | undefined }) {
  const values = Object.entries(lab.params).map(([name, field]) => `${field.label} ${showParam(field, params[name]!)}`);
  return (
    <>
      {t('lab.settings')}
      <span className="more-summary">
        {': '}
        {[...values, ...(compare ? [t('lab.comparedWith', { title: compare })] : [])].join(' · ')}
      </span>
    </>
  );
}

/** One control per parameter of the lab's spec, offering what the variant allows. */
function ParamControls({
  lab,
  variant,
  params,
  device,
  setParam,
}: {
  lab: AnyLab;
  variant: LabVariant;
  params: Params;
  device: DeviceLimits | undefined;
  setParam: (name: string, value: ParamValue) => void;
}) {
  const base = useId();
  return (
    <>
      {Object.entries(lab.params).map(([name, field]) => {
        const id = `${base}-${name}`;
        const value = params[name]!;
        const choices = [...new Set([...field.choices(variant, params), value])];
        return (
          <span key={name} className="param-control">
            <label htmlFor={id}>{field.controlLabel ?? field.label[0]!.toUpperCase() + field.label.slice(1)}</label>
            <select
              id={id}
              value={String(value)}
              onChange={(e) => setParam(name, typeof value === 'number' ? Number(e.target.value) : e.target.value)}
              data-testid={`${field.key}-select`}
            >
              {choices.map((c) => {
                // A value the adapter cannot run stays in the list, disabled, saying why (not by colour).
                const over = overDeviceLabel(field, c, variant, params, device);
                return (
                  <option key={String(c)} value={String(c)} disabled={over !== undefined}>
                    {over ?? showParam(field, c)}
                  </option>
                );
              })}
            </select>
          </span>
        );
      })}
    </>
  );
}

/**
 * The lab's title, variant and parameter pickers. None of it follows the step: memoised, so a key
 * press that moves the step re-renders the page without re-listing every parameter's choices.
 */
const LabHead = memo(function LabHead({
  lab,
  variant,
  params,
  compare,
  device,
  short,
  setParam,
  go,
}: {
  lab: AnyLab;
  variant: LabVariant;
  params: Params;
  compare: LabVariant | undefined;
  device: DeviceLimits | undefined;
  short: boolean;
  setParam: (name: string, value: ParamValue) => void;
  go: LabSessionHandle['go'];
}) {
  useLocale(); // its texts follow a language switch despite the memo
  const variantId = useId();
  const compareId = useId();
  return (
    <section className="panel lab-head" aria-labelledby="lab-title">
      <h1 id="lab-title">{lab.title}</h1>
      <div className="controls lab-controls">
        <label htmlFor={variantId}>{t('lab.variant')}</label>
        <select id={variantId} value={variant.id} onChange={(e) => go({ variant: e.target.value, step: undefined })} data-testid="variant-select">
          {lab.variants.map((v) => (
            <option key={v.id} value={v.id}>
              {v.title}
            </option>
          ))}
        </select>
        {/* A short screen: the parameters and the comparison wait behind one disclosure, which
            says what they are set to, so the settings take one row and the stage the height. */}
        <MoreMenu folded={short} className="lab-more" testId="lab-more" label={<SettingsSummary lab={lab} params={params} compare={compare?.title} />}>
          <ParamControls lab={lab} variant={variant} params={params} device={device} setParam={setParam} />
          <span className="param-control">
            <label htmlFor={compareId}>{t('lab.compareWith')}</label>
            <select id={compareId} value={compare?.id ?? ''} onChange={(e) => go({ compare: e.target.value || undefined })} data-testid="compare-select">
              <option value="">{t('lab.compareNothing')}</option>
              {lab.variants
                .filter((v) => v.id !== variant.id)
                .map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.title}
                  </option>
                ))}
            </select>
          </span>
        </MoreMenu>
      </div>
    </section>
  );
});

const companionView = (slot: SimSlot): CompanionView => ({
  variant: slot.variant ?? '',
  state: slot.status.state,
  progress: slot.status.state === 'running' ? slot.status.progress : slot.status.state === 'done' ? 1 : 0,
  ...(slot.status.state === 'error' ? { message: slot.status.message } : {}),
  ...(slot.result ? { result: slot.result } : {}),
  ...(slot.index ? { index: slot.index } : {}),
});

/** A lab's own panel, with the companion simulations it declared. */
function LabPanelView({ panel, session, trace, index, step, window, subject }: { panel: LabPanel; session: LabSession; trace: Trace; index: TraceIndex; step: number; window: PanelProps['window']; subject: PanelProps['subject'] }) {
  const variant = useStore(session, (s) => s.variant);
  const variants = session.getState().lab.variants;
  const params = useStore(session, (s) => s.params);
  const memory = useStore(session, (s) => s.primary.memory);
  const slots = useStore(session, (s) => s.companions);
  const companions = useMemo(() => Object.fromEntries(Object.entries(slots).map(([id, slot]) => [id, companionView(slot)])), [slots]);
  const services = useServices();
  if (panel.applies && !panel.applies(variant, params)) return null;
  const Component = panel.component;
  return (
    <Component trace={trace} index={index} step={step} memory={memory} variant={variant} variants={variants} params={params} companions={companions} seek={(s) => s >= 0 && session.getState().setStep(s)} window={window} services={services} subject={subject} />
  );
}

function stageTitle(id: string, panels: readonly LabPanel[]): string {
  return t.find(`stage.panel.${id}`) ?? panels.find((p) => p.id === id)?.title ?? id;
}

/** The secondary panels, one at a time in a drawer under the timeline; closed, it is one row of tabs. */
type DrawerTab = 'metrics' | 'timings' | 'compare';

/**
 * A lab: pick a variant and parameters, step through the simulated kernel, and time it on the GPU.
 * Layout only (a workbench: code | stage | narration, the timeline under them, secondary panels in
 * a drawer); what is shown, simulated and written to the address lives in the lab session.
 * Inside a lesson the parameters are the lesson's: the pickers, compare mode and the URL stay put.
 */
export function LabPage({ lab, route, lesson, side }: { lab: AnyLab; route: LabRoute; lesson?: LessonFrame | undefined; side?: ReactNode }) {
  // The lab's own panels, a chunk of their own loaded with the page (Suspense waits for them).
  const ui = use(loadLabUi(lab.id)) ?? NO_UI;
  const hooks = useMemo(
    () =>
      lesson && {
        startAt: (index: TraceIndex) => (lesson.hold ? 0 : lesson.startAt(index)),
        onReady: ({ result, index, step }: { result: { trace?: Trace; metrics: Metrics }; index: TraceIndex; step: number }) =>
          result.trace && lesson.onReady({ trace: result.trace, index, metrics: result.metrics, step }),
      },
    [lesson],
  );
  const { session, go, setParam, setFocus } = useLabSession(lab, route, hooks, (v, p) => ui.panels.flatMap((panel) => panel.companions?.(v, p) ?? []));
  const state = useStore(session);
  const { variant, compare, params, notices, workgroup, primary: main, other, step, playing, speedIndex, focusWarp, focusLane } = state;
  const index = main.index;
  const stageId = useId();
  const labList = useMemo(() => [lab], [lab]);
  const actions = useMemo(() => timelineActions(state), [state]);
  const [chosen, setChosen] = useState<string | undefined>();
  // A step with `timings` offers the timings drawer; it opens by itself only where the step is about them (`stage.drawer`).
  const [drawer, setDrawer] = useState<DrawerTab | undefined>(lesson?.stage?.drawer === 'timings' ? 'timings' : undefined);
  // The numbers a lesson step's question needs stand beside the stage, not in the closed drawer.
  const figures = lesson?.stage?.figures ?? (lesson?.stage?.drawer === 'metrics' ? 'all' : undefined);
  const [focused, setFocused] = useState(false);
  const reduced = usePrefersReducedMotion();
  const short = useMediaQuery(SHORT_SCREEN);
  const projector = useAppStore((s) => s.chrome.mode === 'projector');

  // A live question about this step: the replay waits before the moment while the class answers,
  // and plays to it when the teacher reveals the answer.
  const hold = lesson?.hold === true;
  const reveal = lesson?.reveal ?? 0;
  const startAtRef = useRef(lesson?.startAt);
  startAtRef.current = lesson?.startAt;
  useEffect(() => {
    if (hold && index) session.getState().playTo(0, 0);
  }, [hold, index, session]);
  useEffect(() => {
    const startAt = startAtRef.current;
    if (reveal > 0 && index && startAt) session.getState().playTo(startAt(index), reduced ? 0 : REVEAL_MS);
  }, [reveal, index, session]); // eslint-disable-line react-hooks/exhaustive-deps

  // A lesson step's warp and lane become the grid's focus once the trace is there.
  const asked = lesson?.stage;
  const ready = index !== undefined;
  useEffect(() => {
    if (ready && asked && (asked.warp !== undefined || asked.lane !== undefined)) {
      const warps = index.warpCount;
      session.getState().setFocus(Math.min(asked.warp ?? 0, warps - 1), Math.min(asked.lane ?? 0, index.trace.warpSize - 1));
    }
    // Once per trace: the learner may move the focus afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, asked, session]);

  const trace = main.result?.trace;
  const tree = useMemo(() => (trace && main.memory >= 0 ? dataflowTree(trace, main.memory) : undefined), [trace, main.memory]);
  const ends = useMemo(() => (tree ? levelEnds(tree) : []), [tree]);

  const applicable = ui.panels.filter((p) => !p.applies || p.applies(variant, params));
  const available: string[] = [...applicable.map((p) => p.id), ...builtInViewsOf(main.memory, tree)];
  const fallback = ui.stage ?? applicable[0]?.id ?? (tree && tree.nodes.length > 0 ? 'dataflow' : 'warp-grid');
  const stagePanel = [chosen, asked?.panel, fallback].find((id) => id !== undefined && available.includes(id)) ?? 'warp-grid';
  const safeStep = trace ? Math.min(step, Math.max(0, trace.stepCount - 1)) : 0;
  const showsTree = stagePanel === 'dataflow' && ends.length > 1;
  const levels: LevelActions | undefined = showsTree
    ? {
        back: previousLevelEnd(ends, safeStep) >= 0 ? () => actions.seek(previousLevelEnd(ends, safeStep)) : undefined,
        forward: nextLevelEnd(ends, safeStep) >= 0 ? () => actions.seek(nextLevelEnd(ends, safeStep)) : undefined,
      }
    : undefined;

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
    focusStage: () => setFocused((f) => !f),
    ...(levels?.forward ? { levelForward: levels.forward } : {}),
    ...(levels?.back ? { levelBack: levels.back } : {}),
  });

  const view = trace && trace.stepCount > 0 ? traceStep(trace, safeStep) : undefined;
  const description = index ? narrate(index, safeStep) : t('step.none');
  // What the step does: at the top of a lab's side panel, under a lesson's text; it stays while
  // playing (a screen reader hears it only when the learner steps, not at every frame of play).
  const now = (
    <>
      <h2 className="side-now">{t('side.narration')}</h2>
      <p className="step-now" aria-live={playing ? 'off' : 'polite'} data-testid="narration">
        {description}
      </p>
    </>
  );
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
  const warpsOf = (slot: SimSlot) => slot.totalWorkgroups * (slot.index?.warpCount ?? 1);
  // Memoised: a lab's rows may read the whole trace (same-address counts over every atomic, say).
  const extraMetrics = useMemo(
    () => (main.result && lab.metrics ? lab.metrics(main.result.metrics, params, main.variant && main.index ? { variant: main.variant, index: main.index } : undefined) : undefined),
    [lab, main.result, main.variant, main.index, params],
  );
  // The metrics drawer's figures, and the compared variant's beside them.
  const mainMetrics = main.result && { metrics: main.result.metrics, warps: warpsOf(main), step: facts, title: variant.title, warpSize: main.result.trace?.warpSize ?? 32 };
  const otherMetrics = compare && other.result ? { title: compare.title, metrics: other.result.metrics, warps: warpsOf(other) } : undefined;
  const words = asked?.words;
  const hasTrace = trace !== undefined;

  // The step's subject: what the lesson names, else what the trace says this step is about.
  const highlight = lesson?.highlight;
  const subject = useMemo(() => (index ? subjectAt(index, safeStep, main.memory, highlight) : undefined), [index, safeStep, main.memory, highlight]);

  const laneFocus = { warp: focusWarp, lane: focusLane, set: setFocus };
  const toWorkgroup = (g: number) => go({ workgroup: g, step: undefined });
  const treeTitle = ui.treeTitle ?? uiText('tree.reduction');
  // Whatever the stage shows can be exported (SVG, PNG at projector size, a link with a QR code).
  const stageBody = (() => {
    if (!trace || !index) return <p className="hint stage-empty">{t('stage.empty')}</p>;
    if (isBuiltInView(stagePanel)) {
      return <BuiltInView view={stagePanel} frame="export" slot={main} step={safeStep} focus={laneFocus} onWorkgroup={toWorkgroup} treeTitle={treeTitle} marks={{ subject, highlight: lesson?.highlight, words }} />;
    }
    const panel = applicable.find((p) => p.id === stagePanel);
    return (
      panel && (
        <PanelBoundary key={panel.id} id={panel.id} title={panel.title}>
          <Exportable name={panel.id} title={panel.title}>
            <LabPanelView panel={panel} session={session} trace={trace} index={index} step={safeStep} window={words ? { words } : undefined} subject={subject} />
          </Exportable>
        </PanelBoundary>
      )
    );
  })();

  // The other variant's picture for compare mode: its tree when the stage shows a tree, else its warps.
  const otherTrace = other.result?.trace;
  const compareBody =
    compare && !lesson ? (
      <div className="stage-half" data-testid="compare-pane" tabIndex={0} role="region" aria-label={compare.title}>
        <h2 className="stage-half-title">{compare.title}</h2>
        <SimulationProgress slot={other} cancel={() => session.getState().cancel('other')} />
        {other.index && otherTrace && (
          <PanelBoundary id="compare" title={uiText('panel.compare')}>
            <BuiltInView view={stagePanel === 'dataflow' ? 'dataflow' : 'warp-grid'} frame="none" slot={other} step={otherStep} focus={{ ...laneFocus, set: (w, l) => session.getState().setFocus(w, l) }} onWorkgroup={toWorkgroup} treeTitle={treeTitle} />
          </PanelBoundary>
        )}
      </div>
    ) : undefined;

  const drawerTabs: DrawerTab[] = ['metrics', ...(!lesson || lesson.timings ? (['timings'] as const) : []), ...(compare && !lesson ? (['compare'] as const) : [])];

  return (
    <div className={`lab workbench${focused ? ' stage-focused' : ''}${lesson ? ' in-lesson' : ''}${short ? ' short' : ''}`} data-testid="lab" data-variant={variant.id} data-width={lesson ? (asked?.width ?? 'code') : undefined}>
      {!lesson && <LabHead lab={lab} variant={variant} params={params} compare={compare} device={state.device} short={short} setParam={setParam} go={go} />}

      <div className="wb-banners">
        {(notices.length > 0 || workgroup >= main.totalWorkgroups) && (
          <NoticeBanner
            title={t('lab.adjusted')}
            notices={workgroup >= main.totalWorkgroups ? [...notices, t('lab.noWorkgroup', { count: main.totalWorkgroups, asked: workgroup, shown: main.focus })] : notices}
            testId="lab-notices"
          />
        )}
        {main.buildError && (
          <p className="banner banner-error" role="alert">
            {t('lab.cannotRun', { message: main.buildError })}
          </p>
        )}
        {main.result && <Diagnostics list={main.result.diagnostics} file={variant.file} />}
      </div>

      <div className={compare && !lesson ? 'wb-main compare' : 'wb-main'}>
        <div className="wb-code">
          <PanelBoundary id="code" title={uiText('panel.code')}>
            {lesson ? (
              <CodePane wgsl={variant.wgsl} wgslFile={variant.file} cuda={variant.cuda} line={view?.line} column={view?.column} highlight={lesson.highlight?.code} />
            ) : (
              <LabCodePane session={session} onWorkgroup={(g) => go({ workgroup: g, step: undefined })} fallback={{ wgsl: variant.wgsl, file: variant.file, cuda: variant.cuda, line: view?.line, column: view?.column }} />
            )}
          </PanelBoundary>
        </div>

        <section className="panel wb-stage" aria-labelledby={stageId} data-testid="stage" data-panel={stagePanel} data-asked={asked?.panel} data-ready={trace && index ? 'yes' : 'no'}>
          <div className="stage-bar">
            <h2 id={stageId} className="sr-only">
              {t('stage.label')}: {stageTitle(stagePanel, ui.panels)}
            </h2>
            <div className="tabs" role="tablist" aria-label={t('stage.choose')}>
              {available.map((id) => (
                <button
                  key={id}
                  type="button"
                  role="tab"
                  aria-selected={id === stagePanel}
                  tabIndex={id === stagePanel ? 0 : -1}
                  onClick={() => setChosen(id)}
                  onKeyDown={(e) => {
                    const i = available.indexOf(id);
                    const next = e.key === 'ArrowRight' ? available[(i + 1) % available.length] : e.key === 'ArrowLeft' ? available[(i - 1 + available.length) % available.length] : undefined;
                    if (next) {
                      e.preventDefault();
                      e.stopPropagation();
                      setChosen(next);
                      (e.currentTarget.parentElement?.querySelector(`[data-stage-tab="${next}"]`) as HTMLElement | null)?.focus();
                    }
                  }}
                  data-stage-tab={id}
                  data-testid={`stage-tab-${id}`}
                >
                  {stageTitle(id, ui.panels)}
                </button>
              ))}
            </div>
            <button type="button" className="stage-focus" onClick={() => setFocused((f) => !f)} aria-pressed={focused} aria-keyshortcuts="Z" data-testid="stage-focus">
              {focused ? t('stage.unfocus') : t('stage.focus')}
            </button>
          </div>
          <SimulationProgress slot={main} cancel={() => session.getState().cancel('primary')} />
          <div className="stage-panes">
            <StageCamera frameKey={`${stagePanel} ${safeStep} ${hasTrace ? 1 : 0}`} label={stageTitle(stagePanel, ui.panels)}>
              {compareBody && <h2 className="stage-half-title">{variant.title}</h2>}
              {stageBody}
            </StageCamera>
            {compareBody}
          </div>
          {figures && main.result && <MetricFigures metrics={main.result.metrics} warps={warpsOf(main)} names={figures} extra={extraMetrics} step={facts} />}
          {compare && !lesson && <p className="hint compare-note">{t('compare.aligned', { phase: index ? barrierPhase(index, safeStep) : 0 })}</p>}
        </section>

        <aside className="panel wb-side" aria-label={t('side.narration')} data-testid="side" tabIndex={0}>
          {!lesson && now}
          {side ?? (
            <>
              <h2>{t('side.variant')}</h2>
              <p className="variant-summary" data-testid="variant-summary">
                {variant.summary}
              </p>
              {variant.needsSubgroups && <p className="hint">{t('lab.subgroups')}</p>}
              <p className="lab-summary">{lab.summary}</p>
            </>
          )}
          {lesson && (
            <p className="lab-in-lesson" data-testid="lesson-lab">
              {lab.title}: <strong>{variant.title}</strong>
              {Object.entries(lab.params).map(([name, field]) => ` · ${field.label} ${showParam(field, params[name]!)}`)}
            </p>
          )}
          {lesson && now}
          {!lesson && <ExerciseList labs={labList} />}
        </aside>
      </div>

      <PanelBoundary id="timeline" title={uiText('panel.timeline')}>
        {/* One row on a short screen, in projector mode and in a lesson (whose text needs the height): the barrier
            and jump buttons wait behind "Jump to"; their keys work as ever. */}
        <TimelineBar folded={short || projector || lesson !== undefined} step={safeStep} stepCount={trace?.stepCount ?? 0} playing={playing} speedIndex={speedIndex} describe={description} actions={actions} index={index} levels={levels} />
      </PanelBoundary>

      <section className="wb-drawer" aria-label={t('drawer.label')} data-open={drawer ? 'yes' : 'no'}>
        <div className="tabs" role="tablist" aria-label={t('drawer.label')}>
          {drawerTabs.map((tab) => (
            <button key={tab} type="button" role="tab" aria-selected={drawer === tab} aria-expanded={drawer === tab} onClick={() => setDrawer(drawer === tab ? undefined : tab)} data-testid={`drawer-tab-${tab}`}>
              {t(`drawer.${tab}`)} {drawer === tab ? '▾' : '▸'}
            </button>
          ))}
        </div>
        {drawer && (
          <div className="drawer-body" role="tabpanel" tabIndex={0} aria-label={t(`drawer.${drawer}`)}>
            {drawer === 'metrics' && (
              <PanelBoundary id="metrics" title={uiText('panel.metrics')}>
                {mainMetrics && <MetricsPanel {...mainMetrics} extra={extraMetrics} other={otherMetrics} />}
              </PanelBoundary>
            )}
            {drawer === 'timings' && (
              <PanelBoundary id="timings" title={uiText('panel.timings')}>
                <TimingsPanel session={session} />
              </PanelBoundary>
            )}
            {drawer === 'compare' && mainMetrics && otherMetrics && (
              <PanelBoundary id="compare-metrics" title={uiText('panel.compareMetrics')}>
                <MetricsPanel {...mainMetrics} other={otherMetrics} />
              </PanelBoundary>
            )}
          </div>
        )}
      </section>
    </div>
  );
}
