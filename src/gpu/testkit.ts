/** Test support for the files that drive the executor (`*.gpu.test.ts`). */
import { isGpuError, type GpuError } from './errors.ts';

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
