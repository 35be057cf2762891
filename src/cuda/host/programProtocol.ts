/**
 * The messages between the program page and `programWorker.ts`, and `runProgramJob`, the worker's
 * whole job as a plain function (so Node tests drive it without a worker). The page sends one
 * `ProgramRequest`; the worker answers with `compiled`, then `output` pieces as the program writes
 * them (batched, at most one message per `flushMs`), then `done`. Stop is the page terminating the
 * worker: the interpreter runs synchronously, so nothing inside it needs to listen.
 *
 * On the GPU (`runProgramJobOnGpu`, `gpuProgram.ts`) the job first says which executor runs the
 * program (`executor`: the adapter's name, or the simulator with the reason where WebGPU is
 * missing or gives no device), then runs the host code round by round, each launch on the GPU
 * once; output and launches stream the same way.
 *
 * Replays: the job keeps each launch's `KernelRun` with its buffers as they were at launch (up to
 * `KEEP_BYTES` in all), and the worker stays alive after `done` so the page can ask for one
 * (`ReplayRequest`) and replay it traced on the simulator.
 */
import { compileCuda } from '../index.ts';
import type { Diagnostic } from '../types.ts';
import type { CudaLaunch, HostExecutor, HostLaunch, LaunchOutcome } from './cuda-runtime.ts';
import { simExecutor } from './executor.ts';
import { deviceOfAdapter, runProgramOnDevice } from './gpuProgram.ts';
import { runHostProgram, type CudaRunResult } from './index.ts';
import type { Interpreter } from './interp.ts';
import type { KernelRun } from '../../kernel/types.ts';
import type { GpuExecutor } from '../../gpu/executor.ts';
import type { CudaProgram } from '../types.ts';

/** Bytes of launch-time buffers a run keeps for replays; later launches past it are not kept. */
export const KEEP_BYTES = 256 * 2 ** 20;

export interface ProgramRequest {
  readonly source: string;
  readonly fileName: string;
  readonly executor: 'sim' | 'gpu';
  readonly args?: readonly string[];
  readonly maxSteps?: number;
  /** Local headers by name (`#include "error.cuh"`). */
  readonly files?: Readonly<Record<string, string>>;
}

/** A launch as the timeline shows it (the buffers stay in the worker's run). */
export type LaunchSummary = Pick<CudaLaunch, 'kernel' | 'grid' | 'block' | 'sharedBytes' | 'line' | 'gpuMs' | 'error'> & {
  /** Milliseconds the executor took for it: the simulator's run, or the GPU's dispatch (0 where it never ran). */
  readonly ms: number;
  /** Milliseconds since the run started when it returned (streamed launches only). */
  readonly endMs?: number;
  /** False where the launch failed before running (a bad configuration). */
  readonly ran?: boolean;
  /** True where its launch-time run is kept, so it can be opened in the replay. */
  readonly kept?: boolean;
};

/** The page asks the finished run's worker for launch `launch` (its index in `done`'s list). */
export interface ReplayRequest {
  readonly type: 'replay';
  readonly launch: number;
}

/** The fallback reason where the worker has no `navigator.gpu` at all (the page says it in its own words). */
export const NO_WEBGPU = 'no-webgpu';

/** Which executor runs the launches: the GPU (its adapter's name), or the simulator (and why, where the GPU was asked for). */
export type ExecutorInfo = { readonly executor: 'gpu'; readonly adapter: string } | { readonly executor: 'sim'; readonly fallback?: string };

export type ProgramMessage =
  | { readonly type: 'compiled'; readonly diagnostics: readonly Diagnostic[]; readonly ok: boolean }
  | ({ readonly type: 'executor' } & ExecutorInfo)
  | { readonly type: 'output'; readonly stream: 'stdout' | 'stderr'; readonly text: string }
  | { readonly type: 'launch'; readonly launch: LaunchSummary }
  | { readonly type: 'done'; readonly exitCode: number; readonly launches: readonly LaunchSummary[] }
  | { readonly type: 'failed'; readonly message: string }
  /** A launch as it was at launch time, or undefined where it was not kept. */
  | { readonly type: 'replay'; readonly launch: number; readonly run: KernelRun | undefined };

/** The launches a finished run kept, by their index in `done`'s list. */
export type KeptRuns = ReadonlyMap<number, KernelRun>;

const bytesOf = (run: KernelRun): number => Object.values(run.bindings).reduce((n, group) => n + Object.values(group).reduce((m, b) => m + b.byteLength, 0), 0);

/** The GPU executor as the job uses it (the worker's `GpuExecutor`; tests give a fake). */
export type JobGpu = Pick<GpuExecutor, 'run' | 'ready'>;

/** Compiles the request's program, telling `post`; undefined where it does not compile. */
function compileRequest(request: ProgramRequest, post: (m: ProgramMessage) => void): CudaProgram | undefined {
  const compiled = compileCuda(request.source, { fileName: request.fileName, ...(request.files ? { files: { ...request.files } } : {}) });
  post({ type: 'compiled', diagnostics: compiled.diagnostics, ok: compiled.ok });
  return compiled.ok ? compiled.program : undefined;
}

/**
 * What a job shares between the executors: output batched per stream (flushed every `flushMs`),
 * each launch's time and launch-time run in order per kernel and line, and `done` with them.
 */
function jobStream(post: (m: ProgramMessage) => void, now: () => number, flushMs: number) {
  const kept = new Map<number, KernelRun>();
  let pending: { stream: 'stdout' | 'stderr'; text: string } | undefined;
  let last = now();
  const start = now();
  const flush = (): void => {
    if (pending?.text) post({ type: 'output', stream: pending.stream, text: pending.text });
    pending = undefined;
    last = now();
  };
  // The executor's time (and the launch-time run, while there is room) for each launch that
  // reached it, in order, per kernel and line.
  const timed = new Map<string, { ms: number; run: KernelRun | undefined }[]>();
  let keptBytes = 0;
  return {
    kept,
    onOutput: (stream: 'stdout' | 'stderr', text: string): void => {
      if (pending && pending.stream !== stream) flush();
      pending = { stream, text: (pending?.text ?? '') + text };
      if (now() - last >= flushMs) flush();
    },
    /** Sends what is held back once `flushMs` have passed since the last message (the interpreter's checkpoints call it). */
    tick: (): void => {
      if (pending && now() - last >= flushMs) flush();
    },
    /** The launch-time run, where the budget still has room for its buffers. */
    keep(run: KernelRun): KernelRun | undefined {
      const bytes = bytesOf(run);
      if (keptBytes + bytes > KEEP_BYTES) return undefined;
      keptBytes += bytes;
      return run;
    },
    launched(l: HostLaunch, outcome: LaunchOutcome, ms: number, run: KernelRun | undefined): void {
      const key = `${l.kernel.name}:${l.range.line}`;
      const queue = timed.get(key) ?? [];
      queue.push({ ms, run });
      timed.set(key, queue);
      flush();
      post({
        type: 'launch',
        launch: { kernel: l.kernel.name, grid: l.grid, block: l.block, sharedBytes: l.sharedBytes, line: l.range.line, ms, endMs: now() - start, ...(outcome.gpuMs !== undefined ? { gpuMs: outcome.gpuMs } : {}), ...(outcome.error ? { error: outcome.error } : {}) },
      });
    },
    done(result: CudaRunResult): KeptRuns {
      flush();
      const launches = result.launches.map((l, i): LaunchSummary => {
        const queue = timed.get(`${l.kernel}:${l.line}`);
        const entry = queue?.shift();
        if (entry?.run) kept.set(i, entry.run);
        return {
          kernel: l.kernel,
          grid: l.grid,
          block: l.block,
          sharedBytes: l.sharedBytes,
          line: l.line,
          ms: entry?.ms ?? 0,
          ...(l.gpuMs !== undefined ? { gpuMs: l.gpuMs } : {}),
          ...(l.error ? { error: l.error } : {}),
          ran: entry !== undefined,
          kept: entry?.run !== undefined,
        };
      });
      post({ type: 'done', exitCode: result.exitCode, launches });
      return kept;
    },
  };
}

/** Runs one request on the simulator, telling `post` as it goes. Output is batched per stream, flushed every `flushMs`. */
export function runProgramJob(request: ProgramRequest, post: (m: ProgramMessage) => void, now: () => number = () => performance.now(), flushMs = 50): KeptRuns {
  const program = compileRequest(request, post);
  if (!program) return new Map();
  return simJob(program, request, post, now, flushMs, { executor: 'sim' });
}

function simJob(program: CudaProgram, request: ProgramRequest, post: (m: ProgramMessage) => void, now: () => number, flushMs: number, info: ExecutorInfo): KeptRuns {
  post({ type: 'executor', ...info });
  const job = jobStream(post, now, flushMs);
  const executor = (interp: Interpreter): HostExecutor => {
    let prepared: KernelRun | undefined;
    const sim = simExecutor(program, interp, (run) => {
      prepared = job.keep(run);
    });
    return {
      launch(l) {
        prepared = undefined;
        const t0 = now();
        const outcome = sim.launch(l);
        const took = now() - t0;
        // A launch answered from an identical earlier one costs what that one cost to simulate.
        job.launched(l, outcome, Math.max(took, outcome.costMs ?? 0), prepared);
        return outcome;
      },
    };
  };
  const result = runHostProgram(program, {
    ...(request.args ? { args: request.args } : {}),
    ...(request.maxSteps !== undefined ? { maxSteps: request.maxSteps } : {}),
    ...(request.files ? { files: request.files } : {}),
    executor,
    onOutput: job.onOutput,
    onCheckpoint: job.tick,
  });
  return job.done(result);
}

/**
 * Runs one request with its launches on `gpu` (see the file's comment). Where the GPU cannot be
 * had (no WebGPU, no adapter, no device), the program runs on the simulator and the `executor`
 * message says why.
 */
export async function runProgramJobOnGpu(request: ProgramRequest, post: (m: ProgramMessage) => void, gpu: JobGpu | undefined, now: () => number = () => performance.now(), flushMs = 50): Promise<KeptRuns> {
  const program = compileRequest(request, post);
  if (!program) return new Map();
  if (!gpu) return simJob(program, request, post, now, flushMs, { executor: 'sim', fallback: NO_WEBGPU });
  let context;
  try {
    context = await gpu.ready();
  } catch (e) {
    const hint = e instanceof Error && 'hint' in e && typeof e.hint === 'string' ? ` ${e.hint}` : '';
    return simJob(program, request, post, now, flushMs, { executor: 'sim', fallback: `${e instanceof Error ? e.message : String(e)}${hint}` });
  }
  post({ type: 'executor', executor: 'gpu', adapter: context.summary.name });
  const job = jobStream(post, now, flushMs);
  const result = await runProgramOnDevice(program, gpu, {
    ...(request.args ? { args: request.args } : {}),
    ...(request.maxSteps !== undefined ? { maxSteps: request.maxSteps } : {}),
    ...(request.files ? { files: request.files } : {}),
    device: deviceOfAdapter(context.summary.name, context.device.limits),
    onOutput: job.onOutput,
    onCheckpoint: job.tick,
    onLaunchRecorded: (_i, l, outcome, run) => job.launched(l, outcome, outcome.gpuMs ?? 0, run ? job.keep(run) : undefined),
  });
  return job.done(result);
}
