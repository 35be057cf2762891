import type { BindingData, Bindings, KernelRun } from '../kernel/types.ts';

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

/** The element type of a binding's typed array. */
export function elementTypeOf(data: BindingData): ElementType {
  return data instanceof Uint32Array ? 'u32' : data instanceof Int32Array ? 'i32' : 'f32';
}

/**
 * `data` padded with zeros to a whole number of vec4s (at least one), for kernels that bind
 * `array<vec4<T>>`; `data` itself when it already is.
 */
export function padToVec4(data: BindingData): BindingData {
  if (data.length % 4 === 0 && data.length > 0) return data;
  const out = arrayFor(elementTypeOf(data), Math.ceil(Math.max(data.length, 1) / 4) * 4);
  out.set(data);
  return out;
}
