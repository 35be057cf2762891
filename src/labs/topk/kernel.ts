/**
 * The top-k kernels as `KernelRun`s and the two-pass driver. Bindings: 0 the values, 1 K values
 * per workgroup, 2 the count (and, for radix-ahead, which pass); radix-ahead adds 3, the shared
 * floor pass 1 raises and pass 2 picks from. Pass 1 runs `groups` workgroups over the input;
 * pass 2 runs one workgroup over pass 1's lists.
 */
import type { KernelRun } from '../../kernel/types.ts';
import type { KernelExecutor } from '../../workbench/labTypes.ts';
import SEED_WGSL from '../../../shaders/topk/seed.wgsl?raw';
import FAST_WGSL from '../../../shaders/topk/fast.wgsl?raw';
import RADIX_WGSL from '../../../shaders/topk/radix.wgsl?raw';
import RADIX_AHEAD_WGSL from '../../../shaders/topk/radix-ahead.wgsl?raw';
import { insertValue, LOWEST, workgroupSizeFor } from './reference.ts';

export type TopkVariant = 'seed' | 'fast' | 'radix' | 'radix-ahead';
export const TOPK_VARIANTS: readonly TopkVariant[] = ['seed', 'fast', 'radix', 'radix-ahead'];
export const isTopkVariant = (id: string): id is TopkVariant => (TOPK_VARIANTS as readonly string[]).includes(id);

export const TOPK_FILES = {
  seed: { file: 'shaders/topk/seed.wgsl', wgsl: SEED_WGSL },
  fast: { file: 'shaders/topk/fast.wgsl', wgsl: FAST_WGSL },
  radix: { file: 'shaders/topk/radix.wgsl', wgsl: RADIX_WGSL },
  'radix-ahead': { file: 'shaders/topk/radix-ahead.wgsl', wgsl: RADIX_AHEAD_WGSL },
} as const;

/** The radix selects: a pool in workgroup memory under a rising floor, duplicates kept. */
export const isRadix = (variant: TopkVariant) => variant === 'radix' || variant === 'radix-ahead';

/**
 * Invocations per workgroup of the radix select, and the words of its pool: room for K values and
 * one round of 8 values per invocation on top (12 KiB, beside 2.3 KiB of histogram and counters).
 */
export const RADIX_WG = 256;
export const RADIX_POOL = 3072;
/** radix-ahead: a cut during the stream stops once at most this many values stay. */
export const RADIX_CUT_KEEP = 256;

/** Whether a variant computes the `distinct` semantics: the radix select counts values, so it keeps duplicates. */
export const supportsDistinct = (variant: TopkVariant) => !isRadix(variant);

/** Invocations per workgroup of a variant for lists of k. */
export const workgroupOf = (variant: TopkVariant, k: number) => (isRadix(variant) ? RADIX_WG : workgroupSizeFor(k));

/** The most k the kernels take (the fast one's private list has 64 slots). */
export const MAX_K = 64;
/** The most workgroups pass 1 launches; beyond that each invocation reads more values. */
export const MAX_GROUPS = 1024;
/** Values each invocation reads at least before pass 1 adds another workgroup. */
const VALUES_PER_INVOCATION = 8;

export interface TopkOptions {
  readonly k: number;
  readonly distinct: boolean;
  /** radix-ahead's pass 2: the shared floor pass 1 published (a key; 0: none). */
  readonly floorKey?: number;
}

/**
 * radix-ahead's most pass-1 workgroups: three per SM of a 132-SM H100. Fewer lists make pass 2
 * (one workgroup) short; the H100 measured 396 fastest of 132 to 1056 (docs/benchmarks.md).
 */
export const RADIX_AHEAD_GROUPS = 396;

/** Workgroups of pass 1 over n values (at most `most`). */
export function groupsFor(n: number, k: number, variant: TopkVariant = 'seed', most = variant === 'radix-ahead' ? RADIX_AHEAD_GROUPS : MAX_GROUPS): number {
  return Math.max(1, Math.min(most, Math.ceil(n / (workgroupOf(variant, k) * VALUES_PER_INVOCATION))));
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
  const { k, distinct, floorKey } = opts;
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
    bindings: {
      0: {
        0: input,
        1: new Int32Array(Math.ceil((groups * k) / 4) * 4),
        // radix-ahead: pass 2 (the shared floor given) reads it; pass 1 raises it.
        2: new Uint32Array([vec4 ? input.length / 4 : values.length, floorKey === undefined ? 0 : 1, 0, 0]),
        ...(variant === 'radix-ahead' ? { 3: new Uint32Array([floorKey ?? 0, 0, 0, 0]) } : {}),
      },
    },
    // The radix kernels' workgroup size is a constant (RADIX_WG) in their source.
    overrides: isRadix(variant)
      ? { K: k, POOL: RADIX_POOL, ...(variant === 'radix-ahead' ? { CUT_KEEP: RADIX_CUT_KEEP } : {}) }
      : { WORKGROUP_SIZE: wg, K: k, LISTS: wg * k, DISTINCT: distinct ? 1 : 0 },
  };
}

/** Pass 1: the workgroups' lists over the whole input. */
export const firstPass = (variant: TopkVariant, values: Int32Array, opts: TopkOptions, source?: string) => topkRun(variant, values, groupsFor(values.length, opts.k, variant), opts, source);

/** Both passes on an executor: the top k, descending, padded with the lowest i32. */
export async function runTopk(executor: KernelExecutor, variant: TopkVariant, values: Int32Array, opts: TopkOptions): Promise<Int32Array> {
  const groups = groupsFor(values.length, opts.k, variant);
  const first = (await executor.run(topkRun(variant, values, groups, opts)))[0];
  const partial = first?.[1];
  if (!(partial instanceof Int32Array)) throw new Error(`topk.${variant}: pass 1 returned no lists (binding 1)`);
  const lists = partial.slice(0, groups * opts.k);
  const floor = first?.[3];
  const second = variant === 'radix-ahead' && floor ? { ...opts, floorKey: floor[0]! } : opts;
  const final = (await executor.run(topkRun(variant, lists, 1, second)))[0]?.[1];
  if (!(final instanceof Int32Array)) throw new Error(`topk.${variant}: pass 2 returned no list (binding 1)`);
  return final.slice(0, opts.k);
}

/**
 * What radix-ahead's pass 1 leaves for pass 2, computed on the CPU: each workgroup's k largest of
 * the values it reads (rounds of 2 × RADIX_WG vec4s, workgroup after workgroup), in workgroup
 * order, and the shared floor (the highest k-th value of a full list, as a key; 0: none).
 */
export function radixAheadLists(values: Int32Array, groups: number, k: number): { lists: Int32Array; floorKey: number } {
  const lists = new Int32Array(groups * k).fill(LOWEST);
  const round = 2 * RADIX_WG * 4;
  let floorKey = 0;
  for (let w = 0; w < groups; w++) {
    const list = lists.subarray(w * k, (w + 1) * k);
    let count = 0;
    for (let base = w * round; base < values.length; base += groups * round) {
      const end = Math.min(values.length, base + round);
      for (let i = base; i < end; i++) {
        const v = values[i]!;
        if (v > list[k - 1]!) {
          insertValue(list, v, false);
          count++;
        }
      }
    }
    if (count >= k) floorKey = Math.max(floorKey, (list[k - 1]! ^ LOWEST) >>> 0);
  }
  return { lists, floorKey };
}

/**
 * Both launches for timing. Each pass gets its own buffers, so pass 2 reads a stand-in of pass 1's
 * size: for radix-ahead, the lists and shared floor pass 1 writes (computed on the CPU); for the
 * others, the first groups × k input values, which insert about as often as real lists do.
 */
export function topkPasses(variant: TopkVariant, values: Int32Array, opts: TopkOptions, most?: number): KernelRun[] {
  const groups = groupsFor(values.length, opts.k, variant, most);
  if (variant === 'radix-ahead') {
    const { lists, floorKey } = radixAheadLists(values, groups, opts.k);
    return [topkRun(variant, values, groups, opts), topkRun(variant, lists, 1, { ...opts, floorKey })];
  }
  const standIn = new Int32Array(groups * opts.k).fill(LOWEST);
  standIn.set(values.subarray(0, standIn.length));
  return [topkRun(variant, values, groups, opts), topkRun(variant, standIn, 1, opts)];
}
