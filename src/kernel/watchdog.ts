/**
 * The watchdog on a run: the kernel's code with every loop guarded (`src/wgsl/watchdog.ts`, a
 * source transform) and a zeroed flag buffer added to its bindings, where the guarded loops
 * report that they were stopped.
 */
import { addWatchdog, type GuardedSource, type WatchdogOptions } from '../wgsl/watchdog.ts';
import type { BindingData, KernelRun } from './types.ts';

/** `run` with the watchdog added to its code and a zeroed flag buffer in its bindings. */
export function guardKernel(run: KernelRun, options: WatchdogOptions = {}): { run: KernelRun; guarded: GuardedSource } {
  const guarded = addWatchdog(run.code, { ...options, ...(run.file ? { file: run.file } : {}) });
  const w = guarded.watchdog;
  if (!w) return { run, guarded };
  const bindings: Record<number, Record<number, BindingData>> = {};
  for (const [g, rec] of Object.entries(run.bindings)) bindings[Number(g)] = { ...rec };
  (bindings[w.group] ??= {})[w.binding] = new Uint32Array(w.loops.length);
  return { run: { ...run, code: guarded.code, bindings }, guarded };
}
