/** Test support for the files that drive the executor (`*.gpu.test.ts`). */
import type { BindingData } from '../kernel/types.ts';
import { isGpuError, type GpuError } from './errors.ts';
import { firstMismatch } from '../util/arrays.ts';

/**
 * The `GpuError` that `promise` rejects with, for a test to read its kind, message and hint.
 * Throws when the promise resolves, and passes any other rejection on (a programming error).
 */
export async function gpuErrorOf(promise: Promise<unknown>): Promise<GpuError> {
  try {
    await promise;
  } catch (e) {
    if (isGpuError(e)) return e;
    throw e;
  }
  throw new Error('expected a GpuError, but the GPU call succeeded');
}

/**
 * How two buffers differ as `toEqual` compares them (the array type, the length, every element by
 * Object.is), naming the first difference; null when they are equal. For
 * `expect(dataMismatch(got, want)).toBeNull()`: `toEqual` walks a typed array through its generic
 * comparison, about 20 µs an element, seconds of CPU for a buffer of 2^16 values.
 */
export function dataMismatch(actual: BindingData, expected: BindingData): string | null {
  const type = (x: BindingData): string => Object.prototype.toString.call(x);
  if (type(actual) !== type(expected)) return `got a ${type(actual)}, want a ${type(expected)}`;
  const at = firstMismatch(actual, expected);
  if (at === -1) return null;
  return `index ${at} of ${actual.length} (want ${expected.length} elements): got ${actual[at]}, want ${expected[at]}`;
}
