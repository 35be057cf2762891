import type { BindingData, KernelRun } from '../kernel/types.ts';
import type { ElementType, KernelExecutor } from './types.ts';
import type { LabId } from '../app/url.ts';

/** One variant of an algorithm: one WGSL file. */
export interface LabVariant {
  readonly id: string;
  readonly title: string;
  /** One or two sentences in our words: what the variant does and what to look for. */
  readonly summary: string;
  readonly file: string;
  readonly wgsl: string;
  /** Our CUDA rendering of the same kernel, for the code pane. */
  readonly cuda?: string;
  readonly workgroupSizes: readonly number[];
  readonly elementTypes: readonly ElementType[];
  readonly needsSubgroups: boolean;
  /** Set for a deliberately racy teaching variant: why its result is not guaranteed. */
  readonly racy?: string;
}

export interface LabParams {
  readonly n: number;
  readonly workgroupSize: number;
  readonly type: ElementType;
}

/** Which drawings suit the lab. */
export type TreeKind = 'reduction' | 'scan';

/**
 * Everything the app needs to know about an algorithm family. Adding an algorithm means adding a
 * lab folder that exports one of these, and its shaders.
 */
export interface LabDefinition {
  readonly id: LabId;
  readonly title: string;
  readonly summary: string;
  readonly variants: readonly LabVariant[];
  readonly defaultVariant: string;
  readonly defaultParams: LabParams;
  /** Sizes offered for stepping through (small enough to trace). */
  readonly stepSizes: readonly number[];
  readonly tree: TreeKind;
  /** Published figures to set beside the learner's own, shown under the timings table. */
  readonly timingNote?: string;
  /** Seeded input data of `params.n` elements. */
  makeInput(params: LabParams, seed: number): BindingData;
  /** The single dispatch the step-through views replay: the first pass over the input. */
  stepRun(variant: string, params: LabParams, input: BindingData): KernelRun;
  /** Runs the whole algorithm (all passes) and returns its output. */
  runAll(executor: KernelExecutor, variant: string, params: LabParams, input: BindingData): Promise<BindingData>;
  /** The CPU reference output (the same for every variant). */
  reference(params: LabParams, input: BindingData): BindingData;
  /**
   * Whether an executor's output counts as equal to the reference: exactly for integers; for f32
   * within the variant's stated bound, since the order of additions differs.
   */
  agrees(variant: string, params: LabParams, input: BindingData, output: BindingData, reference: BindingData): boolean;
  /** The chain of dispatches `GpuExecutor.time` measures for n elements. */
  timingPasses(variant: string, n: number, params: LabParams): KernelRun[];
  /**
   * The bandwidth kernel its timings are set against, in alternating rounds over the same buffers
   * (default 'read': reductions read their input once; 'copy' for kernels that also write n).
   */
  readonly baseline?: 'read' | 'copy';
  /** Bytes the algorithm must move at least, for GB/s. */
  bytesMoved(n: number, params: LabParams): number;
  /** A CPU baseline for the timings table: the plain sequential loop (its result is returned so it cannot be optimised away). */
  cpuBaseline(input: BindingData, params: LabParams): number;
}

/** Picks a workgroup size the variant supports, nearest to the wanted one. */
export function supportedWorkgroupSize(variant: LabVariant, wanted: number): number {
  const sizes = variant.workgroupSizes;
  if (sizes.includes(wanted)) return wanted;
  return sizes.reduce((best, s) => (Math.abs(s - wanted) < Math.abs(best - wanted) ? s : best), sizes[0] ?? 256);
}
