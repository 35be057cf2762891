/**
 * Web Worker entry for the program page: compiles and runs one whole CUDA program per worker
 * (`runProgramJob`), streaming its output. The page stops a run by terminating the worker. After
 * the run the worker keeps its launches' launch-time runs and answers `replay` requests for them
 * until the page terminates it (a new run, or leaving the page).
 *
 * On the GPU the worker has its own WebGPU device (`navigator.gpu` in a dedicated worker), so
 * terminating the worker (Stop) ends the GPU work with it and the page's own device is untouched.
 */
import { GpuExecutor } from '../../gpu/executor.ts';
import { runProgramJob, runProgramJobOnGpu, type KeptRuns, type ProgramMessage, type ProgramRequest, type ReplayRequest } from './programProtocol.ts';

interface ProgramScope {
  onmessage: ((e: { data: ProgramRequest | ReplayRequest }) => void) | null;
  postMessage(message: ProgramMessage): void;
}

const scope = globalThis as unknown as ProgramScope;
let kept: KeptRuns = new Map();

scope.onmessage = (e) => {
  const data = e.data;
  if ('type' in data) {
    scope.postMessage({ type: 'replay', launch: data.launch, run: kept.get(data.launch) });
    return;
  }
  const failed = (err: unknown): void => scope.postMessage({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  if (data.executor === 'gpu') {
    const gpu = typeof navigator !== 'undefined' && navigator.gpu ? new GpuExecutor(() => navigator.gpu) : undefined;
    runProgramJobOnGpu(data, (m) => scope.postMessage(m), gpu).then((k) => (kept = k), failed);
    return;
  }
  try {
    kept = runProgramJob(data, (m) => scope.postMessage(m));
  } catch (err) {
    failed(err);
  }
};
