/**
 * The messages between the program page and `programWorker.ts`, and `runProgramJob`, the worker's
 * whole job as a plain function (so Node tests drive it without a worker). The page sends one
 * `ProgramRequest`; the worker answers with `compiled`, then `output` pieces as the program writes
 * them (batched, at most one message per `flushMs`), then `done`. Stop is the page terminating the
 * worker: the interpreter runs synchronously, so nothing inside it needs to listen.
 *
 * Replays: the job keeps each launch's `KernelRun` with its buffers as they were at launch (up to
 * `KEEP_BYTES` in all), and the worker stays alive after `done` so the page can ask for one
 * (`ReplayRequest`) and replay it traced on the simulator.
 */
import { compileCuda } from '../index.ts';
import type { Diagnostic } from '../types.ts';
import type { CudaLaunch, HostExecutor } from './cuda-runtime.ts';
import { simExecutor } from './executor.ts';
import { runHostProgram } from './index.ts';
import type { Interpreter } from './interp.ts';
import type { KernelRun } from '../../kernel/types.ts';

/** Bytes of launch-time buffers a run keeps for replays; later launches past it are not kept. */
export const KEEP_BYTES = 256 * 2 ** 20;

export interface ProgramRequest {
  readonly source: string;
  readonly fileName: string;
  readonly executor: 'sim';
  readonly args?: readonly string[];
  readonly maxSteps?: number;
  /** Local headers by name (`#include "error.cuh"`). */
  readonly files?: Readonly<Record<string, string>>;
}

/** A launch as the timeline shows it (the buffers stay in the worker's run). */
export type LaunchSummary = Pick<CudaLaunch, 'kernel' | 'grid' | 'block' | 'sharedBytes' | 'line' | 'gpuMs' | 'error'> & {
  /** Milliseconds the simulator took for it (0 where it never reached the simulator). */
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

export type ProgramMessage =
  | { readonly type: 'compiled'; readonly diagnostics: readonly Diagnostic[]; readonly ok: boolean }
  | { readonly type: 'output'; readonly stream: 'stdout' | 'stderr'; readonly text: string }
  | { readonly type: 'launch'; readonly launch: LaunchSummary }
  | { readonly type: 'done'; readonly exitCode: number; readonly launches: readonly LaunchSummary[] }
  | { readonly type: 'failed'; readonly message: string }
  /** A launch as it was at launch time, or undefined where it was not kept. */
  | { readonly type: 'replay'; readonly launch: number; readonly run: KernelRun | undefined };

/** The launches a finished run kept, by their index in `done`'s list. */
export type KeptRuns = ReadonlyMap<number, KernelRun>;

const bytesOf = (run: KernelRun): number => Object.values(run.bindings).reduce((n, group) => n + Object.values(group).reduce((m, b) => m + b.byteLength, 0), 0);

/** Runs one request, telling `post` as it goes. Output is batched per stream, flushed every `flushMs`. */
export function runProgramJob(request: ProgramRequest, post: (m: ProgramMessage) => void, now: () => number = () => performance.now(), flushMs = 50): KeptRuns {
  const kept = new Map<number, KernelRun>();
  const compiled = compileCuda(request.source, { fileName: request.fileName, ...(request.files ? { files: { ...request.files } } : {}) });
  post({ type: 'compiled', diagnostics: compiled.diagnostics, ok: compiled.ok });
  if (!compiled.ok) return kept;
  const program = compiled.program;
  let pending: { stream: 'stdout' | 'stderr'; text: string } | undefined;
  let last = now();
  const flush = (): void => {
    if (pending?.text) post({ type: 'output', stream: pending.stream, text: pending.text });
    pending = undefined;
    last = now();
  };
  const start = now();
  // The simulator's time (and the launch-time run, while there is room) for each launch that
  // reached it, in order, per kernel and line.
  const timed = new Map<string, { ms: number; run: KernelRun | undefined }[]>();
  let keptBytes = 0;
  const executor = (interp: Interpreter): HostExecutor => {
    let prepared: KernelRun | undefined;
    const sim = simExecutor(program, interp, (run) => {
      const bytes = bytesOf(run);
      prepared = keptBytes + bytes <= KEEP_BYTES ? run : undefined;
      if (prepared) keptBytes += bytes;
    });
    return {
      launch(l) {
        prepared = undefined;
        const t0 = now();
        const outcome = sim.launch(l);
        const ms = now() - t0;
        const key = `${l.kernel.name}:${l.range.line}`;
        const queue = timed.get(key) ?? [];
        queue.push({ ms, run: prepared });
        timed.set(key, queue);
        flush();
        post({
          type: 'launch',
          launch: { kernel: l.kernel.name, grid: l.grid, block: l.block, sharedBytes: l.sharedBytes, line: l.range.line, ms, endMs: now() - start, ...(outcome.error ? { error: outcome.error } : {}) },
        });
        return outcome;
      },
    };
  };
  const result = runHostProgram(program, {
    ...(request.args ? { args: request.args } : {}),
    ...(request.maxSteps !== undefined ? { maxSteps: request.maxSteps } : {}),
    ...(request.files ? { files: request.files } : {}),
    executor,
    onOutput: (stream, text) => {
      if (pending && pending.stream !== stream) flush();
      pending = { stream, text: (pending?.text ?? '') + text };
      if (now() - last >= flushMs) flush();
    },
  });
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
}
