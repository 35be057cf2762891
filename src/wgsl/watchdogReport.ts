/**
 * The part of the watchdog the GPU executor needs: which binding holds the flags, which loop
 * each flag stands for, and how to say which loops were stopped. No parser here, so the executor
 * does not pull the simulator into its bundle (the transform itself is `watchdog.ts`).
 */

export type LoopKind = 'loop' | 'for' | 'while';

/** One guarded loop, where the person wrote it. */
export interface WatchedLoop {
  /** Index of this loop's word in the flag binding. */
  readonly index: number;
  readonly kind: LoopKind;
  /** 1-based line and column of the loop keyword in the original source. */
  readonly line: number;
  readonly column: number;
}

/** What the executor needs to read the watchdog back (no parser inside: a plain record). */
export interface WatchdogBinding {
  readonly group: number;
  readonly binding: number;
  /** Iterations one loop may run each time it is entered before it is stopped. */
  readonly bound: number;
  readonly loops: readonly WatchedLoop[];
  /** Where the code came from, for messages (a path under `shaders/`, or `edited.wgsl`). */
  readonly file?: string;
}

/** The loops whose flag is set in a flag buffer read back from the GPU. */
export function trippedLoops(watchdog: WatchdogBinding, flags: ArrayLike<number>): WatchedLoop[] {
  return watchdog.loops.filter((l) => (flags[l.index] ?? 0) !== 0);
}

/** "the loop at line 12, column 3 ran past 1 024 iterations and was stopped" for each stopped loop. */
export function describeTrips(watchdog: WatchdogBinding, tripped: readonly WatchedLoop[]): string {
  const where = (l: WatchedLoop) =>
    `the ${l.kind === 'loop' ? 'loop' : `${l.kind} loop`} at line ${l.line}, column ${l.column}${watchdog.file ? ` of ${watchdog.file}` : ''}`;
  const bound = watchdog.bound.toLocaleString('en');
  const parts = tripped.map(where);
  const list = parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]!}`;
  return `${list.charAt(0).toUpperCase()}${list.slice(1)} ran past ${bound} iterations and ${parts.length === 1 ? 'was' : 'were'} stopped by the watchdog.`;
}

