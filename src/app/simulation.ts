import type { Bindings, KernelRun } from '../kernel/types.ts';
import type { KernelExecutor } from '../labs/types.ts';
import { createSimWorker } from '../sim/workerClient.ts';

type SimClient = ReturnType<typeof createSimWorker>;
const spawn = () => new Worker(new URL('../sim/worker.ts', import.meta.url), { type: 'module', name: 'warpscope-sim' });

/**
 * Workers by purpose: each client runs one simulation at a time (a new one cancels the old), so
 * the primary view, the compare view and background checks (timings) each get their own.
 */
export type SimChannel = 'primary' | 'compare' | 'background' | 'insights' | (string & {});
const clients = new Map<SimChannel, SimClient>();

/** The worker client of a channel (one simulation at a time on each). */
export function client(channel: SimChannel): SimClient {
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
