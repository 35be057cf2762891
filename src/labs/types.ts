import type { Bindings, KernelRun } from '../kernel/types.ts';

/**
 * Anything that runs a `KernelRun` and returns its buffers: the GPU executor, or the simulator
 * wrapped in a promise. Multi-pass drivers take one of these so the same chain runs on both.
 */
export interface KernelExecutor {
  run(run: KernelRun): Promise<Bindings>;
}

/** Element types a lab can run on. */
export type ElementType = 'u32' | 'i32' | 'f32';

/** Typed array for an element type. */
export function arrayFor(type: ElementType, n: number): Uint32Array | Int32Array | Float32Array {
  return type === 'u32' ? new Uint32Array(n) : type === 'i32' ? new Int32Array(n) : new Float32Array(n);
}
