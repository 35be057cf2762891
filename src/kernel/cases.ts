/**
 * A kernel under `shaders/` with a factory of seeded inputs, so one test can run each on both
 * executors (GPU and simulator) and demand that they agree. Each lab lists its cases in its module
 * (`LabModule.cases`); the registry (`src/labs/registry.ts`) gathers them, and `cases.test.ts`
 * fails when a `.wgsl` file has none. This layer names no lab.
 */
import type { KernelRun } from './types.ts';

export interface KernelCase {
  /** Path of the WGSL file under test, e.g. `shaders/<lab>/<variant>.wgsl`. */
  readonly file: string;
  /** A name for test titles, e.g. `<lab>/<variant> u32 wg=256`. */
  readonly name: string;
  /** Builds one run of `n` elements from a seeded generator. */
  build(rng: () => number, n: number): KernelRun;
  /** Element counts to try: include some that are not multiples of the workgroup size. */
  readonly sizes: readonly number[];
  /** Uses subgroup builtins: the simulator's warp size must equal the GPU's subgroup size. */
  readonly subgroups?: boolean;
  /**
   * For f32 kernels whose order of operations the GPU may change (subgroup reductions): the
   * largest allowed distance in units in the last place. Absent means bit for bit.
   */
  readonly f32UlpBound?: number;
}

/** Shader files that are snippets joined into kernels, not kernels themselves. */
export const SNIPPET_FILES: readonly string[] = ['shaders/common/linear-workgroup.wgsl'];
