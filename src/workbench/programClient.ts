/**
 * The program page's link to `src/cuda/host/programWorker.ts`: one module worker per run (its
 * URL through the Trusted Types policy), so Stop is terminating it. Re-exports the protocol's types.
 */
import programWorkerUrl from '../cuda/host/programWorker.ts?worker&url';
import { workerScriptUrl } from './trustedTypes.ts';

export type { LaunchSummary, ProgramMessage, ProgramRequest, ReplayRequest } from '../cuda/host/programProtocol.ts';
export type { Diagnostic as CudaDiagnostic } from '../cuda/types.ts';

/** A fresh worker for one program run, or undefined where the browser has no workers. */
export function startProgramWorker(): Worker | undefined {
  return typeof Worker === 'undefined' ? undefined : new Worker(workerScriptUrl(programWorkerUrl), { type: 'module', name: 'warpscope-program' });
}
