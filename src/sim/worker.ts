/**
 * Web Worker entry: runs `simulate` off the UI thread. Message in: `{ type: 'run', id, run,
 * options, cancelFlag? }`. Messages out: `{ type: 'progress', id, fraction }` and
 * `{ type: 'done', id, result }` (the trace's typed arrays are transferred, not copied) or
 * `{ type: 'error', id, message }`.
 *
 * Cancel: `simulate` is synchronous, so no message can be read while it runs; the client writes
 * the cancel flag into a SharedArrayBuffer when one is available (cross-origin isolated
 * pages) and otherwise terminates the worker.
 */
import type { KernelRun } from '../kernel/types.ts';
import { simulate, type SimOptions } from './simulate.ts';
import { traceTransferables } from './trace.ts';

/** Options that can cross a worker boundary (no callbacks). */
export type WorkerSimOptions = Omit<SimOptions, 'onProgress' | 'shouldStop'>;

export type WorkerRequest = { type: 'run'; id: number; run: KernelRun; options: WorkerSimOptions; cancelFlag?: Int32Array };

export type WorkerResponse =
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'done'; id: number; result: import('./simulate.ts').SimResult }
  | { type: 'error'; id: number; message: string };

interface WorkerScope {
  onmessage: ((e: { data: WorkerRequest }) => void) | null;
  postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;

scope.onmessage = (e) => {
  const msg = e.data;
  const { id, run, options, cancelFlag } = msg;
  try {
    const result = simulate(run, {
      ...options,
      onProgress: (fraction) => scope.postMessage({ type: 'progress', id, fraction }),
      shouldStop: () => (cancelFlag ? Atomics.load(cancelFlag, 0) !== 0 : false),
    });
    const transfer: Transferable[] = result.trace ? traceTransferables(result.trace) : [];
    for (const rec of Object.values(result.buffers)) for (const b of Object.values(rec)) transfer.push(b.buffer as ArrayBuffer);
    scope.postMessage({ type: 'done', id, result }, transfer);
  } catch (err) {
    scope.postMessage({ type: 'error', id, message: err instanceof Error ? err.message : String(err) });
  }
};
