/**
 * Lane operations, written once. Every ALU-like instruction of the simulator is one of these
 * shapes: read some registers of each active lane, compute, write some registers of that lane.
 * Registers are `reg * W + lane` in the warp's Float64Array. Each shape has a fast path for a
 * full warp (every lane active, so the lane list is 0…W-1) and the general path over the active
 * lane list.
 *
 * The hot binary operators get their own loops (`binOp`) so the arithmetic is inlined instead of
 * called through a function value.
 */
import type { OpFn } from './machine.ts';
import type { Fn1, Fn2, Fn3 } from '../wgsl/scalar.ts';
import type { Scalar } from './types.ts';

/** `R[d] = f(R[a])` per active lane. Register numbers, not offsets. */
export function op1(W: number, d: number, a: number, f: Fn1): OpFn {
  const D = d * W;
  const A = a * W;
  return (w) => {
    const R = w.R;
    const n = w.n;
    if (n === W) {
      for (let l = 0; l < W; l++) R[D + l] = f(R[A + l]!);
      return;
    }
    const L = w.lanes;
    for (let i = 0; i < n; i++) {
      const l = L[i]!;
      R[D + l] = f(R[A + l]!);
    }
  };
}

/** `R[d] = f(R[a], R[b])` per active lane. */
export function op2(W: number, d: number, a: number, b: number, f: Fn2): OpFn {
  const D = d * W;
  const A = a * W;
  const B = b * W;
  return (w) => {
    const R = w.R;
    const n = w.n;
    if (n === W) {
      for (let l = 0; l < W; l++) R[D + l] = f(R[A + l]!, R[B + l]!);
      return;
    }
    const L = w.lanes;
    for (let i = 0; i < n; i++) {
      const l = L[i]!;
      R[D + l] = f(R[A + l]!, R[B + l]!);
    }
  };
}

/** `R[d] = f(R[a], R[b], R[c])` per active lane. */
export function op3(W: number, d: number, a: number, b: number, c: number, f: Fn3): OpFn {
  const D = d * W;
  const A = a * W;
  const B = b * W;
  const C = c * W;
  return (w) => {
    const R = w.R;
    const n = w.n;
    if (n === W) {
      for (let l = 0; l < W; l++) R[D + l] = f(R[A + l]!, R[B + l]!, R[C + l]!);
      return;
    }
    const L = w.lanes;
    for (let i = 0; i < n; i++) {
      const l = L[i]!;
      R[D + l] = f(R[A + l]!, R[B + l]!, R[C + l]!);
    }
  };
}

/**
 * The general shape: per active lane, `xs[i] = R[srcs[i]]`, then `f(xs, out)`, then
 * `R[dsts[j]] = out[j]`. Vectors, matrices, reductions and multi-result builtins use it.
 */
export function opN(
  W: number,
  srcs: readonly number[],
  dsts: readonly number[],
  f: (xs: Float64Array, out: Float64Array) => void,
): OpFn {
  const S = Int32Array.from(srcs, (r) => r * W);
  const D = Int32Array.from(dsts, (r) => r * W);
  const xs = new Float64Array(S.length);
  const out = new Float64Array(D.length);
  const ns = S.length;
  const nd = D.length;
  return (w) => {
    const R = w.R;
    const L = w.lanes;
    const n = w.n;
    const full = n === W;
    for (let i = 0; i < n; i++) {
      const l = full ? i : L[i]!;
      for (let k = 0; k < ns; k++) xs[k] = R[S[k]! + l]!;
      f(xs, out);
      for (let k = 0; k < nd; k++) R[D[k]! + l] = out[k]!;
    }
  };
}

/** Copies `count` consecutive registers from `s` to `d` (a register move). */
export function move(W: number, d: number, s: number, count: number): OpFn {
  const D = d * W;
  const S = s * W;
  if (count === 1) {
    return (w) => {
      const R = w.R;
      const n = w.n;
      if (n === W) {
        for (let l = 0; l < W; l++) R[D + l] = R[S + l]!;
        return;
      }
      const L = w.lanes;
      for (let i = 0; i < n; i++) {
        const l = L[i]!;
        R[D + l] = R[S + l]!;
      }
    };
  }
  return (w) => {
    const R = w.R;
    const L = w.lanes;
    const n = w.n;
    for (let c = 0; c < count; c++) {
      const dc = D + c * W;
      const sc = S + c * W;
      if (n === W) for (let l = 0; l < W; l++) R[dc + l] = R[sc + l]!;
      else
        for (let i = 0; i < n; i++) {
          const l = L[i]!;
          R[dc + l] = R[sc + l]!;
        }
    }
  };
}

/** Sets register `d` to `value()` (read once per instruction) in every active lane. */
export function fill(W: number, d: number, value: (w: Parameters<OpFn>[0]) => number): OpFn {
  const D = d * W;
  return (w) => {
    const v = value(w);
    const R = w.R;
    const L = w.lanes;
    for (let i = 0; i < w.n; i++) R[D + L[i]!] = v;
  };
}

/** Binary ALU instruction; the hot operators get loops with the arithmetic written out. */
export function binOp(op: string, s: Scalar, W: number, dst: number, a: number, b: number, f: Fn2): OpFn {
  const D = dst * W;
  const A = a * W;
  const B = b * W;
  // Each case: full-warp loop, then the active-lane loop.
  switch (`${s}${op}`) {
    case 'u32+':
      return (w) => {
        const R = w.R;
        const n = w.n;
        if (n === W) for (let l = 0; l < W; l++) R[D + l] = (R[A + l]! + R[B + l]!) >>> 0;
        else for (let i = 0, L = w.lanes; i < n; i++) { const l = L[i]!; R[D + l] = (R[A + l]! + R[B + l]!) >>> 0; }
      };
    case 'i32+':
      return (w) => {
        const R = w.R;
        const n = w.n;
        if (n === W) for (let l = 0; l < W; l++) R[D + l] = (R[A + l]! + R[B + l]!) | 0;
        else for (let i = 0, L = w.lanes; i < n; i++) { const l = L[i]!; R[D + l] = (R[A + l]! + R[B + l]!) | 0; }
      };
    case 'f32+':
      return (w) => {
        const R = w.R;
        const n = w.n;
        if (n === W) for (let l = 0; l < W; l++) R[D + l] = Math.fround(R[A + l]! + R[B + l]!);
        else for (let i = 0, L = w.lanes; i < n; i++) { const l = L[i]!; R[D + l] = Math.fround(R[A + l]! + R[B + l]!); }
      };
    case 'u32*':
      return (w) => {
        const R = w.R;
        const n = w.n;
        if (n === W) for (let l = 0; l < W; l++) R[D + l] = Math.imul(R[A + l]!, R[B + l]!) >>> 0;
        else for (let i = 0, L = w.lanes; i < n; i++) { const l = L[i]!; R[D + l] = Math.imul(R[A + l]!, R[B + l]!) >>> 0; }
      };
    case 'u32<':
    case 'i32<':
    case 'f32<':
      return (w) => {
        const R = w.R;
        const n = w.n;
        if (n === W) for (let l = 0; l < W; l++) R[D + l] = R[A + l]! < R[B + l]! ? 1 : 0;
        else for (let i = 0, L = w.lanes; i < n; i++) { const l = L[i]!; R[D + l] = R[A + l]! < R[B + l]! ? 1 : 0; }
      };
    case 'u32>':
    case 'i32>':
      return (w) => {
        const R = w.R;
        const n = w.n;
        if (n === W) for (let l = 0; l < W; l++) R[D + l] = R[A + l]! > R[B + l]! ? 1 : 0;
        else for (let i = 0, L = w.lanes; i < n; i++) { const l = L[i]!; R[D + l] = R[A + l]! > R[B + l]! ? 1 : 0; }
      };
    case 'u32==':
    case 'i32==':
      return (w) => {
        const R = w.R;
        const n = w.n;
        if (n === W) for (let l = 0; l < W; l++) R[D + l] = R[A + l]! === R[B + l]! ? 1 : 0;
        else for (let i = 0, L = w.lanes; i < n; i++) { const l = L[i]!; R[D + l] = R[A + l]! === R[B + l]! ? 1 : 0; }
      };
    case 'u32>>':
      return (w) => {
        const R = w.R;
        const n = w.n;
        if (n === W) for (let l = 0; l < W; l++) R[D + l] = R[A + l]! >>> (R[B + l]! & 31);
        else for (let i = 0, L = w.lanes; i < n; i++) { const l = L[i]!; R[D + l] = R[A + l]! >>> (R[B + l]! & 31); }
      };
    default:
      return op2(W, dst, a, b, f);
  }
}
