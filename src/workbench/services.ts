/**
 * What the host hands to every page and panel: the page's one GPU executor and the simulator's
 * worker pool. The composition root (`src/app/main.tsx`) builds them once; a panel receives them
 * in its props (`PanelProps.services`) and creates no device or worker of its own.
 */
import { measureFmaPeak, type GpuExecutor } from '../gpu/index.ts';
import type { createSimWorker } from '../sim/workerClient.ts';
import type { SimChannel } from './simulation.ts';

/** A simulator worker: one simulation at a time, a new run cancels the old. */
export type SimClient = ReturnType<typeof createSimWorker>;

export interface Services {
  /** The page's one GPU executor (it owns the device and recovers it). */
  readonly gpu: GpuExecutor;
  /** The device's peak FMA rate, measured on `gpu` (the roofline's ceiling). */
  readonly fmaPeak: (options?: Parameters<typeof measureFmaPeak>[1]) => ReturnType<typeof measureFmaPeak>;
  /** The simulator worker of a channel (`primary`, `compare`, `background`, a panel's own), made on first use. */
  readonly simulator: (channel: SimChannel) => SimClient;
}

export function createServices(gpu: GpuExecutor, simulator: (channel: SimChannel) => SimClient): Services {
  return { gpu, fmaPeak: (options) => measureFmaPeak(gpu, options), simulator };
}
