/**
 * Scalar semantics of WGSL on JS numbers, one copy for the whole project: the simulator runs them
 * (`src/sim/lower`), the checker folds constants with them (`checker.ts`, `builtins.ts`) and the
 * debugger evaluates expressions with them (`evaluate.ts`). Registers hold doubles: u32 as 0…2^32-1, i32 as
 * -2^31…2^31-1, f32 as doubles already rounded with Math.fround, f16 as doubles already rounded
 * to binary16 (`f16Round`), bool as 0/1. Abstract ints and floats (constant folding only) are
 * plain doubles.
 */
import type { ScalarName as Scalar } from './types.ts';

const fr = Math.fround;
const I32_MIN = -2147483648;

/** The largest finite f16, and the first magnitude that rounds to infinity (halfway to 2^16). */
export const F16_MAX = 65504;
const F16_OVERFLOW = 65520;

/** Rounds a non-negative double to an integer, ties to even (exact for values below 2^53). */
function roundHalfEven(y: number): number {
  const f = Math.floor(y);
  const d = y - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/**
 * A double rounded to the nearest IEEE binary16 value, ties to even: subnormals below 2^-14 in
 * steps of 2^-24, magnitudes from 65520 up become ±infinity, NaN stays NaN, the sign of zero is
 * kept. Results of +, -, *, / and sqrt on f16 operands computed in doubles round correctly this
 * way (53 ≥ 2·11 + 2 bits, so the double's own rounding never decides a tie).
 */
export function f16Round(x: number): number {
  if (x !== x || x === 0) return x;
  const a = Math.abs(x);
  if (a >= F16_OVERFLOW) return x > 0 ? Infinity : -Infinity;
  let r: number;
  if (a < 2 ** -14) r = roundHalfEven(a * 2 ** 24) * 2 ** -24;
  else {
    let e = Math.floor(Math.log2(a));
    // log2 can land one off next to a power of two: fix the binade exactly.
    if (2 ** e > a) e--;
    else if (2 ** (e + 1) <= a) e++;
    const q = 2 ** (e - 10);
    r = roundHalfEven(a / q) * q;
  }
  return x < 0 ? -r : r;
}

const h = f16Round;

export type Fn1 = (x: number) => number;
export type Fn2 = (x: number, y: number) => number;
export type Fn3 = (x: number, y: number, z: number) => number;

/** Binary operator on scalars of kind `s` (both operands already of that kind). */
export function binaryFn(op: string, s: Scalar): Fn2 | null {
  switch (s) {
    case 'u32':
      switch (op) {
        case '+': return (x, y) => (x + y) >>> 0;
        case '-': return (x, y) => (x - y) >>> 0;
        case '*': return (x, y) => Math.imul(x, y) >>> 0;
        // WGSL: x / 0 = x, x % 0 = 0 (no trap).
        case '/': return (x, y) => (y === 0 ? x : Math.floor(x / y));
        case '%': return (x, y) => (y === 0 ? 0 : x % y);
        case '&': return (x, y) => (x & y) >>> 0;
        case '|': return (x, y) => (x | y) >>> 0;
        case '^': return (x, y) => (x ^ y) >>> 0;
        // Shift amounts are taken modulo 32.
        case '<<': return (x, y) => (x << (y & 31)) >>> 0;
        case '>>': return (x, y) => x >>> (y & 31);
      }
      break;
    case 'i32':
      switch (op) {
        case '+': return (x, y) => (x + y) | 0;
        case '-': return (x, y) => (x - y) | 0;
        case '*': return (x, y) => Math.imul(x, y);
        // WGSL: x / 0 = x and MIN / -1 = MIN; x % 0 = 0 and MIN % -1 = 0.
        case '/': return (x, y) => (y === 0 || (x === I32_MIN && y === -1) ? x : (x / y) | 0);
        case '%': return (x, y) => (y === 0 || (x === I32_MIN && y === -1) ? 0 : x % y | 0);
        case '&': return (x, y) => x & y;
        case '|': return (x, y) => x | y;
        case '^': return (x, y) => x ^ y;
        case '<<': return (x, y) => x << (y & 31);
        case '>>': return (x, y) => x >> (y & 31);
      }
      break;
    case 'f32':
      switch (op) {
        case '+': return (x, y) => fr(x + y);
        case '-': return (x, y) => fr(x - y);
        case '*': return (x, y) => fr(x * y);
        case '/': return (x, y) => fr(x / y);
        case '%': return (x, y) => fr(x % y);
      }
      break;
    case 'f16':
      switch (op) {
        case '+': return (x, y) => h(x + y);
        case '-': return (x, y) => h(x - y);
        case '*': return (x, y) => h(x * y);
        case '/': return (x, y) => h(x / y);
        case '%': return (x, y) => h(x % y);
      }
      break;
    case 'bool':
      switch (op) {
        case '&':
        case '&&': return (x, y) => x & y;
        case '|':
        case '||': return (x, y) => x | y;
      }
      break;
    case 'ai':
      switch (op) {
        case '+': return (x, y) => x + y;
        case '-': return (x, y) => x - y;
        case '*': return (x, y) => x * y;
        case '/': return (x, y) => (y === 0 ? x : Math.trunc(x / y));
        case '%': return (x, y) => (y === 0 ? 0 : x % y);
        case '&': return (x, y) => Number(BigInt(x) & BigInt(y));
        case '|': return (x, y) => Number(BigInt(x) | BigInt(y));
        case '^': return (x, y) => Number(BigInt(x) ^ BigInt(y));
        case '<<': return (x, y) => x * 2 ** y;
        case '>>': return (x, y) => Math.floor(x / 2 ** y);
      }
      break;
    case 'af':
      switch (op) {
        case '+': return (x, y) => x + y;
        case '-': return (x, y) => x - y;
        case '*': return (x, y) => x * y;
        case '/': return (x, y) => x / y;
        case '%': return (x, y) => x % y;
      }
      break;
  }
  switch (op) {
    case '==': return (x, y) => (x === y ? 1 : 0);
    case '!=': return (x, y) => (x !== y ? 1 : 0);
    case '<': return (x, y) => (x < y ? 1 : 0);
    case '<=': return (x, y) => (x <= y ? 1 : 0);
    case '>': return (x, y) => (x > y ? 1 : 0);
    case '>=': return (x, y) => (x >= y ? 1 : 0);
  }
  return null;
}

export const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);

const f32buf = new Float32Array(1);
const u32buf = new Uint32Array(f32buf.buffer);

export function f32Bits(x: number): number {
  f32buf[0] = x;
  return u32buf[0]!;
}
export function bitsF32(x: number): number {
  u32buf[0] = x;
  return f32buf[0]!;
}

/** Converts a value of kind `from` to kind `to` (WGSL value conversion, saturating float→int). */
export function convert(x: number, from: Scalar, to: Scalar): number {
  if (from === to) return x;
  switch (to) {
    case 'u32':
      // WGSL saturates f32 → u32 to [0, 2^32 - 256], the largest f32 below 2^32.
      if (from === 'f32') return Number.isNaN(x) ? 0 : x <= 0 ? 0 : x >= 4294967040 ? 4294967040 : Math.trunc(x);
      if (from === 'af') {
        if (Number.isNaN(x)) return 0;
        return x <= 0 ? 0 : x >= 4294967295 ? 4294967295 : Math.trunc(x);
      }
      // Every finite f16 fits in u32 and i32: saturate ±infinity to the largest f16 (65504).
      if (from === 'f16') return Number.isNaN(x) ? 0 : x <= 0 ? 0 : x >= F16_MAX ? F16_MAX : Math.trunc(x);
      return x >>> 0;
    case 'i32':
      // f32 → i32 saturates to [-2^31, 2^31 - 128], the largest f32 below 2^31.
      if (from === 'f32') {
        if (Number.isNaN(x)) return 0;
        return x <= -2147483648 ? -2147483648 : x >= 2147483520 ? 2147483520 : Math.trunc(x);
      }
      if (from === 'af') {
        if (Number.isNaN(x)) return 0;
        return x <= -2147483648 ? -2147483648 : x >= 2147483647 ? 2147483647 : Math.trunc(x);
      }
      if (from === 'f16') return Number.isNaN(x) ? 0 : x <= -F16_MAX ? -F16_MAX : x >= F16_MAX ? F16_MAX : Math.trunc(x);
      return x | 0;
    case 'f32':
      return fr(x);
    case 'f16':
      // From f32, i32, u32 or an abstract number: round to nearest even; beyond 65504 + half a
      // step it is infinity (a constant there is a shader-creation error the checker reports).
      return h(x);
    case 'bool':
      return x !== 0 && !Number.isNaN(x) ? 1 : 0;
    case 'ai':
    case 'af':
      return x;
  }
}

/** f32 → IEEE half bits, round to nearest even; overflow gives ±infinity. */
export function f32ToF16Bits(x: number): number {
  const b = f32Bits(x);
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  const mant = b & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    const shift = 14 - e;
    if (shift >= 25) return sign;
    const m = mant | 0x800000;
    let h = m >>> shift;
    const rem = m & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++;
  return sign | h;
}

/** IEEE binary16 bits of an f16 value (exact: every f16 is an f32), NaN as the quiet NaN 0x7e00. */
export function f16ToBits(x: number): number {
  return x !== x ? 0x7e00 : f32ToF16Bits(x);
}

/** The f16 value of binary16 bits. */
export function bitsToF16(b: number): number {
  const s = b & 0x8000 ? -1 : 1;
  const e = (b >>> 10) & 0x1f;
  const m = b & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1024 + m) * 2 ** (e - 25);
}

/** `bitcast<to>(x)` between 32-bit scalars. */
export function bitcast(x: number, from: Scalar, to: Scalar): number {
  const bits = from === 'f32' ? f32Bits(x) : x >>> 0;
  if (to === 'u32') return bits;
  if (to === 'i32') return bits | 0;
  return bitsF32(bits);
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function roundEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function reverseBits(x: number): number {
  let r = 0;
  for (let i = 0; i < 32; i++) {
    r = (r << 1) | (x & 1);
    x >>>= 1;
  }
  return r >>> 0;
}

const wrap = (s: Scalar) => (s === 'u32' ? (x: number) => x >>> 0 : s === 'i32' ? (x: number) => x | 0 : fr);

/**
 * An f16 builtin from its f32 one: arguments are f16 (exact in f32), the f32 result is rounded
 * to f16. Exact functions (abs, floor, min, clamp, …) stay exact; the others get the f32
 * function's accuracy plus one f16 rounding, inside WGSL's f16 bounds.
 */
function halfOf1(f: Fn1 | null): Fn1 | null {
  return f && ((x) => h(f(x)));
}

/** WGSL §17.5 min and max: where one operand is a NaN, the other is returned (IEEE minNum/maxNum). */
const fmin = (x: number, y: number): number => (x !== x ? y : y !== y ? x : Math.min(x, y));
const fmax = (x: number, y: number): number => (x !== x ? y : y !== y ? x : Math.max(x, y));

/** Component-wise numeric builtins of one argument. */
export function builtin1(name: string, s: Scalar): Fn1 | null {
  if (s === 'f16') return name === 'quantizeToF16' ? null : halfOf1(builtin1(name, 'f32'));
  const w = wrap(s);
  const isF = s === 'f32' || s === 'af';
  // Abstract floats stay doubles; f32 results round to f32.
  const fr = s === 'af' ? (x: number) => x : Math.fround;
  switch (name) {
    case 'abs':
      return s === 'u32' ? (x) => x : s === 'i32' ? (x) => (x === I32_MIN ? x : Math.abs(x)) : (x) => Math.abs(x);
    case 'countOneBits': return (x) => w(popcount(x));
    case 'countLeadingZeros': return (x) => w(Math.clz32(x));
    case 'countTrailingZeros': return (x) => w(x === 0 ? 32 : 31 - Math.clz32(x & -x));
    case 'firstLeadingBit':
      return s === 'i32'
        ? (x) => (x === 0 || x === -1 ? -1 : 31 - Math.clz32(x < 0 ? ~x : x))
        : (x) => (x === 0 ? 0xffffffff : 31 - Math.clz32(x));
    case 'firstTrailingBit': return (x) => (x === 0 ? w(-1) : w(31 - Math.clz32(x & -x)));
    case 'reverseBits': return (x) => w(reverseBits(x));
    case 'sign': return isF ? (x) => Math.sign(x) : (x) => (x > 0 ? 1 : x < 0 ? -1 : 0);
  }
  if (!isF) return null;
  switch (name) {
    case 'floor': return (x) => Math.floor(x);
    case 'ceil': return (x) => Math.ceil(x);
    case 'round': return (x) => roundEven(x);
    case 'trunc': return (x) => Math.trunc(x);
    case 'fract': return (x) => fr(x - Math.floor(x));
    case 'sqrt': return (x) => fr(Math.sqrt(x));
    case 'inverseSqrt': return (x) => fr(1 / Math.sqrt(x));
    case 'exp': return (x) => fr(Math.exp(x));
    case 'exp2': return (x) => fr(2 ** x);
    case 'log': return (x) => fr(Math.log(x));
    case 'log2': return (x) => fr(Math.log2(x));
    case 'sin': return (x) => fr(Math.sin(x));
    case 'cos': return (x) => fr(Math.cos(x));
    case 'tan': return (x) => fr(Math.tan(x));
    case 'asin': return (x) => fr(Math.asin(x));
    case 'acos': return (x) => fr(Math.acos(x));
    case 'atan': return (x) => fr(Math.atan(x));
    case 'asinh': return (x) => fr(Math.asinh(x));
    case 'acosh': return (x) => fr(Math.acosh(x));
    case 'atanh': return (x) => fr(Math.atanh(x));
    case 'sinh': return (x) => fr(Math.sinh(x));
    case 'cosh': return (x) => fr(Math.cosh(x));
    case 'tanh': return (x) => fr(Math.tanh(x));
    case 'saturate': return (x) => fmin(fmax(x, 0), 1);
    case 'degrees': return (x) => fr((x * 180) / Math.PI);
    case 'radians': return (x) => fr((x * Math.PI) / 180);
  }
  return null;
}

export function builtin2(name: string, s: Scalar): Fn2 | null {
  if (s === 'f16') {
    const f = builtin2(name, 'f32');
    return f && ((x, y) => h(f(x, y)));
  }
  const fr = s === 'af' ? (x: number) => x : Math.fround;
  switch (name) {
    case 'min': return fmin;
    case 'max': return fmax;
    case 'pow': return (x, y) => fr(x ** y);
    case 'atan2': return (x, y) => fr(Math.atan2(x, y));
    case 'step': return (edge, x) => (edge <= x ? 1 : 0);
  }
  return null;
}

export function builtin3(name: string, s: Scalar): Fn3 | null {
  if (s === 'f16') {
    switch (name) {
      // Each operation rounds to f16, as the f32 versions round to f32.
      case 'fma': return (a, b, c) => h(h(a * b) + c);
      case 'mix': return (a, b, t) => h(h(a * h(1 - t)) + h(b * t));
      case 'smoothstep':
        return (lo, hi, x) => {
          const t = Math.min(Math.max(h(h(x - lo) / h(hi - lo)), 0), 1);
          return h(h(h(t * t) * h(3 - h(2 * t))));
        };
      case 'clamp': return builtin3(name, 'f32');
    }
    return null;
  }
  switch (name) {
    case 'clamp': return (x, lo, hi) => fmin(fmax(x, lo), hi);
    // Unfused: the product rounds to f32, then the sum (fusedFma below rounds once).
    case 'fma': return s === 'f32' ? (a, b, c) => fr(fr(a * b) + c) : (a, b, c) => a * b + c;
    case 'mix': return (a, b, t) => fr(fr(a * fr(1 - t)) + fr(b * t));
    case 'smoothstep':
      return (lo, hi, x) => {
        const t = Math.min(Math.max(fr(fr(x - lo) / fr(hi - lo)), 0), 1);
        return fr(t * t * (3 - 2 * t));
      };
    case 'extractBits':
      return (e, off, cnt) => {
        const o = Math.min(off, 32);
        const c = Math.min(cnt, 32 - o);
        if (c === 0) return 0;
        if (s === 'i32') return c === 32 ? e | 0 : ((e << (32 - o - c)) >> (32 - c));
        return c === 32 ? e >>> 0 : ((e >>> o) & ((1 << c) - 1 || -1)) >>> 0;
      };
  }
  return null;
}

/**
 * `fma(a, b, c)` rounded once, as a fused multiply-add does. The product of two f32 values is
 * exact in a double; the double sum is rounded, so the rounding error of that sum (two-sum) breaks
 * the one case where rounding the double to f32 could differ: a double exactly halfway between
 * two f32 values.
 */
export function fusedFma(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  const r = fr(s);
  if (!Number.isFinite(s) || s === r) return r;
  const bb = s - p;
  const e = p - (s - bb) + (c - bb);
  if (e === 0) return r;
  // The f32 neighbour of r on the other side of s, and the midpoint between them.
  const other = bitsF32(r > s === r > 0 ? f32Bits(r) - 1 : f32Bits(r) + 1);
  if ((r + other) / 2 !== s) return r;
  // A tie in the double: the exact value lies on e's side of it.
  return e > 0 === other > r ? other : r;
}

export function insertBits(e: number, nb: number, off: number, cnt: number, s: Scalar): number {
  const o = Math.min(off, 32);
  const c = Math.min(cnt, 32 - o);
  if (c === 0) return e;
  const mask = c === 32 ? 0xffffffff : (((1 << c) - 1) << o) >>> 0;
  const r = ((e & ~mask) | ((nb << o) & mask)) >>> 0;
  return s === 'i32' ? r | 0 : r;
}
