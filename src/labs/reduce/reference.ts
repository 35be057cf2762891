/**
 * CPU references for the reduction lab.
 *
 * - u32 and i32: the exact sum modulo 2^32 (WGSL integer addition wraps), so every variant must
 *   match it exactly, whatever order it adds in.
 * - f32: there is no single right answer, which is the lesson. We give the sequential f32 sum
 *   (what a CPU loop with a float accumulator returns), the sum in double precision (the best
 *   estimate of the true value), and the sum in the order the kernels add, rounded to f32 after
 *   every addition as WGSL does. For variants without `subgroupAdd` that order is fully
 *   determined, and the GPU must match it bit for bit; for the others the last 64 values are
 *   added in an order the GPU chooses, so the kernel-order figure is an estimate.
 */
import type { BindingData } from '../../kernel/types.ts';
import { passPlan, type ReduceParams } from './driver.ts';
import { elementTypeOf } from '../../workbench/labTypes.ts';
import { defaultWorkgroupSize, reduceVariant, type ReduceVariantId } from './variants.ts';

/** u32 sum with wrap-around, as an unsigned number. */
export function sumU32(data: Uint32Array): number {
  let acc = 0;
  for (let i = 0; i < data.length; i++) acc = (acc + data[i]!) >>> 0;
  return acc;
}

/** i32 sum with two's-complement wrap-around, as a signed number. */
export function sumI32(data: Int32Array): number {
  let acc = 0;
  for (let i = 0; i < data.length; i++) acc = (acc + data[i]!) | 0;
  return acc;
}

/** f32 sum left to right, rounding to f32 after each addition. */
export function sumF32Sequential(data: Float32Array): number {
  let acc = 0;
  for (let i = 0; i < data.length; i++) acc = Math.fround(acc + data[i]!);
  return acc;
}

/** Sum in double precision (exact for fewer than 2^29 f32 inputs of similar magnitude: an estimate otherwise). */
export function sumF64(data: Float32Array): number {
  let acc = 0;
  for (let i = 0; i < data.length; i++) acc += data[i]!;
  return acc;
}

/** The reference a test demands for integer types: the wrapped sum in the input's type. */
export function integerSum(data: Uint32Array | Int32Array): number {
  return data instanceof Uint32Array ? sumU32(data) : sumI32(data);
}

const WINDOW = 64;

/**
 * Repeats on the CPU, in f32, the additions of one workgroup of a pass. `values` are the lanes'
 * values after loading; the result is what the workgroup writes.
 */
function workgroupF32(
  values: Float32Array,
  order: 'interleaved' | 'neighbored' | 'interleaved-then-window',
  subgroupSize: number,
): number {
  const size = values.length;
  const add = (a: number, b: number): number => Math.fround(a + b);
  if (order === 'neighbored') {
    for (let s = 1; s < size; s *= 2)
      for (let k = 0; k + s < size; k += 2 * s) values[k] = add(values[k]!, values[k + s]!);
    return values[0]!;
  }
  const stop = order === 'interleaved' ? 1 : WINDOW;
  for (let s = size / 2; s >= stop; s >>= 1)
    for (let k = 0; k < s; k++) values[k] = add(values[k]!, values[k + s]!);
  if (order === 'interleaved') return values[0]!;
  // Lane j of a subgroup sums words j, j + size, …; then the lanes are added in lane order (the
  // GPU may use another order here, which is why this figure is an estimate).
  let total = 0;
  for (let lane = 0; lane < subgroupSize; lane++) {
    let acc = 0;
    for (let j = lane; j < WINDOW; j += subgroupSize) acc = add(acc, values[j]!);
    total = lane === 0 ? acc : add(total, acc);
  }
  return total;
}

export interface KernelOrderSum {
  /** The f32 the kernel chain produces when added in the order modelled here. */
  readonly value: number;
  /** True when the order is fully determined by the WGSL (no `subgroupAdd`), so the GPU must match exactly. */
  readonly exact: boolean;
}

/**
 * The f32 sum in the order the kernel chain of `variantId` adds, pass by pass. The naive
 * warp-synchronous variant is modelled under lockstep execution, where it adds like the
 * interleaved tree. `subgroupSize` (default 32) shapes the modelled `subgroupAdd` window.
 */
export function kernelOrderSumF32(
  variantId: ReduceVariantId,
  input: Float32Array,
  params: ReduceParams & { readonly subgroupSize?: number } = {},
): KernelOrderSum {
  const variant = reduceVariant(variantId);
  const wg = params.workgroupSize ?? defaultWorkgroupSize(variant);
  const sg = params.subgroupSize ?? 32;
  if (input.length === 0) return { value: 0, exact: true };
  let data = input;
  for (const shape of passPlan(variantId, input.length, params)) {
    const out = new Float32Array(shape.workgroupCount);
    const lanes = new Float32Array(wg);
    for (let g = 0; g < shape.workgroupCount; g++) {
      lanes.fill(0);
      if (variant.layout === 'grid-stride') {
        // Each invocation accumulates a vec4 component-wise over its grid-stride steps, then
        // folds it as (x + y) + (z + w).
        const vec4s = Math.ceil(shape.n / 4);
        const stride = shape.workgroupCount * wg;
        for (let lid = 0; lid < wg; lid++) {
          const acc = [0, 0, 0, 0];
          for (let i = g * wg + lid; i < vec4s; i += stride) {
            for (let c = 0; c < 4; c++) {
              const k = 4 * i + c;
              acc[c] = Math.fround(acc[c]! + (k < shape.n ? data[k]! : 0));
            }
          }
          lanes[lid] = Math.fround(Math.fround(acc[0]! + acc[1]!) + Math.fround(acc[2]! + acc[3]!));
        }
      } else {
        const per = wg * variant.elementsPerInvocation;
        const base = g * per;
        for (let lid = 0; lid < wg; lid++) {
          const i = base + lid;
          let v = i < shape.n ? data[i]! : 0;
          if (variant.elementsPerInvocation === 2 && i + wg < shape.n) v = Math.fround(v + data[i + wg]!);
          lanes[lid] = v;
        }
      }
      out[g] = workgroupF32(lanes, variant.treeOrder, sg);
    }
    data = out;
  }
  return { value: data[0]!, exact: variant.treeOrder !== 'interleaved-then-window' };
}

/**
 * An upper bound on the height of the addition tree of a variant's chain: the longest run of
 * additions any one input element goes through. Used for the f32 error bound below.
 */
export function additionTreeHeight(variantId: ReduceVariantId, n: number, params: ReduceParams = {}): number {
  const variant = reduceVariant(variantId);
  const wg = params.workgroupSize ?? defaultWorkgroupSize(variant);
  const levels = Math.log2(wg);
  let height = 0;
  for (const shape of passPlan(variantId, n, params)) {
    if (variant.layout === 'grid-stride') {
      const steps = Math.ceil(Math.ceil(shape.n / 4) / (shape.workgroupCount * wg));
      height += steps + 2 + (levels - Math.log2(WINDOW)) + (WINDOW - 1);
    } else {
      height += variant.elementsPerInvocation - 1 + levels;
      // The subgroup window: at most 63 additions in a row (one-lane subgroups), a safe ceiling.
      if (variant.treeOrder === 'interleaved-then-window') height += WINDOW - 1;
    }
  }
  return height;
}

/** f32's unit roundoff, 2^-24. */
export const F32_UNIT_ROUNDOFF = 2 ** -24;

/**
 * The classic worst-case bound for floating-point summation along a tree of height h:
 * |computed − exact| ≤ γ_h · Σ|x_i| with γ_h = h·u / (1 − h·u) and u = 2^-24 (Higham, "Accuracy
 * and Stability of Numerical Algorithms", §4.2). Every variant's f32 result must lie within it of
 * the double-precision sum; the typical error is far smaller.
 */
export function f32ErrorBound(input: Float32Array, height: number): number {
  let abs = 0;
  for (let i = 0; i < input.length; i++) abs += Math.abs(input[i]!);
  const hu = height * F32_UNIT_ROUNDOFF;
  return (hu / (1 - hu)) * abs;
}

/** The reference for any supported input: wrapped integer sum, or the double-precision f32 sum. */
export function referenceSum(data: BindingData): number {
  const type = elementTypeOf(data);
  return type === 'f32' ? sumF64(data as Float32Array) : integerSum(data as Uint32Array | Int32Array);
}
