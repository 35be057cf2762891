/**
 * A lab session: everything one lab view holds, in a zustand vanilla store outside React, so a
 * page, a compare pane or an embed can each hold one and tests can drive one without a DOM.
 *
 * It owns the variant, the parameters and what was adjusted (notices); the primary, compare and
 * companion simulations (worker jobs with progress and cancel); the step, the play clock and its
 * speed; the focus (workgroup, warp, lane); and drafts of kernel sources. `LabPage` only lays
 * out views over it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KernelRun } from '../kernel/types.ts';
import { INPUT_SEED, resolveParams, type AnyLab, type DeviceLimits, type LabVariant, type ParamValue, type Params } from './lab.ts';
import type { SimOptions, SimResult } from '../sim/index.ts';
import { CAPABLE_ADAPTER_LIMITS } from '../sim/program.ts';
import { barrierPhase, endOfPhase, indexTrace, type TraceIndex } from '../trace/index.ts';
import { mainSharedMemory } from '../trace/memory.ts';
import { DEFAULT_HARDWARE } from '../sim/hardware.ts';
import type { SimJob } from '../sim/workerClient.ts';
import type { BandwidthBaselines, GpuExecutor } from '../gpu/executor.ts';
import type { KernelExecutor } from './labTypes.ts';
import { timingSweep, type TimingRow } from './sweep.ts';
import { ui } from '../i18n/ui.ts';
import { simKey, type SimCache } from './simCache.ts';
import { subscribeLocale } from '../i18n/locale.ts';

/** Play speeds in warp instructions per second. */
export const SPEEDS = [1, 2, 4, 8, 16, 32, 64, 128, 256] as const;

/** Warp instructions a draft's step-through may take (an endless loop ends here with a step-limit diagnostic). */
export const DRAFT_MAX_STEPS = 2_000_000;

/**
 * Bytes a draft's trace may hold: about 25 000 steps at 32 lanes, where the labs' kernels trace
 * their one workgroup in a few thousand. Past it an endless loop's trace stops (a trace-limit
 * note) and the run goes on counting to the step limit, so indexing the trace cannot block the page.
 */
export const DRAFT_TRACE_BYTES = 4 * 2 ** 20;

/**
 * How often, at most, a running simulation's progress reaches the page, in milliseconds. The worker
 * reports every whole percent, and each report renders the lab page and its stage again: a hundred
 * renders within a fast run's fraction of a second, on the main thread that then has to take the
 * run's result. A bar that moves ten times a second reads the same.
 */
export const PROGRESS_MS = 100;

/** The seed of the inputs the step-through simulates (the lab contract's, so labs can rebuild them). */
export { INPUT_SEED };

/** Starts one simulation on a channel; a new one on the same channel cancels the old. */
export type SimulateFn = (channel: string, run: KernelRun, options: SimOptions, onProgress: (fraction: number) => void) => SimJob;

export type SimulationState =
  | { readonly state: 'idle' }
  | { readonly state: 'running'; readonly progress: number }
  | { readonly state: 'done'; readonly result: SimResult }
  | { readonly state: 'error'; readonly message: string }
  | { readonly state: 'cancelled' };

/** One simulated variant: its run, its status, and once done its trace index. */
export interface SimSlot {
  readonly variant: string | undefined;
  readonly run: KernelRun | undefined;
  readonly buildError: string | undefined;
  readonly status: SimulationState;
  readonly result: SimResult | undefined;
  readonly index: TraceIndex | undefined;
  /** The main workgroup memory (`mainSharedMemory`), -1 for none. */
  readonly memory: number;
  readonly totalWorkgroups: number;
  /** The traced workgroup: the one asked for, within range. */
  readonly focus: number;
  /** The options the run was simulated with (the warp watch re-runs it with the same ones). */
  readonly simOptions?: SimOptions;
}

/** A simulation a panel declares it needs beside the primary one (e.g. a variant's twin for a side table). */
export interface CompanionSpec {
  readonly id: string;
  readonly variant: string;
  /** Trace every workgroup, not only the focus (for whole-dispatch counts; keep such runs small). */
  readonly traceAll?: boolean;
}

/** What a route or a lesson asks the session to show. */
export interface SessionRequest {
  readonly variant: string | undefined;
  readonly compare: string | undefined;
  readonly params: Readonly<Partial<Record<string, ParamValue>>>;
  readonly workgroup: number | undefined;
  /**
   * What the learner's adapter allows, once known: parameters that size the workgroup are fitted
   * to it, and the simulator checks the kernel against it as the browser would.
   */
  readonly device?: DeviceLimits | undefined;
}

/** The timing sweep's state: rows as they are measured, the baselines, a progress line or an error. */
export interface TimingsState {
  readonly rows: readonly TimingRow[];
  readonly baseline: BandwidthBaselines | undefined;
  readonly progress: string | undefined;
  readonly error: string | undefined;
}

/** What a timing sweep runs on and over. */
export interface TimingPlan {
  readonly gpu: GpuExecutor;
  /** Checks the simulator's output too, up to `simLimit` elements. */
  readonly sim?: KernelExecutor;
  readonly simLimit?: number;
  readonly sizes: readonly number[];
  readonly baselineBytes: number;
  readonly repeats: number;
  readonly hasSubgroups: boolean;
  readonly maxInvocations: number;
  /** Words for a failure (GPU errors carry a hint). */
  readonly describeError: (e: unknown) => string;
}

export interface LabSessionState {
  readonly lab: AnyLab;
  readonly variant: LabVariant;
  readonly compare: LabVariant | undefined;
  readonly params: Params;
  readonly notices: readonly string[];
  readonly workgroup: number;
  /** The adapter's limits the parameters were fitted to (undefined while none is known). */
  readonly device: DeviceLimits | undefined;
  readonly primary: SimSlot;
  readonly other: SimSlot;
  readonly companions: Readonly<Record<string, SimSlot>>;
  readonly step: number;
  readonly stepCount: number;
  readonly playing: boolean;
  readonly speedIndex: number;
  readonly focusWarp: number;
  readonly focusLane: number;
  /** Edited kernel sources by variant id; a draft replaces the variant's WGSL in the step-through. */
  readonly drafts: Readonly<Record<string, string>>;
  /** Where drafts could not be kept as usual, or why a shared draft did not open (a sentence), if so. */
  readonly draftNotice: string | undefined;
  readonly timings: TimingsState;

  readonly configure: (request: SessionRequest) => void;
  readonly setStep: (step: number) => void;
  readonly setPlaying: (playing: boolean) => void;
  readonly togglePlaying: () => void;
  /**
   * Plays from the current step forward to `target` in about `durationMs` (several steps a frame
   * when the way is long), then stops there; at once when `durationMs` is 0 or the target lies behind.
   */
  readonly playTo: (target: number, durationMs: number) => void;
  readonly faster: () => void;
  readonly slower: () => void;
  readonly setFocus: (warp: number, lane: number) => void;
  readonly setDraft: (variant: string, source: string | undefined) => void;
  /**
   * The step-through's kernel in another language (the editor's CUDA mode): given the variant's
   * pass, the launch that replaces it, or undefined to replay the WGSL. Setting it replays.
   */
  readonly translate: ((variant: string, run: KernelRun) => KernelRun | undefined) | undefined;
  readonly setTranslate: (translate: ((variant: string, run: KernelRun) => KernelRun | undefined) | undefined) => void;
  readonly cancel: (slot: string) => void;
  /** Times every variant the adapter runs at the session's parameters over `plan.sizes`. */
  readonly measureTimings: (plan: TimingPlan) => Promise<void>;
  readonly cancelTimings: () => void;
  readonly dispose: () => void;
}

export interface SessionOptions {
  readonly simulate: SimulateFn;
  /** Companion simulations the lab's panels declare for a variant and parameters. */
  readonly companions?: (variant: LabVariant, params: Params) => readonly CompanionSpec[];
  /** The step to open at once the primary trace is known (a lesson's moment, or the address's step). */
  readonly startAt?: (index: TraceIndex) => number;
  /** Called once the primary trace is ready, with the step it opened at. */
  readonly onReady?: (state: { result: SimResult; index: TraceIndex; step: number }) => void;
  /** Leaves the first simulation to the first `configure` (React starts it in an effect). */
  readonly deferStart?: boolean;
  /** Drafts to open with (kept ones, or one a shared link carries), by variant id. */
  readonly drafts?: Readonly<Record<string, string>>;
  /** Told of every draft change (to keep it across reloads); `undefined` means back to the original. */
  readonly onDraft?: (variant: string, source: string | undefined) => void;
  /** Warp instructions a draft's simulation may take before it is stopped with a step-limit diagnostic. */
  readonly draftMaxSteps?: number;
  /**
   * Resolves in a later task of the page (the app passes a zero timeout). Between indexing a
   * finished trace and showing it, so the two never make one long task; without it both run at once.
   */
  readonly nextTask?: () => Promise<void>;
  /**
   * Finished simulations of the labs' own kernels to reuse (the app passes one for the page): a run
   * found there shows at once instead of simulating again. Drafts and translated kernels are not kept.
   */
  readonly cache?: SimCache;
  /** A timer for the play clock (tests pass a fake). */
  readonly timer?: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
}

export type LabSession = StoreApi<LabSessionState>;

const EMPTY_SLOT: SimSlot = {
  variant: undefined,
  run: undefined,
  buildError: undefined,
  status: { state: 'idle' },
  result: undefined,
  index: undefined,
  memory: -1,
  totalWorkgroups: 1,
  focus: 0,
};

const clampStep = (step: number, count: number): number => Math.max(0, Math.min(Math.max(0, count - 1), step));

function workgroupsOf(run: KernelRun | undefined): number {
  if (!run) return 1;
  const [x, y = 1, z = 1] = run.workgroups;
  return x * y * z;
}

/** The step of the compare trace at the primary step's barrier phase. */
export function alignedStep(primary: TraceIndex | undefined, other: TraceIndex | undefined, step: number): number {
  if (!primary || !other) return 0;
  return endOfPhase(other, barrierPhase(primary, step));
}

/** Creates a session for `lab`, showing what `request` asks for. */
export function createLabSession(lab: AnyLab, request: SessionRequest, options: SessionOptions): LabSession {
  const jobs = new Map<string, SimJob>();
  let clock: unknown;
  const timer = options.timer ?? {
    set: (fn: () => void, ms: number) => setInterval(fn, ms),
    clear: (h: unknown) => clearInterval(h as ReturnType<typeof setInterval>),
  };
  let key = '';
  /** The request the session shows, and the end of its subscription to language switches. */
  let lastRequest = request;
  let stopLocale: (() => void) | undefined;
  /** Bumped to cancel the timing sweep in flight (it checks between timings). */
  let timingRun = 0;

  const store = createStore<LabSessionState>()((set, get) => {
    /** Builds and starts the simulation of `variant` into the slot named `slot`. */
    function start(slot: string, variant: LabVariant | undefined, params: Params, workgroup: number, traceAll = false, keepStep?: number): SimSlot {
      jobs.get(slot)?.cancel();
      jobs.delete(slot);
      if (!variant) return EMPTY_SLOT;
      let run: KernelRun;
      let translated: boolean;
      try {
        const translate = get().translate;
        const own = lab.stepRun(variant.id, params, lab.inputs(params, INPUT_SEED), translate ? undefined : get().drafts[variant.id]);
        run = (translate && translate(variant.id, own)) || own;
        translated = run !== own;
      } catch (e) {
        return { ...EMPTY_SLOT, variant: variant.id, buildError: e instanceof Error ? e.message : String(e) };
      }
      const totalWorkgroups = workgroupsOf(run);
      const focus = Math.min(workgroup, totalWorkgroups - 1);
      // Progress may be reported before `simulate` returns: it is ignored until the job is known.
      const started: { job?: SimJob } = {};
      const draft = translated || get().drafts[variant.id] !== undefined;
      const simOptions: SimOptions = {
        warpSize: DEFAULT_HARDWARE.warpSize,
        trace: 'full',
        ...(traceAll ? {} : { traceWorkgroups: [focus] }),
        ...(get().device ? { limits: { ...CAPABLE_ADAPTER_LIMITS, maxComputeInvocationsPerWorkgroup: get().device!.maxInvocationsPerWorkgroup } } : {}),
        ...(get().device?.shaderF16 ? { shaderF16: true } : {}),
        // An edit may loop: stop it by steps, and keep its trace small enough to index on the main thread.
        ...(draft ? { maxSteps: options.draftMaxSteps ?? DRAFT_MAX_STEPS, maxTraceBytes: DRAFT_TRACE_BYTES } : {}),
      };
      const key = options.cache && !draft ? simKey(lab.id, variant.id, params, INPUT_SEED, simOptions) : undefined;
      const kept = key === undefined ? undefined : options.cache?.get(key);
      // The first report shows at once; later ones at most every PROGRESS_MS, the latest kept.
      let shownAt = -Infinity;
      let latest = 0;
      let due: ReturnType<typeof setTimeout> | undefined;
      const show = () => {
        due = undefined;
        shownAt = Date.now();
        if (started.job) update(slot, started.job, { status: { state: 'running', progress: latest } });
      };
      const mine: SimJob = kept
        ? { promise: Promise.resolve(kept.result), cancel: () => {} }
        : options.simulate(slot, run, simOptions, (progress) => {
            if (!started.job) return;
            latest = progress;
            const wait = shownAt + PROGRESS_MS - Date.now();
            if (wait <= 0) show();
            else due ??= setTimeout(show, wait);
          });
      started.job = mine;
      jobs.set(slot, mine);
      // Once the job ends, a report still waiting would show it running again.
      const settled = () => clearTimeout(due);
      mine.promise.then(settled, settled);
      mine.promise.then(
        async (result) => {
          if (jobs.get(slot) !== mine) return; // a newer run took the slot
          const index = kept ? kept.index : result.trace ? indexTrace(result.trace) : undefined;
          const memory = kept ? kept.memory : result.trace ? mainSharedMemory(result.trace) : -1;
          // A finished run is kept; a stopped one (step limit, cancel) is not.
          if (key !== undefined && !kept && !result.incomplete) options.cache?.put(key, { result, index, memory });
          if (options.nextTask) {
            await options.nextTask();
            if (jobs.get(slot) !== mine) return;
          }
          const patch: Partial<SimSlot> = { status: { state: 'done', result }, result, index, memory };
          if (slot === 'primary' && index && result.trace) {
            // A replayed edit keeps the step it stood on, where that step still exists.
            const first = keepStep !== undefined ? keepStep : options.startAt ? options.startAt(index) : 0;
            // One store update for the result and its step: every update renders the page once.
            update(slot, mine, patch, { stepCount: result.trace.stepCount, step: clampStep(first, result.trace.stepCount) });
            options.onReady?.({ result, index, step: get().step });
          } else update(slot, mine, patch);
        },
        (e: unknown) => {
          const cancelled = e instanceof Error && e.name === 'SimCancelled';
          update(slot, mine, { status: cancelled ? { state: 'cancelled' } : { state: 'error', message: e instanceof Error ? e.message : String(e) } });
        },
      );
      return { ...EMPTY_SLOT, variant: variant.id, run, simOptions, status: { state: 'running', progress: 0 }, totalWorkgroups, focus };
    }

    /** Applies a job's news to its slot, unless a newer job has taken the slot since. */
    function update(slot: string, job: SimJob, patch: Partial<SimSlot>, also: Partial<LabSessionState> = {}): void {
      if (jobs.get(slot) !== job) return;
      const s = get();
      if (slot === 'primary') set({ ...also, primary: { ...s.primary, ...patch } });
      else if (slot === 'other') set({ ...also, other: { ...s.other, ...patch } });
      else if (s.companions[slot]) set({ ...also, companions: { ...s.companions, [slot]: { ...s.companions[slot], ...patch } } });
    }

    function simulateAll(keepStep?: number): void {
      const s = get();
      stopClock();
      const primary = start('primary', s.variant, s.params, s.workgroup, false, keepStep);
      const other = start('other', s.compare, s.params, s.workgroup);
      for (const id of Object.keys(s.companions)) if (jobs.has(id)) jobs.get(id)!.cancel();
      const companions: Record<string, SimSlot> = {};
      for (const c of options.companions?.(s.variant, s.params) ?? []) {
        companions[c.id] = start(c.id, lab.variants.find((v) => v.id === c.variant), s.params, s.workgroup, c.traceAll);
      }
      set({ primary, other, companions, stepCount: 0, step: 0, playing: false });
    }

    function stopClock(): void {
      if (clock !== undefined) timer.clear(clock);
      clock = undefined;
    }

    function startClock(): void {
      stopClock();
      clock = timer.set(
        () => {
          const { step, stepCount } = get();
          if (step >= stepCount - 1) get().setPlaying(false);
          else set({ step: step + 1 });
        },
        1000 / SPEEDS[get().speedIndex]!,
      );
    }

    const resolved = resolveRequest(lab, request);
    key = requestKey(resolved);
    lastRequest = request;
    return {
      lab,
      ...resolved,
      primary: EMPTY_SLOT,
      other: EMPTY_SLOT,
      companions: {},
      step: 0,
      stepCount: 0,
      playing: false,
      speedIndex: 3,
      focusWarp: 0,
      focusLane: 0,
      drafts: { ...(options.drafts ?? {}) },
      draftNotice: undefined,
      translate: undefined,
      timings: { rows: [], baseline: undefined, progress: undefined, error: undefined },

      configure: (req) => {
        const next = resolveRequest(lab, req);
        const nextKey = requestKey(next);
        lastRequest = req;
        // The notices are sentences in the language shown: a switch (or its catalog arriving) writes them anew.
        stopLocale ??= subscribeLocale(() => set({ notices: resolveRequest(lab, lastRequest).notices }));
        if (nextKey === key) return;
        key = nextKey;
        set(next);
        simulateAll();
      },
      setStep: (step) => set({ step: clampStep(step, get().stepCount) }),
      setPlaying: (playing) => {
        if (playing) startClock();
        else stopClock();
        set({ playing });
      },
      togglePlaying: () => {
        const { playing, step, stepCount } = get();
        // Play from the start when standing at the end.
        if (!playing && step >= stepCount - 1) set({ step: 0 });
        get().setPlaying(!playing);
      },
      playTo: (target, durationMs) => {
        const { stepCount, step } = get();
        const goal = clampStep(target, stepCount);
        stopClock();
        if (goal <= step || durationMs <= 0) {
          set({ step: goal, playing: false });
          return;
        }
        const frame = 40;
        const stride = Math.max(1, Math.ceil((goal - step) / Math.max(1, Math.round(durationMs / frame))));
        set({ playing: true });
        clock = timer.set(() => {
          const now = get().step;
          if (now + stride >= goal) {
            stopClock();
            set({ step: goal, playing: false });
          } else set({ step: now + stride });
        }, frame);
      },
      faster: () => {
        set({ speedIndex: Math.min(SPEEDS.length - 1, get().speedIndex + 1) });
        if (get().playing) startClock();
      },
      slower: () => {
        set({ speedIndex: Math.max(0, get().speedIndex - 1) });
        if (get().playing) startClock();
      },
      setFocus: (focusWarp, focusLane) => set({ focusWarp, focusLane }),
      setDraft: (variant, source) => {
        const drafts = { ...get().drafts };
        if (source === undefined) delete drafts[variant];
        else drafts[variant] = source;
        set({ drafts });
        options.onDraft?.(variant, source);
        const base = variant.replace(/\.cu$/, '');
        if (base === get().variant.id || base === get().compare?.id) simulateAll(get().step);
      },
      setTranslate: (translate) => {
        // WGSL stays WGSL: the editor clears the translation as it mounts, and that must not replay.
        if (translate === get().translate) return;
        set({ translate });
        simulateAll(get().step);
      },
      cancel: (slot) => {
        jobs.get(slot)?.cancel();
      },
      measureTimings: async (plan) => {
        const run = ++timingRun;
        const patch = (t: Partial<TimingsState>) => {
          if (run === timingRun) set({ timings: { ...get().timings, ...t } });
        };
        set({ timings: { rows: [], baseline: undefined, progress: ui('timings.baselines'), error: undefined } });
        try {
          const baselines = await plan.gpu.baselines(plan.baselineBytes, { repeats: plan.repeats });
          patch({ baseline: baselines });
          const rows = timingSweep(lab, get().params, {
            ...plan,
            baselines,
            cancelled: () => run !== timingRun,
            onProgress: (progress) => patch({ progress }),
          });
          for await (const row of rows) patch({ rows: [...get().timings.rows, row] });
          patch({ progress: undefined });
        } catch (e) {
          patch({ progress: undefined, error: plan.describeError(e) });
        }
      },
      cancelTimings: () => {
        timingRun++;
        set({ timings: { ...get().timings, progress: undefined } });
      },
      dispose: () => {
        timingRun++;
        // A later `configure` (React remounting the same view) simulates again.
        key = '';
        stopLocale?.();
        stopLocale = undefined;
        stopClock();
        for (const job of jobs.values()) job.cancel();
        jobs.clear();
      },
    };
  });
  // The first simulations start once the store exists: clear the key so `configure` runs them.
  key = '';
  if (!options.deferStart) store.getState().configure(request);
  return store;
}

function resolveRequest(lab: AnyLab, req: SessionRequest) {
  const { variant, params, notices } = resolveParams(lab, req.variant, req.params, req.device);
  const list = [...notices];
  let compare: LabVariant | undefined;
  if (req.compare !== undefined) {
    compare = lab.variants.find((v) => v.id === req.compare && v.id !== variant.id);
    if (!compare) list.push(ui('lab.cannotCompare', { value: req.compare }));
  }
  return { variant, compare, params, notices: list, workgroup: req.workgroup ?? 0, device: req.device };
}

function requestKey(r: ReturnType<typeof resolveRequest>): string {
  return JSON.stringify([r.variant.id, r.compare?.id, r.params, r.workgroup, r.device?.maxInvocationsPerWorkgroup, r.device?.shaderF16 === true]);
}
