/**
 * `src/cuda/host`: whole CUDA programs. `runCudaProgram` interprets the host code of a compiled
 * program (its `main`), with glibc's `printf`/`rand` and the CUDA runtime, and runs every launch on
 * an executor. Pure TypeScript: runs in Node and in a worker. See README.md.
 */
import type { GpuExecutor } from '../../gpu/executor.ts';
import type { FunctionDecl } from '../ast.ts';
import { parseCuda } from '../parser.ts';
import type { CudaProgram } from '../types.ts';
import { CudaRuntime, SIMULATOR_DEVICE, Snapshots, type CudaLaunch, type DeviceProperties, type HostExecutor } from './cuda-runtime.ts';
import { simExecutor } from './executor.ts';
import { ExitSignal, HostError, Interpreter, StopSignal } from './interp.ts';
import { LibcState, libcBuiltins, realClock, type HostClock } from './libc.ts';
import { HostFault } from './memory.ts';
import { ByteDecoder, decodeBytes } from './libc/bytes.ts';

export type { CudaLaunch, DeviceProperties, HostExecutor } from './cuda-runtime.ts';
export type { HostClock } from './libc.ts';

export interface CudaRunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  launches: CudaLaunch[];
}

/** Everything a run can be given; `runCudaProgram` fills these from its arguments. */
export interface HostRunOptions {
  readonly args?: readonly string[];
  readonly maxSteps?: number;
  /** Local headers by name (default: those `compileCuda` was given, kept in the program). */
  readonly files?: Readonly<Record<string, string>>;
  readonly clock?: HostClock;
  /** Milliseconds since the run began, for the events' clock (default: the machine's). */
  readonly hostMs?: () => number;
  readonly device?: DeviceProperties;
  /** Runs the launches; default: the simulator in summary mode. */
  readonly executor?: (interp: Interpreter) => HostExecutor;
  /** Stop: checked every 65 536 steps and before each launch. */
  readonly signal?: AbortSignal;
  /** Told of each piece of stdout and stderr as the program writes it (a worker streams it to the page). */
  readonly onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
  /** Told every 65 536 steps or so (a worker sends the output it holds back, so a long computation after a print shows the print). */
  readonly onCheckpoint?: () => void;
  /** Where the launches' buffers are kept (default: a fresh budget per run; `null`: not kept). */
  readonly snapshots?: Snapshots | null;
}

/** The exit status a shell reports for a program stopped by Ctrl-C (SIGINT): what Stop does. */
export const STOPPED = 130;

/** Linux's exit status for a process killed by SIGSEGV, as a shell reports it. */
const SEGFAULT = 139;

/**
 * Interprets `program`'s host code synchronously. A fault of the host program (out of bounds,
 * NULL, use after free, device memory read on the host, the step budget) ends the run with a
 * message on stderr that names the CUDA line and what happened, and a non-zero exit code.
 */
export function runHostProgram(program: CudaProgram, options: HostRunOptions = {}): CudaRunResult {
  const files = options.files ?? program.files;
  const parsed = parseCuda(program.source, { fileName: program.fileName, ...(files ? { files } : {}) });
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    return { exitCode: 1, stdout: '', stderr: errors.map((d) => `${program.fileName}:${d.line}:${d.column}: error: ${d.message}\n`).join(''), launches: [] };
  }
  const kernels = new Map<string, FunctionDecl>();
  for (const item of parsed.unit.items) if (item.kind === 'function' && item.global) kernels.set(item.name, item);
  const start = performance.now();
  const state = new LibcState(options.clock ?? realClock, program.source, `./${program.fileName.replace(/\.cu$/, '')}`);
  const holder: { interp?: Interpreter } = {};
  const executor: HostExecutor = {
    launch: (l) => {
      if (options.signal?.aborted) throw new StopSignal();
      return (options.executor ?? ((i) => simExecutor(program, i)))(holder.interp!).launch(l);
    },
  };
  const runtime = new CudaRuntime(executor, options.device ?? SIMULATOR_DEVICE, kernels, options.hostMs ?? (() => performance.now() - start), options.snapshots === undefined ? new Snapshots() : options.snapshots);
  const interp = new Interpreter(parsed.unit, { ...libcBuiltins(state), ...runtime.builtins() }, {
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onCheckpoint ? { onCheckpoint: options.onCheckpoint } : {}),
  });
  holder.interp = interp;
  const flush = options.onOutput ? tee(interp, options.onOutput) : undefined;
  let exitCode: number;
  try {
    interp.load();
    exitCode = interp.runMain(options.args ?? []);
  } catch (e) {
    exitCode = failure(interp, e, program.fileName);
  }
  flush?.();
  return { exitCode, stdout: decodeBytes(interp.stdout.join('')), stderr: decodeBytes(interp.stderr.join('')), launches: runtime.launches };
}

/**
 * Passes everything pushed onto the interpreter's stdout and stderr on to `onOutput` as well,
 * decoded as the streams' bytes are (`libc/bytes.ts`); returns what gives the rest at the end.
 */
function tee(interp: Interpreter, onOutput: (stream: 'stdout' | 'stderr', text: string) => void): () => void {
  const decoders = { stdout: new ByteDecoder(), stderr: new ByteDecoder() };
  for (const stream of ['stdout', 'stderr'] as const) {
    const lines = interp[stream];
    const push = lines.push.bind(lines);
    lines.push = (...texts: string[]) => {
      const text = decoders[stream].push(texts.join(''));
      if (text) onOutput(stream, text);
      return push(...texts);
    };
  }
  return () => {
    for (const stream of ['stdout', 'stderr'] as const) {
      const rest = decoders[stream].end();
      if (rest) onOutput(stream, rest);
    }
  };
}

function failure(interp: Interpreter, e: unknown, fileName: string): number {
  if (e instanceof ExitSignal) return e.code;
  if (e instanceof StopSignal) {
    const at = interp.at;
    interp.stderr.push(`${fileName}:${at?.line ?? 0}:${at?.col ?? 0}: stopped: the run was stopped here, after ${interp.steps.toLocaleString('en-US')} steps\n`);
    return STOPPED;
  }
  const at = interp.at;
  if (e instanceof HostFault) {
    interp.stderr.push(`${fileName}:${at?.line ?? 0}:${at?.col ?? 0}: runtime error: ${e.message}\n`);
    return SEGFAULT;
  }
  if (e instanceof HostError) {
    interp.stderr.push(`${fileName}:${e.line}:${e.column}: runtime error: ${e.message}\n`);
    return e.exitStatus;
  }
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    interp.stderr.push(`${fileName}:${at?.line ?? 0}:${at?.col ?? 0}: runtime error: the recursion went too deep (stack overflow; the program would stop with a segmentation fault)\n`);
    return SEGFAULT;
  }
  throw e;
}

/**
 * Runs a compiled CUDA program as nvcc's build of it would run: its stdout and stderr, its exit
 * code, and every launch it made (for the timeline and the replay).
 */
export function runCudaProgram(
  program: CudaProgram,
  options: { executor: 'sim' } | { executor: 'gpu'; gpu: GpuExecutor },
  run?: { args?: string[]; maxSteps?: number; signal?: AbortSignal },
): Promise<CudaRunResult> {
  if (run?.signal?.aborted) return Promise.resolve({ exitCode: STOPPED, stdout: '', stderr: 'stopped before it started\n', launches: [] });
  if (options.executor === 'gpu') {
    const gpu = options.gpu;
    return Promise.all([import('./gpuProgram.ts'), gpu.ready()]).then(([{ runProgramOnDevice, deviceOfAdapter }, ctx]) =>
      runProgramOnDevice(program, gpu, {
        device: deviceOfAdapter(ctx.summary.name, ctx.device.limits),
        ...(run?.args ? { args: run.args } : {}),
        ...(run?.maxSteps !== undefined ? { maxSteps: run.maxSteps } : {}),
        ...(run?.signal ? { signal: run.signal } : {}),
      }),
    );
  }
  return Promise.resolve(
    runHostProgram(program, {
      ...(run?.args ? { args: run.args } : {}),
      ...(run?.maxSteps !== undefined ? { maxSteps: run.maxSteps } : {}),
      ...(run?.signal ? { signal: run.signal } : {}),
    }),
  );
}
