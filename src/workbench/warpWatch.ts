/**
 * The warp watch's re-run: the primary simulation again, deterministically, up to one trace step,
 * where the simulator captures the kernel's scalar names in every lane of one warp
 * (`RunOptions.watch`). The first re-run of a run also keeps a checkpoint at the start of the traced
 * workgroup (the buffers as they stood), and later ones resume from it, so a watch costs one
 * workgroup, not the whole dispatch before it.
 */
import type { Bindings, KernelRun } from '../kernel/types.ts';
import type { SimOptions, SimResult } from '../sim/index.ts';
import type { WatchCapture } from '../sim/instance.ts';

export type WatchSimulate = (run: KernelRun, options: SimOptions) => { readonly promise: Promise<SimResult>; cancel(): void };

export interface WatchJob {
  readonly promise: Promise<WatchCapture | undefined>;
  cancel(): void;
}

export function createWatchRunner(simulate: WatchSimulate) {
  const checkpoints = new WeakMap<KernelRun, { readonly at: number; readonly buffers: Bindings }>();
  return {
    /** The scalar names where `warp` stands after trace `step` of `run` simulated with `options`. */
    watch(run: KernelRun, options: SimOptions, step: number, warp: number): WatchJob {
      const traced = options.traceWorkgroups;
      const first = traced && traced.length > 0 ? Math.min(...traced) : 0;
      const cp = checkpoints.get(run);
      const base: SimOptions = { ...options, trace: 'summary', watch: { step, warp } };
      const job = cp ? simulate({ ...run, bindings: cp.buffers }, { ...base, resumeAt: cp.at }) : simulate(run, first > 0 ? { ...base, checkpointAt: first } : base);
      return {
        promise: job.promise.then((r) => {
          if (r.checkpoint) checkpoints.set(run, r.checkpoint);
          return r.watch;
        }),
        cancel: () => job.cancel(),
      };
    },
    /** Whether a checkpoint is kept for `run` (for tests). */
    hasCheckpoint: (run: KernelRun) => checkpoints.has(run),
  };
}
