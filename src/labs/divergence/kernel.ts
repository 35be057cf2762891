/**
 * The two divergence kernels as `KernelRun`s, and their CPU reference. One invocation per element:
 * c[tid] = x[tid] · 2 on one branch, x[tid] + 100 on the other; the variants differ only in which
 * invocations take which branch.
 */
import type { KernelRun } from '../../kernel/types.ts';
import { MAX_WORKGROUPS_PER_DIMENSION } from '../../kernel/types.ts';
import EVEN_ODD_WGSL from '../../../shaders/divergence/even-odd.wgsl?raw';
import WARP_ALIGNED_WGSL from '../../../shaders/divergence/warp-aligned.wgsl?raw';

export type DivergenceVariant = 'even-odd' | 'warp-aligned';

export const DIVERGENCE_KERNELS: Readonly<
  Record<DivergenceVariant, { readonly file: string; readonly wgsl: string }>
> = {
  'even-odd': { file: 'shaders/divergence/even-odd.wgsl', wgsl: EVEN_ODD_WGSL },
  'warp-aligned': { file: 'shaders/divergence/warp-aligned.wgsl', wgsl: WARP_ALIGNED_WGSL },
};

/** The warp the warp-aligned pattern is written for: CUDA's warpSize, and the simulator's warp. */
export const PATTERN_WARP_SIZE = 32;

/** Workgroup sizes the lab offers: whole warps, so a warp never straddles two workgroups. */
export const DIVERGENCE_WORKGROUP_SIZES = [32, 64, 128, 256] as const;

export const isDivergenceVariant = (id: string): id is DivergenceVariant =>
  id === 'even-odd' || id === 'warp-aligned';

/** Whether element `tid` takes the first branch (a = x · 2) under `variant`. */
export function takesFirstBranch(variant: DivergenceVariant, tid: number): boolean {
  return variant === 'even-odd' ? tid % 2 === 0 : Math.floor(tid / PATTERN_WARP_SIZE) % 2 === 0;
}

/** One dispatch of ⌈n / workgroupSize⌉ workgroups over `x`. */
export function divergenceRun(
  variant: DivergenceVariant,
  x: Float32Array,
  workgroupSize: number,
  source?: string,
): KernelRun {
  const n = x.length;
  const workgroups = Math.max(1, Math.ceil(n / workgroupSize));
  if (workgroups > MAX_WORKGROUPS_PER_DIMENSION) {
    throw new RangeError(
      `${n} elements need ${workgroups} workgroups of ${workgroupSize}; one dispatch takes at most ${MAX_WORKGROUPS_PER_DIMENSION}. Use a larger workgroup or fewer elements.`,
    );
  }
  const { file, wgsl } = DIVERGENCE_KERNELS[variant];
  return {
    code: source ?? wgsl,
    entryPoint: 'main',
    file,
    label: `divergence.${variant}`,
    workgroups: [workgroups],
    bindings: { 0: { 0: x, 1: new Float32Array(Math.max(n, 1)), 2: new Uint32Array([n, 0, 0, 0]) } },
    overrides:
      variant === 'warp-aligned'
        ? { WORKGROUP_SIZE: workgroupSize, WARP_SIZE: PATTERN_WARP_SIZE }
        : { WORKGROUP_SIZE: workgroupSize },
  };
}

/** c as the kernel computes it, with WGSL's f32 rounding (a + b where the other one is 0). */
export function divergenceReference(variant: DivergenceVariant, x: Float32Array): Float32Array {
  const c = new Float32Array(Math.max(x.length, 1));
  for (let tid = 0; tid < x.length; tid++) {
    const first = takesFirstBranch(variant, tid);
    const a = first ? Math.fround(x[tid]! * 2) : 0;
    const b = first ? 0 : Math.fround(x[tid]! + 100);
    c[tid] = Math.fround(a + b);
  }
  return c;
}
