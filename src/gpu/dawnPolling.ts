/**
 * Dawn's Node binding waits for GPU work (`onSubmittedWorkDone`, `mapAsync`, an async pipeline)
 * by polling: while anything is pending it calls the global `setImmediate` with a native callback
 * that processes Dawn's events and schedules itself again, tens of thousands of times a second.
 * On SwiftShader, where the "GPU" is the CPU's other threads, that busy main thread took a third
 * of the GPU tests' CPU time and competed with the very threads it was waiting for.
 *
 * `pollDawnGently` (test support: the `gpu` project of vitest.config.ts installs it before any
 * file runs) keeps the first millisecond of a wait as it was, so short operations still settle at
 * once, then polls once a millisecond. Only Dawn's own callbacks are slowed: a native function
 * passed alone (other callers of `setImmediate` pass their own JavaScript functions or
 * arguments; a native one, such as a promise's resolve, waits at most a millisecond).
 */
type Immediate = (callback: (...args: unknown[]) => void, ...args: unknown[]) => unknown;

const INSTALLED = Symbol.for('warpscope.pollDawnGently');
/** How long a wait polls at full speed before it backs off to once a millisecond. */
const SPIN_MS = 1;

function isNative(fn: unknown): boolean {
  return typeof fn === 'function' && Function.prototype.toString.call(fn).endsWith('{ [native code] }');
}

export function pollDawnGently(): void {
  const g = globalThis as unknown as Record<PropertyKey, unknown> & { setImmediate: Immediate };
  if (g[INSTALLED]) return;
  g[INSTALLED] = true;
  const immediate = g.setImmediate;
  /** When the current wait began: a poll scheduled from outside a poll begins a new one. */
  let waitStarted = 0;
  let polling = false;
  const poll = (callback: (...args: unknown[]) => void) => () => {
    polling = true;
    try {
      callback();
    } finally {
      polling = false;
    }
  };
  g.setImmediate = (callback, ...args) => {
    if (args.length > 0 || !isNative(callback)) return immediate(callback, ...args);
    const now = performance.now();
    if (!polling) waitStarted = now;
    const next = poll(callback);
    return now - waitStarted < SPIN_MS ? immediate(next) : setTimeout(next, 1);
  };
}
