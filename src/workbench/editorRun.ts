/**
 * Runs a lab's draft on both executors and checks both against the lab's CPU reference.
 *
 * The lab's own driver (`runAll`) runs every pass; each dispatch of the variant's kernel gets the
 * draft instead. On the GPU the draft is guarded first (every loop gets the watchdog) and runs
 * under a timeout; on the simulator it runs within a step budget. `lab.check` gives the verdict
 * against the CPU reference; the first differing elements are listed beside the unedited kernel's
 * output (which the lab tests prove equal to the reference), with the step of the traced dispatch
 * that last wrote that element.
 */
import type { BindingData, Bindings, KernelRun } from '../kernel/types.ts';
import { workgroupCount } from '../kernel/types.ts';
import { guardKernel } from '../kernel/watchdog.ts';
import { iterationBudget, originalPosition, type GuardedSource } from '../wgsl/watchdog.ts';
import type { AnyLab, CheckResult, Params } from './lab.ts';
import type { KernelExecutor } from './labTypes.ts';
import { isGpuError, type GpuExecutor, type ShaderMessage } from '../gpu/index.ts';
import { OpKind, type Diagnostic, type SimOptions, type SimResult, type Trace } from '../sim/index.ts';
import type { SimJob } from '../sim/workerClient.ts';
import { INPUT_SEED } from './session.ts';
import { formatInteger } from '../i18n/numbers.ts';
import { ui } from '../i18n/ui.ts';
import { firstMismatch } from '../util/arrays.ts';

/** Warp instructions each simulated pass of a check may take. */
export const CHECK_MAX_STEPS = 2_000_000;
/** Milliseconds the GPU may take for one pass of a draft before the device is given up. */
export const GPU_TIMEOUT_MS = 10_000;
/** Differing elements listed at most. */
export const SHOWN_MISMATCHES = 5;

export type SimulateOnce = (run: KernelRun, options: SimOptions) => SimJob;

/** One executor's outcome. */
export type ExecOutcome =
  | { readonly state: 'done'; readonly output: BindingData; readonly check: CheckResult }
  | { readonly state: 'stopped'; readonly message: string; readonly diagnostics: readonly Diagnostic[] }
  | { readonly state: 'failed'; readonly message: string; readonly hint?: string; readonly messages?: readonly DraftShaderMessage[]; readonly timedOut?: boolean };

/**
 * A GPU compiler message at its place in the draft. For a translated draft (CUDA) that is the CUDA
 * line and column the generated WGSL came from, and `generated` keeps the WGSL place, to show.
 */
export type DraftShaderMessage = ShaderMessage & { readonly generated?: { readonly line: number; readonly column: number; readonly sourceLine?: string } };

export interface Mismatch {
  readonly index: number;
  readonly expected: number | undefined;
  readonly gpu: number | undefined;
  readonly sim: number | undefined;
  /** The step of the traced dispatch that last wrote this element, or -1. */
  readonly step: number;
}

export interface DraftCheck {
  readonly gpu: ExecOutcome;
  readonly sim: ExecOutcome;
  readonly mismatches: readonly Mismatch[];
  /** The simulator's findings over all passes (race, barrier divergence…), once each. */
  readonly diagnostics: readonly Diagnostic[];
  /** Set when the variant is a racy one or the simulator found a race: the result is not guaranteed. */
  readonly notGuaranteed?: string;
}

class Stopped extends Error {
  constructor(
    message: string,
    readonly diagnostics: readonly Diagnostic[],
  ) {
    super(message);
  }
}

/**
 * A draft in another language (CUDA): each dispatch of the variant's kernel becomes the draft's
 * own launch (`pass`), whose outputs go back to the lab's driver as the variant's would.
 */
export interface TranslatedDraft {
  /** The code every translated launch runs (the generated WGSL). */
  readonly code: string;
  pass(run: KernelRun): { readonly run: KernelRun; outputs(out: Bindings): Bindings };
  /** The draft's line and column a place in the generated code came from (undefined: code the translator added). */
  place?(line: number, column: number): { readonly line: number; readonly column: number } | undefined;
}

/** An executor that swaps the variant's kernel for the draft in every dispatch of it. */
function substituting(inner: KernelExecutor, original: string, draft: string, translated?: TranslatedDraft): KernelExecutor {
  return {
    async run(run) {
      if (run.code !== original) return inner.run(run);
      if (!translated) return inner.run({ ...run, code: draft });
      const pass = translated.pass(run);
      return pass.outputs(await inner.run(pass.run));
    },
  };
}

/** The simulator as an executor within a step budget, collecting diagnostics. */
function simExecutor(simulate: SimulateOnce, found: Diagnostic[], signal: AbortSignal | undefined, translated?: TranslatedDraft, ofTranslated?: WeakSet<Diagnostic>): KernelExecutor {
  return {
    async run(run) {
      const job = simulate(run, { trace: 'summary', maxSteps: CHECK_MAX_STEPS });
      signal?.addEventListener('abort', () => job.cancel(), { once: true });
      const result: SimResult = await job.promise;
      found.push(...result.diagnostics);
      if (ofTranslated && run.code === translated?.code) for (const d of result.diagnostics) ofTranslated.add(d);
      const limit = result.diagnostics.find((d) => d.kind === 'step-limit');
      if (limit) {
        const steps = formatInteger(CHECK_MAX_STEPS);
        const at = run.code === translated?.code ? translated.place?.(limit.line, limit.column) : undefined;
        throw new Stopped(at ? ui('run.stoppedCuda', { steps, line: at.line }) : ui('run.stopped', { steps, line: limit.line }), result.diagnostics);
      }
      return result.buffers;
    },
  };
}

/** The GPU as an executor: edited code is guarded by the watchdog and runs under a timeout. */
function gpuExecutor(gpu: GpuExecutor, draft: string, signal: AbortSignal | undefined, guards: GuardedSource[]): KernelExecutor {
  return {
    async run(run) {
      if (run.code !== draft) return gpu.run(run, { ...(signal ? { signal } : {}), timeoutMs: GPU_TIMEOUT_MS });
      const invocations = workgroupCount(run.workgroups) * (run.overrides?.WORKGROUP_SIZE ?? 256);
      const { run: guardedRun, guarded } = guardKernel(run, { budget: iterationBudget(invocations) });
      guards.push(guarded);
      const watchdog = guarded.watchdog;
      return gpu.run(guardedRun, { ...(signal ? { signal } : {}), timeoutMs: GPU_TIMEOUT_MS, ...(watchdog ? { watchdog } : {}) });
    },
  };
}

/** The step of `trace` that last wrote word `index` of a storage buffer (-1 when none did). */
export function lastGlobalWrite(trace: Trace | undefined, index: number): number {
  if (!trace) return -1;
  for (let s = trace.stepCount - 1; s >= 0; s--) {
    const kind = trace.opKind[trace.stepOp[s]!]!;
    if (kind !== OpKind.storeGlobal && kind !== OpKind.atomicGlobal) continue;
    const m = trace.stepMemory[s]!;
    if (m < 0 || trace.memories[m]?.space !== 'storage') continue;
    for (let r = trace.stepRecStart[s]!; r < trace.stepRecStart[s + 1]!; r++) if (trace.recAddr[r] === index) return s;
  }
  return -1;
}

/** The first elements where the GPU, the simulator or both differ from the expected output. */
export function firstMismatches(expected: BindingData | undefined, gpu: BindingData | undefined, sim: BindingData | undefined, trace: Trace | undefined): Mismatch[] {
  const n = Math.max(expected?.length ?? 0, gpu?.length ?? 0, sim?.length ?? 0);
  const out: Mismatch[] = [];
  for (let i = 0; i < n && out.length < SHOWN_MISMATCHES; i++) {
    const e = expected?.[i];
    const g = gpu?.[i];
    const s = sim?.[i];
    const bad = (v: number | undefined, have: BindingData | undefined) => have !== undefined && !Object.is(v, e);
    if (bad(g, gpu) || bad(s, sim)) out.push({ index: i, expected: e, gpu: g, sim: s, step: lastGlobalWrite(trace, i) });
  }
  return out;
}

function describe(e: unknown, draft: string, guards: readonly GuardedSource[], translated?: TranslatedDraft): ExecOutcome {
  if (e instanceof Stopped) return { state: 'stopped', message: e.message, diagnostics: e.diagnostics };
  if (isGpuError(e)) {
    const guarded = guards[guards.length - 1];
    const lines = draft.split('\n');
    const messages = e.messages.map((m) => {
      const at = guarded ? originalPosition(guarded, m.line, m.column) : m;
      const sourceLine = lines[at.line - 1];
      return { ...m, line: at.line, column: at.column, ...(sourceLine !== undefined ? { sourceLine } : {}) };
    });
    if (translated) return translatedCompileError(e.message, e.hint, messages, draft, translated, e.kind === 'timeout');
    return { state: 'failed', message: e.message, hint: e.hint, messages, ...(e.kind === 'timeout' ? { timedOut: true } : {}) };
  }
  if (e instanceof Error && e.name === 'SimCancelled') return { state: 'failed', message: 'Cancelled.' };
  return { state: 'failed', message: e instanceof Error ? e.message : String(e) };
}

/**
 * The GPU's compiler messages on WGSL generated from a CUDA draft, at the CUDA line and column each
 * came from (the generated place kept beside it). The generated WGSL passed our own WGSL front end,
 * so a message here is the translator's fault, and the message says so, never a bare WGSL line.
 */
export function translatedCompileError(message: string, hint: string, messages: readonly ShaderMessage[], draft: string, translated: TranslatedDraft, timedOut = false): ExecOutcome {
  if (messages.length === 0) return { state: 'failed', message, hint, ...(timedOut ? { timedOut: true } : {}) };
  const cudaLines = draft.split('\n');
  const wgslLines = translated.code.split('\n');
  const mapped: DraftShaderMessage[] = messages.map((m) => {
    const at = translated.place?.(m.line, m.column);
    const wgslLine = wgslLines[m.line - 1];
    const generated = { line: m.line, column: m.column, ...(wgslLine !== undefined ? { sourceLine: wgslLine } : {}) };
    const cudaLine = at ? cudaLines[at.line - 1] : undefined;
    const { sourceLine: _ignored, ...rest } = m;
    return { ...rest, line: at?.line ?? 0, column: at?.column ?? 0, ...(cudaLine !== undefined ? { sourceLine: cudaLine } : {}), generated };
  });
  const first = mapped.find((m) => m.severity === 'error') ?? mapped[0]!;
  const text =
    first.line > 0
      ? ui('run.cudaCompile', { line: first.line, column: first.column, message: first.message, wgsl: first.generated!.line })
      : ui('run.cudaCompileAdded', { message: first.message, wgsl: first.generated!.line });
  return { state: 'failed', message: text, hint: ui('run.cudaCompileHint'), messages: mapped, ...(timedOut ? { timedOut: true } : {}) };
}

/** Runs `draft` as `variant` on the GPU and the simulator, with the lab's inputs at `seed`, and checks both. */
export async function checkDraft(options: {
  lab: AnyLab;
  variant: string;
  params: Params;
  draft: string;
  gpu: GpuExecutor | undefined;
  simulate: SimulateOnce;
  trace?: Trace | undefined;
  seed?: number;
  signal?: AbortSignal;
  /** The adapter is a CPU emulation (a fallback adapter such as SwiftShader): slow by nature. */
  softwareAdapter?: boolean;
  /** The draft is in another language (`draft` is then its text, for messages), run through this. */
  translated?: TranslatedDraft;
}): Promise<DraftCheck> {
  const { lab, variant, params, draft, signal } = options;
  const inputs = lab.inputs(params, options.seed ?? INPUT_SEED);
  const original = lab.stepRun(variant, params, inputs).code;
  const translated = options.translated;
  const draftCode = translated ? translated.code : lab.stepRun(variant, params, inputs, draft).code;
  const found: Diagnostic[] = [];
  // The findings in the translated kernel (its lines are the generated WGSL's, told in CUDA lines).
  const ofTranslated = new WeakSet<Diagnostic>();
  const sim = simExecutor(options.simulate, found, signal, translated, ofTranslated);

  const simRun = (async (): Promise<ExecOutcome> => {
    try {
      const output = await lab.runAll(substituting(sim, original, draftCode, translated), variant, params, inputs);
      return { state: 'done', output, check: lab.check(variant, params, inputs, output) };
    } catch (e) {
      return describe(e, draft, []);
    }
  })();
  const guards: GuardedSource[] = [];
  const gpuRun = (async (): Promise<ExecOutcome> => {
    if (!options.gpu) return { state: 'failed', message: 'No GPU: WebGPU is not available in this browser, so only the simulator ran.' };
    try {
      const output = await lab.runAll(substituting(gpuExecutor(options.gpu, draftCode, signal, guards), original, draftCode, translated), variant, params, inputs);
      return { state: 'done', output, check: lab.check(variant, params, inputs, output) };
    } catch (e) {
      return describe(e, draft, guards, translated);
    }
  })();
  const simOut = await simRun;
  const gpuOut = explainTimeout(await gpuRun, simOut, params, options.softwareAdapter === true);

  let mismatches: Mismatch[] = [];
  const wrong = (o: ExecOutcome) => o.state === 'done' && !o.check.ok;
  if (wrong(simOut) || wrong(gpuOut) || (simOut.state === 'done' && gpuOut.state === 'done' && firstMismatch(simOut.output, gpuOut.output) !== -1)) {
    // The unedited kernel's output stands for the reference element by element.
    let expected: BindingData | undefined;
    try {
      expected = await lab.runAll(sim, variant, params, inputs);
    } catch {
      expected = undefined;
    }
    mismatches = firstMismatches(expected, gpuOut.state === 'done' ? gpuOut.output : undefined, simOut.state === 'done' ? simOut.output : undefined, options.trace);
  }
  const seen = new Set<string>();
  const diagnostics = found.filter((d) => {
    const k = `${d.kind}:${d.line}:${d.column}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const race = diagnostics.find((d) => d.kind === 'race');
  const racy = lab.variants.find((v) => v.id === variant)?.racy;
  const raceCuda = race && ofTranslated.has(race) ? translated?.place?.(race.line, race.column) : undefined;
  const notGuaranteed = race
    ? raceCuda
      ? ui('run.raceAtCuda', { line: raceCuda.line })
      : ui('run.raceAt', { line: race.line })
    : racy && draftCode === original
      ? ui('run.notGuaranteed', { reason: racy })
      : undefined;
  return { gpu: gpuOut, sim: simOut, mismatches, diagnostics, ...(notGuaranteed ? { notGuaranteed } : {}) };
}

/**
 * A GPU pass that ran past GPU_TIMEOUT_MS is either a loop that runs (nearly) for ever or an
 * adapter that is merely slow. The simulator ran the same kernel beside it under a step limit: if
 * it finished, the kernel ends and the GPU is slow; if it stopped at the limit, a loop is the
 * likely cause. The message says which, and names a smaller size to try.
 */
export function explainTimeout(gpu: ExecOutcome, sim: ExecOutcome, params: Params, software: boolean): ExecOutcome {
  if (gpu.state !== 'failed' || !gpu.timedOut) return gpu;
  const seconds = GPU_TIMEOUT_MS / 1000;
  const n = typeof params['n'] === 'number' ? params['n'] : undefined;
  const smaller = n !== undefined && n >= 4 ? ui('run.timeout.smaller', { n: formatInteger(n / 4) }) : ui('run.timeout.smallerAny');
  if (sim.state === 'stopped') {
    return { ...gpu, message: ui('run.timeout.loop', { seconds }), hint: ui('run.timeout.loopHint', { steps: formatInteger(CHECK_MAX_STEPS) }) };
  }
  const why = sim.state === 'done' ? (software ? 'run.timeout.slowSoftware' : 'run.timeout.slow') : software ? 'run.timeout.software' : 'run.timeout.either';
  return { ...gpu, message: ui(why, { seconds }), hint: smaller };
}
