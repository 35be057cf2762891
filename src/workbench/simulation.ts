import type { Bindings, KernelRun } from '../kernel/types.ts';
import type { KernelExecutor } from './labTypes.ts';
import type { WorkerRequest, WorkerResponse } from '../sim/worker.ts';
import { createSimWorker } from '../sim/workerClient.ts';
import simWorkerUrl from '../sim/worker.ts?worker&url';
import { workerScriptUrl } from './trustedTypes.ts';
import { ui } from '../i18n/ui.ts';
import { createSimCache } from './simCache.ts';

type SimClient = ReturnType<typeof createSimWorker>;
type WorkerLike = Parameters<typeof createSimWorker>[0] extends () => infer W ? W : never;

/** What to do when the worker cannot run: the same advice wherever it is shown. */
const workerAdvice = () => ui('worker.advice');

/** Says why the worker could not start, in words a person can act on. */
export function describeWorkerFailure(cause: unknown): string {
  const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : typeof cause === 'string' ? cause : '';
  return `${ui(detail ? 'worker.noStartDetail' : 'worker.noStart', { detail })} ${workerAdvice()}`;
}

/** Says why a running worker stopped: its own error with where it happened, or a failed load. */
export function describeWorkerError(e: { message?: unknown; filename?: unknown; lineno?: unknown; colno?: unknown }): string {
  const message = typeof e.message === 'string' ? e.message.trim() : '';
  if (!message) {
    // No message at all: the browser refused or failed to load the worker's script (a blocked
    // worker-src, a network or MIME error) and, for security, says nothing more.
    return `${ui('worker.notLoaded')} ${workerAdvice()}`;
  }
  const file = typeof e.filename === 'string' && e.filename ? e.filename.replace(/^.*\//, '') : '';
  const where = file && typeof e.lineno === 'number' && e.lineno > 0 ? `${file}:${e.lineno}:${typeof e.colno === 'number' ? e.colno : 0}` : '';
  return where ? ui('worker.stoppedAt', { where, message }) : ui('worker.stopped', { message });
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
export type SimChannel = 'primary' | 'compare' | 'background' | 'insights' | (string & {});
const clients = new Map<SimChannel, SimClient>();

/** The worker client of a channel (one simulation at a time on each). */
export function client(channel: SimChannel): SimClient {
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

/**
 * The page's finished simulations of the labs' own kernels (simCache.ts): every lab view's session
 * reuses them, so a lesson step or a lab shown again opens at once.
 */
export const simCache = createSimCache();
