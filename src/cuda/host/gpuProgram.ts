/**
 * Whole programs with their launches on the GPU. The host interpreter is synchronous and the GPU
 * is not, so a run is a series of rounds over one record:
 *
 * 1. the program runs from the start; each launch already in the record is replayed from it (its
 *    writes go into the blocks its arguments point into, its printf lines onto stdout);
 * 2. the first launch not in the record stops the round: its `KernelRun`, with the buffers as
 *    they are at that moment, goes to the device;
 * 3. what the kernel wrote and printed joins the record, and the next round starts.
 *
 * A round repeats exactly what the one before it did, because every input the host reads from
 * outside is recorded too: `time`, `clock` and `gettimeofday` return, in order, what they
 * returned before, and so does the clock behind `cudaEventRecord`. Output the earlier rounds
 * already gave is not given again, so `onOutput` sees one continuous stream. A program with L
 * launches runs its host code L + 1 times, up to each launch in turn (`rounds` in the result).
 *
 * Pure TypeScript: the device is anything with the `run` of `src/gpu`'s `GpuExecutor`.
 */
import type { Bindings, KernelRun } from '../../kernel/types.ts';
import { guardKernel } from '../../kernel/watchdog.ts';
import type { RunOptions } from '../../gpu/executor.ts';
import type { CudaProgram, KernelArg } from '../types.ts';
import { SIMULATOR_DEVICE, Snapshots, type CudaLaunch, type LaunchBuffer, type DeviceProperties, type HostExecutor, type HostLaunch, type LaunchOutcome } from './cuda-runtime.ts';
import { applyWrites, prepareHostLaunch } from './executor.ts';
import { STOPPED, runHostProgram, type CudaRunResult, type HostRunOptions } from './index.ts';
import type { Interpreter, V } from './interp.ts';
import type { FunctionDecl } from '../ast.ts';
import type { HostClock } from './libc.ts';

/** What the GPU executor offers: `GpuExecutor.run` (tests give a fake). */
export interface KernelDevice {
  run(run: KernelRun, options?: RunOptions): Promise<Bindings>;
}

/** One launch's effect, as the device gave it, replayed in every later round. */
export interface RecordedLaunch {
  readonly writes: Readonly<Record<string, KernelArg>>;
  readonly printed: readonly string[];
  readonly error?: number;
  readonly detail?: string;
  /** Milliseconds the dispatch took on the device (timestamp queries where the adapter has them). */
  readonly gpuMs: number;
}

export interface GpuProgramOptions extends Omit<HostRunOptions, 'executor' | 'clock' | 'hostMs'> {
  readonly clock?: HostClock;
  /** The device's properties for `cudaGetDeviceProperties` (its name is the adapter's). */
  readonly device?: DeviceProperties;
  /** Milliseconds a launch may take on the device before it is abandoned (default 60 s). */
  readonly timeoutMs?: number;
  /** Per-invocation loop iterations before the watchdog stops a kernel (default 2^20). */
  readonly loopBudget?: number;
  /** Told of each launch as it goes to the device (its index among the program's launches, and the run). */
  readonly onDeviceLaunch?: (index: number, launch: HostLaunch, run: KernelRun) => void;
  /**
   * Told of each launch as it joins the record: its outcome, with the `KernelRun` the device ran
   * (absent for a launch that needed no device: an empty kernel, one that did not translate).
   */
  readonly onLaunchRecorded?: (index: number, launch: HostLaunch, outcome: LaunchOutcome, run: KernelRun | undefined) => void;
  /** The wall clock for the launches' times (default `performance.now`). */
  readonly now?: () => number;
}

export interface GpuProgramResult extends CudaRunResult {
  /** Times the host code ran from the start: one more than the launches that reached the device. */
  readonly rounds: number;
  /** Milliseconds spent in the host interpreter over all rounds, and waiting for the device (uploads, compiles, dispatches, read-backs). */
  readonly hostMs: number;
  readonly deviceMs: number;
}

/** What `cudaGetDeviceProperties` says on a WebGPU adapter: its name and its limits where they are lower than CUDA's. */
export function deviceOfAdapter(name: string, limits: { readonly maxComputeInvocationsPerWorkgroup: number; readonly maxComputeWorkgroupSizeX: number; readonly maxComputeWorkgroupSizeY: number; readonly maxComputeWorkgroupSizeZ: number; readonly maxComputeWorkgroupStorageSize: number }): DeviceProperties {
  const cuda = SIMULATOR_DEVICE;
  return {
    ...cuda,
    name,
    maxThreadsPerBlock: Math.min(cuda.maxThreadsPerBlock, limits.maxComputeInvocationsPerWorkgroup),
    maxThreadsDim: [
      Math.min(cuda.maxThreadsDim[0], limits.maxComputeWorkgroupSizeX),
      Math.min(cuda.maxThreadsDim[1], limits.maxComputeWorkgroupSizeY),
      Math.min(cuda.maxThreadsDim[2], limits.maxComputeWorkgroupSizeZ),
    ],
    sharedMemPerBlock: Math.min(cuda.sharedMemPerBlock, limits.maxComputeWorkgroupStorageSize),
  };
}

/** Snapshots over rounds that repeat one another: the n-th launch of a round is the n-th of the one before, so it is copied once. */
class RoundSnapshots extends Snapshots {
  private readonly kept: CudaLaunch['buffers'][] = [];
  private at = 0;

  startRound(): this {
    this.at = 0;
    return this;
  }

  override take(kernel: FunctionDecl, args: readonly (V | LaunchBuffer)[]): CudaLaunch['buffers'] {
    const n = this.at++;
    if (n < this.kept.length) return this.kept[n];
    const taken = super.take(kernel, args);
    this.kept.push(taken);
    return taken;
  }
}

/** CUDA's error for a kernel stopped by a watchdog (a display GPU's, or ours). */
export const LAUNCH_TIMEOUT = 702;

/** The round stops here: this launch is the first the record does not hold. */
class LaunchNeeded extends Error {
  constructor(
    readonly index: number,
    readonly launch: HostLaunch,
    readonly prepared: Extract<ReturnType<typeof prepareHostLaunch>, { prepared: unknown }>['prepared'],
  ) {
    super('a launch for the device');
  }
}

/** Values read from outside, in order: replayed while the log lasts, then read and logged. */
function replayed<T>(log: T[], read: () => T): () => T {
  let next = 0;
  return () => {
    if (next < log.length) return log[next++]!;
    const v = read();
    log.push(v);
    next++;
    return v;
  };
}

interface GpuErrorLike {
  readonly kind: string;
  readonly message: string;
  readonly hint?: string;
}
const isGpuError = (e: unknown): e is GpuErrorLike => e instanceof Error && e.name === 'GpuError' && typeof (e as { kind?: unknown }).kind === 'string';

/**
 * Runs `program` with its launches on `device` (see the file's comment). A launch the device
 * cannot run (the adapter's limits, a device lost) ends the run with a message on stderr that
 * says so and suggests the simulator; a kernel the watchdog or the timeout stops fails as a
 * display GPU's watchdog makes it fail (`cudaErrorLaunchTimeout`, reported by the next
 * synchronising call); Stop (the signal) ends the run with exit status 130.
 */
export async function runProgramOnDevice(program: CudaProgram, device: KernelDevice, options: GpuProgramOptions = {}): Promise<GpuProgramResult> {
  const now = options.now ?? (() => performance.now());
  const record: RecordedLaunch[] = [];
  const clockLog: number[] = [];
  const cpuLog: number[] = [];
  const hostLog: number[] = [];
  const clock = options.clock ?? { now: () => Date.now() / 1000, cpuMicros: () => performance.now() * 1000 };
  const given = { stdout: 0, stderr: 0 };
  // Everything given so far, for a run that ends between rounds (Stop, a launch the device refused).
  const text = { stdout: '', stderr: '' };
  const give = (stream: 'stdout' | 'stderr', piece: string): void => {
    text[stream] += piece;
    options.onOutput?.(stream, piece);
  };
  let rounds = 0;
  let hostMs = 0;
  let deviceMs = 0;
  // Each launch's buffers, copied once, in the round that first reaches it (not again in every later round).
  const snapshots = new RoundSnapshots();
  const done = (r: CudaRunResult): GpuProgramResult => ({ ...r, rounds, hostMs, deviceMs });
  // The launches recorded so far, for a run that ends between rounds (the runtime's own list is the round's).
  const made: CudaLaunch[] = [];
  const note = (l: HostLaunch, o: LaunchOutcome): void => {
    made.push({ kernel: l.kernel.name, grid: l.grid, block: l.block, sharedBytes: l.sharedBytes, line: l.range.line, scalars: {}, ...(o.gpuMs !== undefined ? { gpuMs: o.gpuMs } : {}), ...(o.error ? { error: o.error } : {}) });
  };
  for (;;) {
    rounds++;
    const seen = { stdout: 0, stderr: 0 };
    let index = 0;
    const executor = (interp: Interpreter): HostExecutor => ({
      launch(l) {
        const i = index++;
        const got = record[i];
        if (got) {
          applyWrites(program, interp, l, got.writes);
          return { printed: got.printed, gpuMs: got.gpuMs, ...(got.error ? { error: got.error } : {}), ...(got.detail ? { detail: got.detail } : {}) };
        }
        const ready = prepareHostLaunch(program, interp, l);
        if ('outcome' in ready) {
          record.push({ writes: {}, printed: ready.outcome.printed ?? [], gpuMs: 0, ...(ready.outcome.error ? { error: ready.outcome.error } : {}), ...(ready.outcome.detail ? { detail: ready.outcome.detail } : {}) });
          note(l, ready.outcome);
          options.onLaunchRecorded?.(i, l, ready.outcome, undefined);
          return ready.outcome;
        }
        throw new LaunchNeeded(i, l, ready.prepared);
      },
    });
    const t0 = now();
    let result: CudaRunResult;
    try {
      result = runHostProgram(program, {
        ...options,
        clock: { now: replayed(clockLog, () => clock.now()), cpuMicros: replayed(cpuLog, () => clock.cpuMicros()) },
        // The events' host clock: time into this round, which ran the host code once from the
        // start to here (the earlier rounds' re-runs are not the program's time); read once, the
        // first time a round reaches each read, and replayed after.
        hostMs: replayed(hostLog, () => now() - t0),
        snapshots: snapshots.startRound(),
        executor,
        onOutput: (stream, text) => {
          const from = seen[stream];
          seen[stream] += text.length;
          if (seen[stream] <= given[stream]) return;
          const fresh = text.slice(Math.max(0, given[stream] - from));
          given[stream] = seen[stream];
          give(stream, fresh);
        },
      });
    } catch (e) {
      hostMs += now() - t0;
      if (!(e instanceof LaunchNeeded)) throw e;
      const { run } = e.prepared;
      options.onDeviceLaunch?.(e.index, e.launch, run);
      const { run: guarded, guarded: source } = guardKernel(run, { budget: options.loopBudget ?? 2 ** 20 });
      const d0 = now();
      let entry: RecordedLaunch;
      let measured: number | undefined;
      try {
        const outputs = await device.run(guarded, {
          timeoutMs: options.timeoutMs ?? 60_000,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(source.watchdog ? { watchdog: source.watchdog } : {}),
          onGpuMs: (ms) => (measured = ms),
        });
        deviceMs += now() - d0;
        entry = { ...e.prepared.results(outputs), gpuMs: measured ?? now() - d0 };
      } catch (err) {
        const ms = now() - d0;
        deviceMs += ms;
        if (options.signal?.aborted) return done(ended(STOPPED, stopMessage(e.launch, program.fileName), text, give, made));
        if (!isGpuError(err) || (err.kind !== 'watchdog' && err.kind !== 'timeout')) {
          return done(ended(1, unrunnable(e.index, e.launch, program.fileName, err), text, give, made));
        }
        entry = { writes: {}, printed: [], error: LAUNCH_TIMEOUT, detail: `the GPU stopped the kernel: ${err.message}`, gpuMs: ms };
      }
      record.push(entry);
      const outcome = { printed: entry.printed, gpuMs: entry.gpuMs, ...(entry.error ? { error: entry.error } : {}) };
      note(e.launch, outcome);
      options.onLaunchRecorded?.(e.index, e.launch, outcome, run);
      if (options.signal?.aborted) return done(ended(STOPPED, stopMessage(e.launch, program.fileName), text, give, made));
      continue;
    }
    hostMs += now() - t0;
    return done(result);
  }
}

/** A run that ends between rounds: what it gave so far, and the message that says why. */
function ended(exitCode: number, message: string, text: { stdout: string; stderr: string }, give: (stream: 'stderr', piece: string) => void, launches: readonly CudaLaunch[]): CudaRunResult {
  give('stderr', message);
  return { exitCode, stdout: text.stdout, stderr: text.stderr, launches: [...launches] };
}

/** Stop while a launch was on the device: the run ends there, as the interpreter's Stop would. */
function stopMessage(l: HostLaunch, fileName: string): string {
  return `${fileName}:${l.range.line}:${l.range.col}: stopped: the run was stopped here, while ${l.kernel.name}<<<…>>> ran on the GPU\n`;
}

/** A launch the device refused or lost: what happened and what to do. */
function unrunnable(index: number, l: HostLaunch, fileName: string, err: unknown): string {
  const why = (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
  const hint = isGpuError(err) && err.hint ? ` ${err.hint}` : '';
  return `${fileName}:${l.range.line}:${l.range.col}: error: launch ${index + 1} (${l.kernel.name}<<<…>>>) could not run on this GPU: ${why}.${hint} The simulator can run it: choose the simulator and run again.\n`;
}
