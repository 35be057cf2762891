import { useEffect, useRef, useState } from 'react';
import type { Bindings, KernelRun } from '../kernel/types.ts';
import type { KernelExecutor } from '../labs/types.ts';
import type { SimOptions, SimResult } from '../sim/index.ts';
import type { WorkerRequest, WorkerResponse } from '../sim/worker.ts';
import { createSimWorker, SimCancelled } from '../sim/workerClient.ts';
import simWorkerUrl from '../sim/worker.ts?worker&url';
import { workerScriptUrl } from './trustedTypes.ts';

type SimClient = ReturnType<typeof createSimWorker>;
type WorkerLike = Parameters<typeof createSimWorker>[0] extends () => infer W ? W : never;

/** What to do when the worker cannot run: the same advice wherever it is shown. */
const WORKER_ADVICE =
  'Reload the page. If it happens again, this page is not allowed to start workers (a Content-Security-Policy worker-src rule, an extension or a browser setting) or could not load their script: the step-through needs one.';

/** Says why the worker could not start, in words a person can act on. */
export function describeWorkerFailure(cause: unknown): string {
  const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : typeof cause === 'string' ? cause : '';
  return `The simulator's Web Worker could not start${detail ? ` (${detail})` : ''}. ${WORKER_ADVICE}`;
}

/** Says why a running worker stopped: its own error with where it happened, or a failed load. */
export function describeWorkerError(e: { message?: unknown; filename?: unknown; lineno?: unknown; colno?: unknown }): string {
  const message = typeof e.message === 'string' ? e.message.trim() : '';
  if (!message) {
    // No message at all: the browser refused or failed to load the worker's script (a blocked
    // worker-src, a network or MIME error) and, for security, says nothing more.
    return `The simulator's Web Worker could not be loaded: the browser blocked it or could not fetch its script. ${WORKER_ADVICE}`;
  }
  const file = typeof e.filename === 'string' && e.filename ? e.filename.replace(/^.*\//, '') : '';
  const where = file && typeof e.lineno === 'number' && e.lineno > 0 ? ` at ${file}:${e.lineno}:${typeof e.colno === 'number' ? e.colno : 0}` : '';
  return `The simulator's Web Worker stopped with an error${where}: ${message}. Reload the page to start it again.`;
}

/**
 * Starts a simulator worker for `channel`. The worker's errors reach the client with a message a
 * person can act on, and a worker that failed is dropped so that the next simulation starts a
 * fresh one instead of waiting on a dead worker forever.
 */
function spawnFor(channel: SimChannel): () => WorkerLike {
  return () => {
    let worker: Worker;
    try {
      worker = new Worker(workerScriptUrl(simWorkerUrl), { type: 'module', name: `warpscope-sim-${channel}` });
    } catch (e) {
      throw new Error(describeWorkerFailure(e), { cause: e });
    }
    const like: WorkerLike = {
      postMessage: (message: WorkerRequest, transfer?: Transferable[]) => worker.postMessage(message, transfer ?? []),
      terminate: () => worker.terminate(),
      onmessage: null,
      onerror: null,
    };
    worker.onmessage = (e: MessageEvent<WorkerResponse>) => like.onmessage?.(e);
    worker.onerror = (e: Event) => {
      e.preventDefault(); // reported on the page, with what to do, instead of as an uncaught error
      const message = describeWorkerError(e as ErrorEvent);
      like.onerror?.(new ErrorEvent('error', { message }));
      const failed = clients.get(channel);
      if (failed) {
        clients.delete(channel);
        failed.dispose();
      }
    };
    return like;
  };
}

/**
 * Workers by purpose: each client runs one simulation at a time (a new one cancels the old), so
 * the primary view, the compare view and background checks (timings) each get their own.
 */
export type SimChannel = 'primary' | 'compare' | 'background' | 'insights';
const clients = new Map<SimChannel, SimClient>();

function client(channel: SimChannel): SimClient {
  let c = clients.get(channel);
  if (!c) clients.set(channel, (c = createSimWorker(spawnFor(channel))));
  return c;
}

// A hot update of this module (dev server) replaces it: its workers go with it.
import.meta.hot?.dispose(() => {
  for (const c of clients.values()) c.dispose();
  clients.clear();
});

/** A `KernelExecutor` on the simulator in a Web Worker (counters only), so drivers can chain passes on it. */
export function workerSimExecutor(warpSize = 32): KernelExecutor {
  return {
    async run(run: KernelRun): Promise<Bindings> {
      const result = await client('background').simulate(run, { warpSize, trace: 'summary' }).promise;
      return result.buffers;
    },
  };
}

export type SimulationState =
  | { readonly state: 'idle' }
  | { readonly state: 'running'; readonly progress: number }
  | { readonly state: 'done'; readonly result: SimResult }
  | { readonly state: 'error'; readonly message: string }
  | { readonly state: 'cancelled' };

type Options = Pick<SimOptions, 'warpSize' | 'trace' | 'traceWorkgroups' | 'maxSteps'>;

/**
 * Simulates `run` in a worker whenever it (or the options) change, with progress and cancel.
 * The page stays responsive however long the simulation takes.
 */
export function useSimulation(
  run: KernelRun | undefined,
  options: Options,
  channel: SimChannel = 'primary',
): { status: SimulationState; cancel: () => void } {
  const [status, setStatus] = useState<SimulationState>({ state: 'idle' });
  const cancelRef = useRef<() => void>(() => {});
  const key = JSON.stringify(options);
  useEffect(() => {
    if (!run) {
      setStatus({ state: 'idle' });
      return;
    }
    const opts = JSON.parse(key) as Options;
    let job: ReturnType<SimClient['simulate']>;
    try {
      job = client(channel).simulate(run, opts, (progress) => setStatus({ state: 'running', progress }));
    } catch (e) {
      // The worker could not even be created (Trusted Types, a browser without module workers).
      setStatus({ state: 'error', message: e instanceof Error ? e.message : describeWorkerFailure(e) });
      return;
    }
    setStatus({ state: 'running', progress: 0 });
    let live = true;
    cancelRef.current = () => {
      job.cancel();
      if (live) setStatus({ state: 'cancelled' });
    };
    job.promise.then(
      (result) => {
        if (live) setStatus({ state: 'done', result });
      },
      (e: unknown) => {
        if (!live) return;
        if (e instanceof SimCancelled) setStatus({ state: 'cancelled' });
        else setStatus({ state: 'error', message: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => {
      live = false;
      job.cancel();
    };
  }, [run, key, channel]);
  return { status, cancel: () => cancelRef.current() };
}
