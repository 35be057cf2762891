import VECTOR_ADD_WGSL from '../../../shaders/basics/vector-add.wgsl?raw';
import type { KernelRun } from '../../kernel/types.ts';

export const VECTOR_ADD_FILE = 'shaders/basics/vector-add.wgsl';

export interface VectorAddInput {
  readonly a: Float32Array;
  readonly b: Float32Array;
  /** Invocations per workgroup (the `WORKGROUP_SIZE` override). */
  readonly workgroupSize?: number;
  /** Workgroups to launch; the grid-stride loop covers any n with any grid. */
  readonly workgroups?: number;
}

/** Builds the vector-add `KernelRun`: c = a + b over n = a.length elements. */
export function vectorAddRun({ a, b, workgroupSize = 256, workgroups }: VectorAddInput): KernelRun {
  if (a.length !== b.length) throw new RangeError(`a and b differ in length (${a.length} vs ${b.length})`);
  const n = a.length;
  // One element per invocation up to 4096 workgroups, then the grid-stride loop takes over.
  const grid = workgroups ?? Math.max(1, Math.min(4096, Math.ceil(n / workgroupSize)));
  return {
    code: VECTOR_ADD_WGSL,
    entryPoint: 'main',
    file: VECTOR_ADD_FILE,
    label: 'basics.vector-add',
    workgroups: [grid],
    overrides: { WORKGROUP_SIZE: workgroupSize },
    bindings: { 0: { 0: a, 1: b, 2: new Float32Array(n), 3: new Uint32Array([n, 0, 0, 0]) } },
  };
}

/** CPU reference with WGSL's f32 rounding. */
export function vectorAddReference(a: Float32Array, b: Float32Array): Float32Array {
  const c = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) c[i] = Math.fround(a[i]! + b[i]!);
  return c;
}

/** Bytes a vector add moves: two reads and one write of 4 bytes per element. */
export const vectorAddBytes = (n: number): number => 12 * n;
