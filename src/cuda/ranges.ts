/**
 * Value ranges of integer expressions, as the lowering knows them: an interval of mathematical
 * integers that every value of the expression lies in, in every execution (signed overflow
 * included: an operation whose exact result could leave its type has no range, so nothing here
 * leans on C leaving signed overflow undefined).
 *
 * The lowering uses them to compute an `int` division or remainder whose operands are proven
 * non-negative (and the divisor non-zero) on `u32`: the same value (C truncates towards zero,
 * so for `a >= 0, b > 0` both `a / b` and `a % b` equal the unsigned ones), without the sign
 * corrections that a signed division costs on GPUs (Tint guards `i32` `/` and `%` against zero
 * and INT_MIN / -1, and the driver's signed division by 2^k needs a rounding fix-up where the
 * unsigned one is a shift or a mask). `e / 16`, `t % 64` in a tile load are the common case.
 */
import type { CType } from './ctypes.ts';

/** The closed interval [lo, hi]. */
export type IntRange = readonly [lo: number, hi: number];

const I32: IntRange = [-2147483648, 2147483647];
const U32: IntRange = [0, 4294967295];

/** The values of a 32-bit (or narrower) integer type; undefined for other types. */
export function typeRange(t: CType): IntRange | undefined {
  if (t.k === 'bool') return [0, 1];
  if (t.k !== 'int' || t.bits > 32) return undefined;
  if (t.bits === 32) return t.signed ? I32 : U32;
  const m = 2 ** t.bits;
  return t.signed ? [-m / 2, m / 2 - 1] : [0, m - 1];
}

/** `r` if every value of it is a value of `t` (the conversion keeps it), else undefined. */
export function within(r: IntRange | undefined, t: CType): IntRange | undefined {
  const b = typeRange(t);
  return r && b && r[0] >= b[0] && r[1] <= b[1] ? r : undefined;
}

/**
 * The range of `a op b` computed in type `t` (after C's conversions), or undefined when it is not
 * known or the exact result could leave `t` (where WGSL would wrap).
 */
export function rangeOf(op: string, a: IntRange | undefined, b: IntRange | undefined, t: CType): IntRange | undefined {
  if (!a || !b) return undefined;
  const [al, ah] = a;
  const [bl, bh] = b;
  let r: IntRange | undefined;
  switch (op) {
    case '+': r = [al + bl, ah + bh]; break;
    case '-': r = [al - bh, ah - bl]; break;
    case '*': {
      const p = [al * bl, al * bh, ah * bl, ah * bh];
      r = [Math.min(...p), Math.max(...p)];
      break;
    }
    case '/':
      // Only a non-negative dividend over a positive divisor: the quotient shrinks towards zero.
      if (al >= 0 && bl > 0) r = [Math.trunc(al / bh), Math.trunc(ah / bl)];
      break;
    case '%':
      if (al >= 0 && bl > 0) r = [0, Math.min(ah, bh - 1)];
      break;
    case '&':
      // A non-negative operand bounds the result (its sign bit is clear, so the result's is too).
      if (al >= 0 && bl >= 0) r = [0, Math.min(ah, bh)];
      else if (al >= 0) r = [0, ah];
      else if (bl >= 0) r = [0, bh];
      break;
    case '>>':
      if (al >= 0 && bl >= 0 && bh < 32) r = [Math.floor(al / 2 ** bh), Math.floor(ah / 2 ** bl)];
      break;
    case '<<':
      if (al >= 0 && bl >= 0 && bh < 32) r = [al * 2 ** bl, ah * 2 ** bh];
      break;
  }
  return r && Number.isSafeInteger(r[0]) && Number.isSafeInteger(r[1]) ? within(r, t) : undefined;
}

/** Both ranges together (a `?:` of two values). */
export function union(a: IntRange | undefined, b: IntRange | undefined): IntRange | undefined {
  return a && b ? [Math.min(a[0], b[0]), Math.max(a[1], b[1])] : undefined;
}

/**
 * The built-in variables' members (CUDA Programming Guide, "Compute Capabilities": at most 1024
 * threads a block and 64 in z; grids up to 2^31 − 1 blocks in x and 65 535 in y and z).
 */
export function builtinRange(name: string, member: string): IntRange | undefined {
  const x = member === 'x';
  switch (name) {
    case 'threadIdx': return [0, member === 'z' ? 63 : 1023];
    case 'blockDim': return [1, member === 'z' ? 64 : 1024];
    case 'blockIdx': return [0, x ? 2147483646 : 65534];
    case 'gridDim': return [1, x ? 2147483647 : 65535];
  }
  return undefined;
}
