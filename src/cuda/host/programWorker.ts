/**
 * Web Worker entry for the program page: compiles and runs one whole CUDA program per worker
 * (`runProgramJob`), streaming its output. The page stops a run by terminating the worker.
 */
import { runProgramJob, type ProgramMessage, type ProgramRequest } from './programProtocol.ts';

interface ProgramScope {
  onmessage: ((e: { data: ProgramRequest }) => void) | null;
  postMessage(message: ProgramMessage): void;
}

const scope = globalThis as unknown as ProgramScope;

scope.onmessage = (e) => {
  try {
    runProgramJob(e.data, (m) => scope.postMessage(m));
  } catch (err) {
    scope.postMessage({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
};
