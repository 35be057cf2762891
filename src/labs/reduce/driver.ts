/**
 * The reduction lab's multi-pass driver: one pass turns n values into one partial sum per
 * workgroup; passes chain until one value is left. The same chain runs on any `KernelExecutor`
 * (the GPU, or the simulator wrapped in a promise).
 *
 * Element types: every kernel declares `alias T = u32;` on one line near its top; for i32 or f32
 * `kernelCode` rewrites that line only, so line and column numbers stay those of the file (the
 * code pane and compiler messages point at the right place for every type).
 */
import {
  foldWorkgroups,
  MAX_WORKGROUPS_PER_DIMENSION,
  type BindingData,
  type KernelRun,
  type Workgroups,
} from '../../kernel/types.ts';
import { arrayFor, elementTypeOf, padToVec4, type ElementType, type KernelExecutor } from '../../workbench/labTypes.ts';
import { defaultWorkgroupSize, reduceVariant, type ReduceVariant, type ReduceVariantId } from './variants.ts';
import LINEAR_WORKGROUP_WGSL from '../../../shaders/common/linear-workgroup.wgsl?raw';

/** The one line each reduce kernel declares its element type on. */
export const ELEMENT_ALIAS_LINE = 'alias T = u32;';

/** Grid cap of the grid-stride variant: enough workgroups to fill a large GPU a few times over. */
export const DEFAULT_MAX_GRID = 2048;

/**
 * Grid cap of the one-pass atomic variant, which has no second pass to keep short. On an H100 at
 * 2^26 it reached 68 % of the read with 264 workgroups, 98.4 % with 2048, 99.0 % with 4096 and
 * 99.4 % with 8192 (docs/runs/2026-11-22-h100-timing-experiments-3-grid.txt): more workgroups
 * keep more loads in flight and leave a shorter tail.
 */
export const ATOMIC_MAX_GRID = 8192;

/**
 * The grid-stride variant launches at most ceil(vec4s / (WORKGROUP_SIZE · 4)) workgroups, so each
 * invocation loads at least 4 vec4s: a second pass over 2048 partials then needs one workgroup.
 */
const MIN_VEC4_PER_INVOCATION = 4;

export interface ReduceParams {
  /** The `WORKGROUP_SIZE` override (default 256, or the variant's largest below it). */
  readonly workgroupSize?: number;
  /** Fold dispatches above this many workgroups into 2-D (default 65 535, WebGPU's limit). */
  readonly maxWorkgroupsPerDimension?: number;
  /** Grid cap of the grid-stride variants (default 2048; 8192 for the one-pass atomic variant). */
  readonly maxGridWorkgroups?: number;
}

/** One pass of a chain: how many values it reduces and the dispatch that does it. */
export interface PassShape {
  /** Values this pass reads (`params.n` in the kernel). */
  readonly n: number;
  /** Workgroups that do work; also the number of partial sums the pass writes. */
  readonly workgroupCount: number;
  /** Dispatch size: `[workgroupCount]`, or folded into 2-D above the per-dimension limit. */
  readonly dispatch: Workgroups;
  /** Length of the output array (the grid-stride variant pads it to a multiple of 4). */
  readonly outputLength: number;
}

export interface ReduceResult {
  /** The sum: a u32 or i32 with wrap-around, or the f32 the GPU produced. */
  readonly value: number;
  /** Every pass as it ran, with its input data. */
  readonly passes: KernelRun[];
  /** Each pass's partial sums (binding 1 after the pass); the last holds `value` at index 0. */
  readonly outputs: BindingData[];
}


/** Rewrites the element type line of a reduce kernel, leaving every other line where it was. */
export function withElementType(code: string, type: ElementType): string {
  const at = code.indexOf(`\n${ELEMENT_ALIAS_LINE}\n`);
  if (at < 0 || code.indexOf(`\n${ELEMENT_ALIAS_LINE}\n`, at + 1) >= 0) {
    throw new Error(`a reduce kernel must declare '${ELEMENT_ALIAS_LINE}' on exactly one line`);
  }
  if (type === 'u32') return code;
  return code.slice(0, at + 1) + `alias T = ${type};` + code.slice(at + 1 + ELEMENT_ALIAS_LINE.length);
}

/**
 * The WGSL a pass runs: the file's text with its element type set, and the linear workgroup
 * helper appended after it (so the kernel's own lines keep their numbers) when it folds grids.
 */
export function kernelCode(variant: ReduceVariant | ReduceVariantId, type: ElementType): string {
  const v = typeof variant === 'string' ? reduceVariant(variant) : variant;
  const code = withElementType(v.wgsl, type);
  return v.foldsWorkgroups ? `${code}\n${LINEAR_WORKGROUP_WGSL}` : code;
}

function workgroupSizeOf(variant: ReduceVariant, params: ReduceParams): number {
  const size = params.workgroupSize ?? defaultWorkgroupSize(variant);
  if (!variant.workgroupSizes.includes(size)) {
    throw new RangeError(
      `${variant.id} is written for workgroup sizes ${variant.workgroupSizes.join(', ')}, not ${size}`,
    );
  }
  return size;
}

const roundUp = (x: number, m: number): number => Math.ceil(x / m) * m;

/**
 * The passes that reduce `n` values to one. There is always at least one pass (n = 1 still runs
 * the kernel once). Block variants: each pass divides the count by WORKGROUP_SIZE · elements per
 * invocation (256 or 512 for the defaults), so 2^26 takes 4 or 3 passes. The grid-stride variant:
 * a capped grid, then one workgroup.
 */
export function passPlan(variantId: ReduceVariantId, n: number, params: ReduceParams = {}): PassShape[] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  const variant = reduceVariant(variantId);
  const wg = workgroupSizeOf(variant, params);
  const maxDim = params.maxWorkgroupsPerDimension ?? MAX_WORKGROUPS_PER_DIMENSION;
  const maxGrid = Math.min(params.maxGridWorkgroups ?? (variant.atomicTotal ? ATOMIC_MAX_GRID : DEFAULT_MAX_GRID), maxDim);
  const plan: PassShape[] = [];
  let count = n;
  do {
    if (variant.layout === 'grid-stride') {
      const vec4s = Math.ceil(count / 4);
      const grid = Math.max(1, Math.min(maxGrid, Math.ceil(vec4s / (wg * MIN_VEC4_PER_INVOCATION))));
      if (variant.atomicTotal) {
        // Every workgroup adds into word 0: one pass whatever n is.
        plan.push({ n: count, workgroupCount: grid, dispatch: [grid], outputLength: 1 });
        count = 1;
        continue;
      }
      plan.push({ n: count, workgroupCount: grid, dispatch: [grid], outputLength: roundUp(grid, 4) });
      count = grid;
    } else {
      const perWorkgroup = wg * variant.elementsPerInvocation;
      const groups = Math.ceil(count / perWorkgroup);
      plan.push({
        n: count,
        workgroupCount: groups,
        dispatch: foldWorkgroups(groups, maxDim),
        outputLength: groups,
      });
      count = groups;
    }
  } while (count > 1);
  return plan;
}

/** Builds the `KernelRun` of one pass over `input` (whose first `shape.n` values are reduced). */
export function passRun(
  variantId: ReduceVariantId,
  type: ElementType,
  shape: PassShape,
  input: BindingData,
  params: ReduceParams = {},
): KernelRun {
  const variant = reduceVariant(variantId);
  const wg = workgroupSizeOf(variant, params);
  if (elementTypeOf(input) !== type)
    throw new TypeError(`${variant.id}: input is ${elementTypeOf(input)}, pass is ${type}`);
  if (input.length < shape.n)
    throw new RangeError(`${variant.id}: input holds ${input.length} values, pass reads ${shape.n}`);
  if (variant.layout === 'grid-stride' && input.length % 4 !== 0) {
    throw new RangeError(`${variant.id} reads vec4s: pad the input to a multiple of 4 (got ${input.length})`);
  }
  return {
    code: kernelCode(variant, type),
    entryPoint: 'main',
    file: variant.file,
    label: `reduce.${variant.id}`,
    workgroups: shape.dispatch,
    overrides: { WORKGROUP_SIZE: wg },
    bindings: {
      0: { 0: input, 1: arrayFor(type, shape.outputLength), 2: new Uint32Array([shape.n, 0, 0, 0]) },
    },
  };
}

/**
 * Reduces `input` to its sum with `variantId`, chaining passes on `executor` until one value is
 * left. The element type is the input's (Uint32Array, Int32Array or Float32Array). u32 and i32
 * sums wrap around as WGSL's integer addition does. An empty input sums to 0 with no pass.
 */
export async function reduce(
  executor: KernelExecutor,
  variantId: ReduceVariantId,
  input: BindingData,
  params: ReduceParams = {},
): Promise<ReduceResult> {
  const variant = reduceVariant(variantId);
  const type = elementTypeOf(input);
  if (!variant.elementTypes.includes(type)) throw new TypeError(`${variant.id} does not support ${type}`);
  if (input.length === 0) return { value: 0, passes: [], outputs: [] };
  const passes: KernelRun[] = [];
  const outputs: BindingData[] = [];
  let data = variant.layout === 'grid-stride' ? padToVec4(input) : input;
  for (const shape of passPlan(variantId, input.length, params)) {
    const run = passRun(variantId, type, shape, data, params);
    const out = await executor.run(run);
    const partials = out[0]?.[1];
    if (!partials) throw new Error(`${variant.id}: the executor returned no partial sums (binding 1)`);
    passes.push(run);
    outputs.push(partials);
    data = partials;
  }
  return { value: data[0]!, passes, outputs };
}

/** Deterministic, cheap test data for timing: small values, so f32 sums stay exact-ish. */
function timingData(type: ElementType, length: number): BindingData {
  const out = arrayFor(type, length);
  if (out instanceof Float32Array) for (let i = 0; i < length; i++) out[i] = (i & 0xff) / 256;
  else for (let i = 0; i < length; i++) out[i] = i & 0xff;
  return out;
}

/**
 * The chain of passes for `GpuExecutor.time(chain)` over n elements. Only the first pass gets
 * real data; later passes read zero-filled buffers of the right size (the timer binds each run on
 * its own buffers, so their contents do not matter). The in-place variant overwrites its input on
 * the first dispatch; later timed dispatches move the same bytes over already reduced data.
 */
export function timingPasses(
  variantId: ReduceVariantId,
  n: number,
  params: ReduceParams & { readonly elementType?: ElementType } = {},
): KernelRun[] {
  const variant = reduceVariant(variantId);
  const type = params.elementType ?? 'u32';
  const plan = passPlan(variantId, n, params);
  return plan.map((shape, i) => {
    const length = variant.layout === 'grid-stride' ? roundUp(shape.n, 4) : shape.n;
    const input = i === 0 ? timingData(type, length) : arrayFor(type, length);
    return passRun(variantId, type, shape, input, params);
  });
}

/**
 * Bytes a reduction of n elements must move: each 4-byte element read once. The partial sums
 * (n / 256 or fewer) and the in-place variant's extra traffic are left out, so GB/s is the
 * effective figure, comparable with the read baseline.
 */
export const bytesMoved = (n: number): number => 4 * n;
