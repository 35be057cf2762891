/**
 * The one contract every executor takes: a WGSL compute kernel described as data.
 *
 * `src/gpu` runs it on WebGPU, `src/sim` replays it warp by warp; both return buffers of the same
 * shape as `bindings`, and tests demand that they agree.
 */

/** Typed arrays a binding may hold. The element type must match the WGSL declaration. */
export type BindingData = Uint32Array | Int32Array | Float32Array;

/** `{ [group]: { [binding]: data } }`, mirroring `@group(g) @binding(b)` in the WGSL. */
export type Bindings = Record<number, Record<number, BindingData>>;

/** Dispatch size in workgroups: `[x]`, `[x, y]` or `[x, y, z]`; missing dimensions are 1. */
export type Workgroups = readonly [number, number?, number?];

export interface KernelRun {
  /** WGSL source text, usually a file under `shaders/` (imported with `?raw`). */
  readonly code: string;
  /** The `@compute` function to run. */
  readonly entryPoint: string;
  /** Number of workgroups to dispatch. Use `foldWorkgroups` above 65 535 in one dimension. */
  readonly workgroups: Workgroups;
  /**
   * Buffers by group and binding. Storage buffers declared `read` are inputs only; `read_write`
   * ones come back with the kernel's writes. Uniform buffers are inputs. Executors never modify
   * the arrays passed in.
   */
  readonly bindings: Bindings;
  /** Values for the WGSL `override` constants, by name. */
  readonly overrides?: Readonly<Record<string, number>>;
  /** Where `code` came from (e.g. `shaders/<lab>/<variant>.wgsl`), for error messages. */
  readonly file?: string;
  /** A short name for GPU object labels and diagnostics, e.g. `<lab>.<variant>`. */
  readonly label?: string;
  /**
   * For a run that stands in for another kernel's (a learner's CUDA launched in place of a lab's
   * WGSL pass): the name each binding has in that kernel, by group and binding. Executors ignore
   * it; the simulator hands it on to the trace (`TraceMemory.alias`), so views find an array by the
   * name the lab gives it whatever the learner's kernel calls its parameter.
   */
  readonly aliases?: Readonly<Record<number, Readonly<Record<number, string>>>>;
}

/** A place in WGSL source, 1-based like editors show it. */
export interface SourceLocation {
  readonly file?: string;
  readonly line: number;
  readonly column: number;
}

/** Normalises a dispatch size to three dimensions. */
export function dispatchSize(workgroups: Workgroups): [number, number, number] {
  return [workgroups[0], workgroups[1] ?? 1, workgroups[2] ?? 1];
}

/** Total number of workgroups in a dispatch. */
export function workgroupCount(workgroups: Workgroups): number {
  const [x, y, z] = dispatchSize(workgroups);
  return x * y * z;
}

/** WebGPU's default `maxComputeWorkgroupsPerDimension`. */
export const MAX_WORKGROUPS_PER_DIMENSION = 65_535;

/**
 * Folds a linear count of workgroups into a 2-D grid when it exceeds the per-dimension limit.
 * Kernels recover the linear index with `linear_workgroup_index` from
 * `shaders/common/linear-workgroup.wgsl`, and must ignore workgroups whose linear index is at
 * or beyond `count` (the last row may be partly filled): e.g. 100 000 workgroups fold into
 * 50 000 × 2 = exactly 100 000, while 70 000 fold into 35 000 × 2.
 */
export function foldWorkgroups(
  count: number,
  maxPerDimension: number = MAX_WORKGROUPS_PER_DIMENSION,
): [number, number] {
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`workgroup count must be a non-negative integer, got ${count}`);
  }
  if (count <= maxPerDimension) return [Math.max(count, 0), 1];
  const rows = Math.ceil(count / maxPerDimension);
  if (rows > maxPerDimension) {
    throw new RangeError(
      `${count} workgroups exceed ${maxPerDimension}² even when folded into two dimensions`,
    );
  }
  // Spread evenly over the rows so the wasted tail is smaller than one row.
  return [Math.ceil(count / rows), rows];
}
