/**
 * The top-k kernels as `KernelRun`s and the two-pass driver. Bindings: 0 the values, 1 K values
 * per workgroup, 2 the count. Pass 1 runs `groups` workgroups over the input; pass 2 runs one
 * workgroup over pass 1's lists.
 */
import type { KernelRun } from '../../kernel/types.ts';
import type { KernelExecutor } from '../../workbench/labTypes.ts';
import SEED_WGSL from '../../../shaders/topk/seed.wgsl?raw';
import FAST_WGSL from '../../../shaders/topk/fast.wgsl?raw';
import RADIX_WGSL from '../../../shaders/topk/radix.wgsl?raw';
import { LOWEST, workgroupSizeFor } from './reference.ts';

export type TopkVariant = 'seed' | 'fast' | 'radix';
export const TOPK_VARIANTS: readonly TopkVariant[] = ['seed', 'fast', 'radix'];
export const isTopkVariant = (id: string): id is TopkVariant => (TOPK_VARIANTS as readonly string[]).includes(id);

export const TOPK_FILES = {
  seed: { file: 'shaders/topk/seed.wgsl', wgsl: SEED_WGSL },
  fast: { file: 'shaders/topk/fast.wgsl', wgsl: FAST_WGSL },
  radix: { file: 'shaders/topk/radix.wgsl', wgsl: RADIX_WGSL },
} as const;

/**
 * Invocations per workgroup of the radix select, and the words of its pool: room for K values and
 * one round of 8 values per invocation on top (12 KiB, beside 2.3 KiB of histogram and counters).
 */
export const RADIX_WG = 256;
export const RADIX_POOL = 3072;

/** Whether a variant computes the `distinct` semantics: the radix select counts values, so it keeps duplicates. */
export const supportsDistinct = (variant: TopkVariant) => variant !== 'radix';

/** Invocations per workgroup of a variant for lists of k. */
export const workgroupOf = (variant: TopkVariant, k: number) => (variant === 'radix' ? RADIX_WG : workgroupSizeFor(k));

/** The most k the kernels take (the fast one's private list has 64 slots). */
export const MAX_K = 64;
/** The most workgroups pass 1 launches; beyond that each invocation reads more values. */
export const MAX_GROUPS = 1024;
/** Values each invocation reads at least before pass 1 adds another workgroup. */
const VALUES_PER_INVOCATION = 8;

export interface TopkOptions {
  readonly k: number;
  readonly distinct: boolean;
}

/** Workgroups of pass 1 over n values. */
export function groupsFor(n: number, k: number, variant: TopkVariant = 'seed'): number {
  return Math.max(1, Math.min(MAX_GROUPS, Math.ceil(n / (workgroupOf(variant, k) * VALUES_PER_INVOCATION))));
}

/** The values padded with the lowest i32 to whole vec4s (at least one), for the fast kernel. */
function quads(values: Int32Array): Int32Array {
  const len = Math.max(4, Math.ceil(values.length / 4) * 4);
  if (len === values.length) return values;
  const out = new Int32Array(len).fill(LOWEST);
  out.set(values);
  return out;
}

/** One launch over `values` with `groups` workgroups. */
export function topkRun(variant: TopkVariant, values: Int32Array, groups: number, opts: TopkOptions, source?: string): KernelRun {
  const { k, distinct } = opts;
  if (!Number.isInteger(k) || k < 1 || k > MAX_K) throw new RangeError(`k = ${k}: the top-k kernels keep 1 to ${MAX_K} values per list.`);
  if (distinct && !supportsDistinct(variant)) {
    throw new RangeError(`topk.${variant} keeps duplicates (its histograms count values, not distinct values): run it with distinct = false, or use seed or fast for distinct values.`);
  }
  const wg = workgroupOf(variant, k);
  const vec4 = variant !== 'seed';
  const input = vec4 ? quads(values) : values.length ? values : new Int32Array([LOWEST]);
  return {
    code: source ?? TOPK_FILES[variant].wgsl,
    entryPoint: 'main',
    file: TOPK_FILES[variant].file,
    label: `topk.${variant}`,
    workgroups: [groups],
    bindings: { 0: { 0: input, 1: new Int32Array(Math.ceil((groups * k) / 4) * 4), 2: new Uint32Array([vec4 ? input.length / 4 : values.length, 0, 0, 0]) } },
    // The radix kernel's workgroup size is a constant (RADIX_WG) in its source.
    overrides: variant === 'radix' ? { K: k, POOL: RADIX_POOL } : { WORKGROUP_SIZE: wg, K: k, LISTS: wg * k, DISTINCT: distinct ? 1 : 0 },
  };
}

/** Pass 1: the workgroups' lists over the whole input. */
export const firstPass = (variant: TopkVariant, values: Int32Array, opts: TopkOptions, source?: string) => topkRun(variant, values, groupsFor(values.length, opts.k, variant), opts, source);

/** Both passes on an executor: the top k, descending, padded with the lowest i32. */
export async function runTopk(executor: KernelExecutor, variant: TopkVariant, values: Int32Array, opts: TopkOptions): Promise<Int32Array> {
  const groups = groupsFor(values.length, opts.k, variant);
  const partial = (await executor.run(topkRun(variant, values, groups, opts)))[0]?.[1];
  if (!(partial instanceof Int32Array)) throw new Error(`topk.${variant}: pass 1 returned no lists (binding 1)`);
  const lists = partial.slice(0, groups * opts.k);
  const final = (await executor.run(topkRun(variant, lists, 1, opts)))[0]?.[1];
  if (!(final instanceof Int32Array)) throw new Error(`topk.${variant}: pass 2 returned no list (binding 1)`);
  return final.slice(0, opts.k);
}

/**
 * Both launches for timing. Each pass gets its own buffers, so pass 2 reads a stand-in of pass 1's
 * size: the first groups × k input values, which insert about as often as real lists do.
 */
export function topkPasses(variant: TopkVariant, values: Int32Array, opts: TopkOptions): KernelRun[] {
  const groups = groupsFor(values.length, opts.k, variant);
  const standIn = new Int32Array(groups * opts.k).fill(LOWEST);
  standIn.set(values.subarray(0, standIn.length));
  return [topkRun(variant, values, groups, opts), topkRun(variant, standIn, 1, opts)];
}
