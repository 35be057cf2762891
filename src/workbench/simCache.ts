/**
 * The last few finished simulations of the labs' own kernels, kept for the page's life, so that
 * showing again what was just shown does not simulate it again: the next lesson step on the same
 * variant and parameters (each step mounts its lab anew), the step before, a lab left and opened
 * again. A run is named by what determines it (the lab, the variant, the parameters, the inputs'
 * seed and the simulator's options); a learner's draft or a translated kernel is never kept, as its
 * source is not in the name. Bounded by the bytes of the traces kept and by a count; the oldest
 * used goes first.
 */
import type { SimOptions, SimResult } from '../sim/index.ts';
import { traceBytes } from '../sim/trace.ts';
import type { TraceIndex } from '../trace/index.ts';
import type { Params } from './lab.ts';

/** A finished simulation, indexed, as a slot shows it. */
export interface CachedSim {
  readonly result: SimResult;
  readonly index: TraceIndex | undefined;
  /** The shared memory the stage shows, or −1. */
  readonly memory: number;
}

export interface SimCache {
  get(key: string): CachedSim | undefined;
  put(key: string, sim: CachedSim): void;
}

/** Names a lab's own run: the same name, the same run. */
export function simKey(lab: string, variant: string, params: Params, seed: number, options: SimOptions): string {
  const sortedParams = Object.keys(params)
    .sort()
    .map((k) => [k, params[k]]);
  return JSON.stringify([lab, variant, sortedParams, seed, options]);
}

/** The bytes a result's trace and output buffers take (what keeping it costs). */
function sizeOf(sim: CachedSim): number {
  let bytes = sim.result.trace ? traceBytes(sim.result.trace) : 0;
  for (const group of Object.values(sim.result.buffers)) for (const data of Object.values(group)) bytes += data.byteLength;
  return bytes;
}

/**
 * A cache of at most `maxEntries` simulations and `maxBytes` of their traces and buffers. A result
 * larger than `maxBytes` alone is not kept.
 */
export function createSimCache({ maxEntries = 8, maxBytes = 48 * 2 ** 20 }: { maxEntries?: number; maxBytes?: number } = {}): SimCache {
  // A Map iterates in insertion order: re-inserting on use keeps the oldest used first.
  const entries = new Map<string, { sim: CachedSim; bytes: number }>();
  let total = 0;
  return {
    get(key) {
      const e = entries.get(key);
      if (!e) return undefined;
      entries.delete(key);
      entries.set(key, e);
      return e.sim;
    },
    put(key, sim) {
      const old = entries.get(key);
      if (old) {
        entries.delete(key);
        total -= old.bytes;
      }
      const bytes = sizeOf(sim);
      if (bytes > maxBytes) return;
      entries.set(key, { sim, bytes });
      total += bytes;
      for (const [k, e] of entries) {
        if (entries.size <= maxEntries && total <= maxBytes) break;
        entries.delete(k);
        total -= e.bytes;
      }
    },
  };
}
