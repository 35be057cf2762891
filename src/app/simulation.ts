import { useEffect, useRef, useState } from 'react';
import type { Bindings, KernelRun } from '../kernel/types.ts';
import type { KernelExecutor } from '../labs/types.ts';
import type { SimOptions, SimResult } from '../sim/index.ts';
import { createSimWorker, SimCancelled } from '../sim/workerClient.ts';

type SimClient = ReturnType<typeof createSimWorker>;
const spawn = () => new Worker(new URL('../sim/worker.ts', import.meta.url), { type: 'module', name: 'warpscope-sim' });

/**
 * Workers by purpose: each client runs one simulation at a time (a new one cancels the old), so
 * the primary view, the compare view and background checks (timings) each get their own.
 */
export type SimChannel = 'primary' | 'compare' | 'background' | 'insights';
const clients = new Map<SimChannel, SimClient>();

function client(channel: SimChannel): SimClient {
  let c = clients.get(channel);
  if (!c) clients.set(channel, (c = createSimWorker(spawn)));
  return c;
}

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
    setStatus({ state: 'running', progress: 0 });
    const job = client(channel).simulate(run, opts, (progress) => setStatus({ state: 'running', progress }));
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
