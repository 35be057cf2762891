/**
 * Binds a lab session (`session.ts`) to React and to the address: one session per lab view, kept
 * in step with the route (back/forward, links), writing the step and the lane focus back to the
 * URL after a short pause, and the keyboard's timeline actions. In a lesson the lesson owns the
 * address, so nothing is written.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { labRoute, type LabRoute } from '../../workbench/url.ts';
import { createLabSession, type LabSession, type LabSessionState, type SimulateFn } from '../../workbench/session.ts';
import { client, simCache } from '../../workbench/simulation.ts';
import { keepDraft, loadBigDrafts, loadLabDrafts } from '../../workbench/editorDrafts.ts';
import { activeExercise, findExercise, readExerciseFragment, setActiveExercise } from '../../workbench/exercises.ts';
import { openingStep, type AnyLab, type LabVariant, type Params } from '../../workbench/lab.ts';
import type { SimResult } from '../../sim/index.ts';
import { barrierPhase, endOfPhase, findForward, nextStatement, previousStatement, type TraceIndex } from '../../trace/index.ts';
import { useAppStore } from '../../store/index.ts';
import { ui } from '../../i18n/ui.ts';

/** When a lesson hosts the lab: where the timeline starts, and who hears when the trace is ready. */
export interface SessionLessonHooks {
  readonly startAt: (index: TraceIndex) => number;
  readonly onReady: (state: { result: SimResult; index: TraceIndex; step: number }) => void;
}

const simulateOnWorker: SimulateFn = (channel, run, options, onProgress) => client(channel).simulate(run, options, onProgress);

type RoutePatch = Partial<Omit<LabRoute, 'kind' | 'lab'>>;

export interface LabSessionHandle {
  readonly session: LabSession;
  /** Changes what the address names (variant, compare, parameters, workgroup); a new simulation follows. */
  readonly go: (patch: RoutePatch, replace?: boolean) => void;
  /** Sets a parameter by name and starts again from the first step. */
  readonly setParam: (name: string, value: number | string) => void;
  readonly setFocus: (warp: number, lane: number) => void;
}

/** `value`, or while it is undefined, the last value it had (undefined until it has had one). */
/** The draft keys a lab keeps: each variant's WGSL, and its CUDA (`<variant>.cu`) where it has one. */
const draftIds = (lab: AnyLab): string[] => lab.variants.flatMap((v) => (v.cuda !== undefined ? [v.id, `${v.id}.cu`] : [v.id]));

function useLastKnown<T>(value: T | undefined): T | undefined {
  const last = useRef(value);
  if (value !== undefined) last.current = value;
  return last.current;
}

export function useLabSession(
  lab: AnyLab,
  route: LabRoute,
  lesson: SessionLessonHooks | undefined,
  companions: ((variant: LabVariant, params: Params) => readonly { id: string; variant: string; traceAll?: boolean }[]) | undefined,
): LabSessionHandle {
  const navigate = useAppStore((s) => s.navigate);
  const restored = useRef(route.step);
  const opening = useRef(true);
  const lessonRef = useRef(lesson);
  lessonRef.current = lesson;
  // The adapter's limit once known; kept while a lost device is re-acquired ('pending' again), so
  // the parameters do not flip back and forth.
  const limit = useLastKnown(useAppStore((s) => (s.gpuStatus.state === 'ready' ? s.gpuStatus.adapter.limits.maxComputeInvocationsPerWorkgroup : undefined)));
  const shaderF16 = useLastKnown(useAppStore((s) => (s.gpuStatus.state === 'ready' ? s.gpuStatus.adapter.features.includes('shader-f16') : undefined)));
  const request = {
    variant: route.variant,
    compare: route.compare,
    params: route.params,
    workgroup: route.workgroup,
    ...(limit !== undefined ? { device: { maxInvocationsPerWorkgroup: limit, ...(shaderF16 ? { shaderF16: true } : {}) } } : {}),
  };
  const requestKey = JSON.stringify(request);
  const [sharedHash] = useState(() => (lesson || typeof location === 'undefined' || !/^#?draft=/.test(location.hash) ? undefined : location.hash));
  // An exercise link starts from its broken kernel, or from the learner's work on it after a reload.
  const [exercise] = useState(() => {
    if (lesson || typeof location === 'undefined') return undefined;
    const id = readExerciseFragment(location.hash);
    const found = id === undefined ? undefined : findExercise([lab], id);
    return found && found.lab === lab.id ? found : undefined;
  });
  const [session] = useState<LabSession>(() =>
    createLabSession(lab, request, {
      simulate: simulateOnWorker,
      cache: simCache,
      nextTask: () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
      // A lab page opens with its kept drafts and the one a shared link carries; a lesson shows the kernels as written.
      ...(lesson
        ? {}
        : {
            drafts: {
              ...loadLabDrafts(lab.id, draftIds(lab)),
              ...(exercise && activeExercise(lab.id) !== exercise.id ? { [exercise.variant]: exercise.broken } : {}),
            },
            onDraft: (variant: string, source: string | undefined) => {
              void keepDraft(lab.id, variant, source).then((notice) => session.setState({ draftNotice: notice }));
            },
          }),
      // Rendering starts nothing: the effect below simulates, and again after a remount.
      deferStart: true,
      ...(companions ? { companions } : {}),
      startAt(index): number {
        if (lessonRef.current) return lessonRef.current.startAt(index);
        // When the page opens: the address's step if it names one, else the lab's opening moment
        // (a picture that already shows the kernel's point). A later simulation starts at 0.
        const first = opening.current;
        opening.current = false;
        const s: number = restored.current ?? (first ? openingStep(lab, index, session.getState().variant.id) : 0);
        restored.current = undefined;
        return s;
      },
      onReady: (state) => lessonRef.current?.onReady(state),
    }),
  );
  useEffect(() => {
    session.getState().configure(JSON.parse(requestKey) as typeof request);
  }, [session, requestKey]);
  useEffect(() => () => session.getState().dispose(), [session]);
  useEffect(() => {
    if (lessonRef.current) return;
    // A draft linked here is kept like one typed here; one too big for localStorage arrives from IndexedDB.
    if (exercise && activeExercise(lab.id) !== exercise.id) {
      setActiveExercise(lab.id, exercise.id);
      void keepDraft(lab.id, exercise.variant, exercise.broken);
    }
    let live = true;
    // A link's draft: the decompressor loads only for such a link, then the draft replays like one typed here.
    if (sharedHash !== undefined) {
      void import('../../workbench/shareLink.ts').then(({ readSharedDraft }) => {
        const shared = readSharedDraft(sharedHash);
        if (!live || !shared) return;
        if ('error' in shared) session.setState({ draftNotice: shared.error });
        else if (draftIds(lab).includes(shared.variant)) session.getState().setDraft(shared.variant, shared.source);
        else session.setState({ draftNotice: ui('share.unknownVariant', { value: shared.variant.slice(0, 40) }) });
      });
    }
    void loadBigDrafts(lab.id, draftIds(lab)).then((big) => {
      if (!live) return;
      for (const [variant, source] of Object.entries(big)) if (session.getState().drafts[variant] === undefined) session.getState().setDraft(variant, source);
    });
    return () => {
      live = false;
    };
  }, [session, sharedHash, exercise, lab]);

  const go = useCallback(
    (patch: RoutePatch, replace = false) => {
      if (lessonRef.current) return; // the lesson's address names the step; the lab's parameters are fixed
      navigate(labRoute(lab.id as LabRoute['lab'], { ...route, ...patch }), { replace });
    },
    [navigate, lab.id, route],
  );

  // Keep the step in the URL once stepping pauses for a moment (not on every key or frame).
  const step = useStore(session, (s) => s.step);
  const playing = useStore(session, (s) => s.playing);
  const ready = useStore(session, (s) => s.primary.index !== undefined);
  useEffect(() => {
    if (lesson || !ready || playing || restored.current !== undefined || route.step === step) return;
    const timer = window.setTimeout(() => go({ step }, true), 250);
    return () => window.clearTimeout(timer);
  }, [lesson, step, playing, ready, route.step, go]);

  return useMemo(
    () => ({
      session,
      go,
      setParam: (name: string, value: number | string) => go({ params: { ...route.params, [name]: value }, step: undefined }),
      setFocus: (warp: number, lane: number) => {
        session.getState().setFocus(warp, lane);
        go({ warp, lane }, true);
      },
    }),
    [session, go, route.params],
  );
}

/** The timeline's actions over a session's primary trace, for buttons and shortcuts. */
export function timelineActions(s: LabSessionState) {
  const index = s.primary.index;
  const jump = (target: number) => {
    if (target >= 0) s.setStep(target);
  };
  const step = s.step;
  return {
    togglePlay: s.togglePlaying,
    first: () => s.setStep(0),
    last: () => s.setStep(s.stepCount - 1),
    stepBack: () => s.setStep(step - 1),
    stepForward: () => s.setStep(step + 1),
    statementForward: () => index && jump(nextStatement(index, step)),
    statementBack: () => index && jump(previousStatement(index, step)),
    // Barrier to barrier: to the step where the whole workgroup has arrived (the barrier completes).
    barrierForward: () => index && jump(endOfPhase(index, barrierPhase(index, step))),
    barrierBack: () => index && jump(endOfPhase(index, barrierPhase(index, step) - 2)),
    nextDivergence: () => index && jump(findForward(index, step, (t) => index.divergent[t] === 1)),
    nextConflict: () => index && jump(findForward(index, step, (t) => index.wavefronts[t]! > 1)),
    seek: s.setStep,
    slower: s.slower,
    faster: s.faster,
  };
}
