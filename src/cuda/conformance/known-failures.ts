/**
 * Cases that fail today because the translator (src/cuda, branch cuda-front) is wrong or
 * incomplete — never because an expectation was bent. Each id maps to the executors it fails on
 * and why. The runners mark these `it.fails`: the suite stays green, and a case that starts
 * passing turns red until its line here is deleted.
 */
export interface KnownFailure {
  /** Fails on the simulator (conformance.test.ts). */
  readonly sim?: string;
  /** Fails on Dawn (conformance.gpu.test.ts). */
  readonly dawn?: string;
}

export const KNOWN_FAILURES: Readonly<Record<string, KnownFailure>> = {};
