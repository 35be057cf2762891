/**
 * Runs the simulator in a Web Worker: `createSimWorker(() => new Worker(url, { type: 'module' }))`
 * then `client.simulate(run, options, onProgress)` → `{ promise, cancel }`. Uses only the
 * `Worker` global (no DOM). In Vite: `new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })`.
 */
import type { KernelRun } from '../kernel/types.ts';
import type { SimResult } from './simulate.ts';
import type { WorkerRequest, WorkerResponse, WorkerSimOptions } from './worker.ts';

/** A simulation in flight. */
export interface SimJob {
  readonly promise: Promise<SimResult>;
  /** Stops the run: the promise rejects with `SimCancelled`. */
  cancel(): void;
}

/** Rejection reason of a cancelled job. */
export class SimCancelled extends Error {
  constructor() {
    super('simulation cancelled');
    this.name = 'SimCancelled';
  }
}

interface WorkerLike {
  postMessage(message: WorkerRequest, transfer?: Transferable[]): void;
  terminate(): void;
  onmessage: ((e: MessageEvent<WorkerResponse>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
}

/** A client that keeps one worker and runs one simulation at a time (a new run cancels the old). */
export function createSimWorker(spawn: () => WorkerLike) {
  let worker: WorkerLike | null = null;
  let nextId = 1;
  let current: { id: number; reject: (e: unknown) => void; flag: Int32Array | null } | null = null;
  const handlers = new Map<number, { resolve: (r: SimResult) => void; reject: (e: unknown) => void; progress?: (f: number) => void }>();

  const ensure = (): WorkerLike => {
    if (worker) return worker;
    const w = spawn();
    w.onmessage = (e) => {
      const msg = e.data;
      const h = handlers.get(msg.id);
      if (!h) return;
      if (msg.type === 'progress') h.progress?.(msg.fraction);
      else {
        handlers.delete(msg.id);
        if (current?.id === msg.id) current = null;
        if (msg.type === 'done') h.resolve(msg.result);
        else h.reject(new Error(msg.message));
      }
    };
    w.onerror = (e) => {
      // A worker that failed (blocked from starting, out of memory, an uncaught error) is ended
      // and forgotten, so the next run starts a fresh one instead of waiting on a dead one.
      const message = e.message
        ? `The simulation worker failed: ${e.message}`
        : 'The simulation worker stopped without a message: it could not start (a Content-Security-Policy without worker-src for this page?) or ran out of memory. Reload the page; with a large input, choose a smaller one.';
      for (const h of handlers.values()) h.reject(new Error(message));
      handlers.clear();
      current = null;
      w.terminate();
      if (worker === w) worker = null;
    };
    worker = w;
    return w;
  };

  const cancelCurrent = () => {
    if (!current) return;
    const c = current;
    current = null;
    handlers.delete(c.id);
    if (c.flag) Atomics.store(c.flag, 0, 1);
    else {
      // No shared memory: the only way to stop a synchronous run is to end the worker.
      worker?.terminate();
      worker = null;
    }
    c.reject(new SimCancelled());
  };

  return {
    simulate(run: KernelRun, options: WorkerSimOptions = {}, onProgress?: (fraction: number) => void): SimJob {
      cancelCurrent();
      const id = nextId++;
      const flag = typeof SharedArrayBuffer !== 'undefined' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated
        ? new Int32Array(new SharedArrayBuffer(4))
        : null;
      const promise = new Promise<SimResult>((resolve, reject) => {
        handlers.set(id, onProgress ? { resolve, reject, progress: onProgress } : { resolve, reject });
        current = { id, reject, flag };
      });
      const msg: WorkerRequest = flag ? { type: 'run', id, run, options, cancelFlag: flag } : { type: 'run', id, run, options };
      ensure().postMessage(msg);
      return {
        promise,
        cancel: () => {
          if (current?.id === id) cancelCurrent();
        },
      };
    },
    /** Ends the worker and rejects whatever is in flight. */
    dispose(): void {
      cancelCurrent();
      worker?.terminate();
      worker = null;
    },
  };
}
