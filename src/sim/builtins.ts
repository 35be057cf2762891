/**
 * Builtin functions as a table, by family. Component-wise math and bit builtins of one to three
 * arguments are in `scalar.ts` (`builtin1/2/3`, applied per component by the compiler); this table
 * holds the rest: functions whose result mixes components or types (geometric, pack/unpack,
 * frexp/modf, ldexp, extractBits, packed dot products, quantizeToF16).
 *
 * Each entry checks its argument types and returns the types the arguments convert to (abstract
 * numbers become these), the result type and the lane function: `f(xs, out)` gets every argument
 * flattened in order and writes the result's components. f32 results round after each operation,
 * as the GPU does.
 */
import { bitsToF16, f32ToF16Bits } from '../wgsl/scalar.ts';
import { F32, I32, makeStruct, U32, vec, type Scalar, type Ty } from './types.ts';

export type LaneFn = (xs: Float64Array, out: Float64Array) => void;
export interface Signature {
  readonly params: readonly Ty[];
  readonly result: Ty;
  readonly f: LaneFn;
}
export type Family = 'numeric' | 'bit' | 'pack' | 'vector';
export interface Builtin {
  readonly family: Family;
  /** The signature for these argument types, or why they do not fit. */
  sig(args: readonly Ty[]): Signature | string;
}

const fr = Math.fround;

function floatShape(t: Ty | undefined): number {
  if (!t) return 0;
  if (t.k === 'scalar' && (t.s === 'f32' || t.s === 'af')) return 1;
  if (t.k === 'vec' && (t.s === 'f32' || t.s === 'af')) return t.n;
  return 0;
}
function intShape(t: Ty | undefined): { n: number; s: Scalar } | null {
  if (!t) return null;
  const s = t.k === 'scalar' || t.k === 'vec' ? t.s : null;
  if (s !== 'u32' && s !== 'i32' && s !== 'ai') return null;
  return { n: t.k === 'vec' ? t.n : 1, s: s === 'ai' ? 'i32' : s };
}
const fvec = (n: number): Ty => vec(n, 'f32');

/** f32 dot product of xs[a…a+n) and xs[b…b+n), rounding each product and sum. */
function dot(xs: Float64Array, a: number, b: number, n: number): number {
  let acc = fr(xs[a]! * xs[b]!);
  for (let c = 1; c < n; c++) acc = fr(acc + fr(xs[a + c]! * xs[b + c]!));
  return acc;
}

function sameFloat(name: string, count: number, args: readonly Ty[]): number | string {
  if (args.length !== count) return `${name} takes ${count} argument${count > 1 ? 's' : ''}`;
  const n = floatShape(args[0]);
  if (!n) return `${name} needs f32 or vecN<f32> arguments`;
  for (const a of args) if (floatShape(a) !== n) return `${name}: all arguments must have the same f32 type`;
  return n;
}

// ───────────────────────────── the table ─────────────────────────────

const numeric: Record<string, Builtin> = {
  frexp: {
    family: 'numeric',
    sig(args) {
      const n = sameFloat('frexp', 1, args);
      if (typeof n === 'string') return n;
      const result = makeStruct(n === 1 ? '__frexp_result_f32' : `__frexp_result_vec${n}_f32`, [
        { name: 'fract', ty: fvec(n) },
        { name: 'exp', ty: vec(n, 'i32') },
      ]);
      return {
        params: [fvec(n)],
        result,
        f: (xs, out) => {
          for (let c = 0; c < n; c++) {
            const x = xs[c]!;
            if (x === 0 || !Number.isFinite(x)) {
              out[c] = x;
              out[n + c] = 0;
              continue;
            }
            // x = fract * 2^exp with 0.5 <= |fract| < 1 (denormals included).
            let e = Math.floor(Math.log2(Math.abs(x))) + 1;
            let f = x / 2 ** e;
            if (Math.abs(f) >= 1) {
              f /= 2;
              e++;
            } else if (Math.abs(f) < 0.5) {
              f *= 2;
              e--;
            }
            out[c] = fr(f);
            out[n + c] = e;
          }
        },
      };
    },
  },
  modf: {
    family: 'numeric',
    sig(args) {
      const n = sameFloat('modf', 1, args);
      if (typeof n === 'string') return n;
      const result = makeStruct(n === 1 ? '__modf_result_f32' : `__modf_result_vec${n}_f32`, [
        { name: 'fract', ty: fvec(n) },
        { name: 'whole', ty: fvec(n) },
      ]);
      return {
        params: [fvec(n)],
        result,
        f: (xs, out) => {
          for (let c = 0; c < n; c++) {
            const x = xs[c]!;
            const whole = Math.trunc(x);
            out[n + c] = whole;
            out[c] = Number.isFinite(x) ? fr(x - whole) : x === x ? 0 : x;
          }
        },
      };
    },
  },
  ldexp: {
    family: 'numeric',
    sig(args) {
      if (args.length !== 2) return 'ldexp takes 2 arguments';
      const n = floatShape(args[0]);
      const e = intShape(args[1]);
      if (!n || !e || e.s !== 'i32' || e.n !== n) return 'ldexp(e1, e2) needs f32 (or vecN<f32>) and i32 (or vecN<i32>) of the same size';
      return {
        params: [fvec(n), vec(n, 'i32')],
        result: fvec(n),
        f: (xs, out) => {
          for (let c = 0; c < n; c++) {
            const k = xs[n + c]!;
            // Two steps keep 2^k finite for large |k| (denormal results, overflow to infinity).
            const h = Math.trunc(k / 2);
            out[c] = fr(xs[c]! * 2 ** h * 2 ** (k - h));
          }
        },
      };
    },
  },
  quantizeToF16: {
    family: 'numeric',
    sig(args) {
      const n = sameFloat('quantizeToF16', 1, args);
      if (typeof n === 'string') return n;
      return {
        params: [fvec(n)],
        result: fvec(n),
        f: (xs, out) => {
          for (let c = 0; c < n; c++) out[c] = bitsToF16(f32ToF16Bits(xs[c]!));
        },
      };
    },
  },
};

const bit: Record<string, Builtin> = {
  extractBits: {
    family: 'bit',
    sig(args) {
      const t = intShape(args[0]);
      if (args.length !== 3 || !t) return 'extractBits(e, offset, count) needs an integer (or integer vector) e';
      const signed = t.s === 'i32';
      const n = t.n;
      return {
        params: [vec(n, t.s), U32, U32],
        result: vec(n, t.s),
        f: (xs, out) => {
          const o = Math.min(xs[n]!, 32);
          const cnt = Math.min(xs[n + 1]!, 32 - o);
          for (let c = 0; c < n; c++) {
            const e = xs[c]!;
            if (cnt === 0) out[c] = 0;
            else if (signed) out[c] = cnt === 32 ? e | 0 : (e << (32 - o - cnt)) >> (32 - cnt);
            else out[c] = cnt === 32 ? e >>> 0 : ((e >>> o) & ((1 << cnt) - 1 || -1)) >>> 0;
          }
        },
      };
    },
  },
  dot4I8Packed: {
    family: 'bit',
    sig(args) {
      if (args.length !== 2) return 'dot4I8Packed takes 2 u32 arguments';
      return {
        params: [U32, U32],
        result: I32,
        f: (xs, out) => {
          const a = xs[0]!;
          const b = xs[1]!;
          let s = 0;
          for (let k = 0; k < 32; k += 8) s += ((a << (24 - k)) >> 24) * ((b << (24 - k)) >> 24);
          out[0] = s | 0;
        },
      };
    },
  },
  dot4U8Packed: {
    family: 'bit',
    sig(args) {
      if (args.length !== 2) return 'dot4U8Packed takes 2 u32 arguments';
      return {
        params: [U32, U32],
        result: U32,
        f: (xs, out) => {
          const a = xs[0]!;
          const b = xs[1]!;
          let s = 0;
          for (let k = 0; k < 32; k += 8) s += ((a >>> k) & 0xff) * ((b >>> k) & 0xff);
          out[0] = s >>> 0;
        },
      };
    },
  },
};

function packer(name: string, from: Ty, per: number, bits: number, enc: (x: number) => number): Builtin {
  return {
    family: 'pack',
    sig(args) {
      if (args.length !== 1) return `${name} takes 1 argument`;
      return {
        params: [from],
        result: U32,
        f: (xs, out) => {
          let r = 0;
          for (let c = 0; c < per; c++) r |= (enc(xs[c]!) & ((1 << bits) - 1 || -1)) << (c * bits);
          out[0] = r >>> 0;
        },
      };
    },
  };
}

function unpacker(name: string, to: Ty, per: number, bits: number, dec: (field: number) => number): Builtin {
  return {
    family: 'pack',
    sig(args) {
      if (args.length !== 1) return `${name} takes 1 argument`;
      return {
        params: [U32],
        result: to,
        f: (xs, out) => {
          const v = xs[0]!;
          for (let c = 0; c < per; c++) out[c] = dec((v >>> (c * bits)) & ((1 << bits) - 1 || -1));
        },
      };
    },
  };
}

const clamp = (x: number, lo: number, hi: number) => Math.min(Math.max(x, lo), hi);
function roundEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
const sext = (v: number, bits: number) => (v << (32 - bits)) >> (32 - bits);

const pack: Record<string, Builtin> = {
  // The spec writes floor(0.5 + k·x); GPUs (Dawn on Vulkan: SwiftShader) scale in f32 and round
  // halfway cases to even (-0.5 → -64, not -63), and sim ≡ GPU is what a learner sees.
  pack4x8snorm: packer('pack4x8snorm', fvec(4), 4, 8, (x) => roundEven(fr(127 * clamp(x, -1, 1)))),
  pack4x8unorm: packer('pack4x8unorm', fvec(4), 4, 8, (x) => roundEven(fr(255 * clamp(x, 0, 1)))),
  pack2x16snorm: packer('pack2x16snorm', fvec(2), 2, 16, (x) => roundEven(fr(32767 * clamp(x, -1, 1)))),
  pack2x16unorm: packer('pack2x16unorm', fvec(2), 2, 16, (x) => roundEven(fr(65535 * clamp(x, 0, 1)))),
  pack2x16float: packer('pack2x16float', fvec(2), 2, 16, f32ToF16Bits),
  pack4xI8: packer('pack4xI8', vec(4, 'i32'), 4, 8, (x) => x),
  pack4xU8: packer('pack4xU8', vec(4, 'u32'), 4, 8, (x) => x),
  pack4xI8Clamp: packer('pack4xI8Clamp', vec(4, 'i32'), 4, 8, (x) => clamp(x, -128, 127)),
  pack4xU8Clamp: packer('pack4xU8Clamp', vec(4, 'u32'), 4, 8, (x) => Math.min(x, 255)),
  unpack4x8snorm: unpacker('unpack4x8snorm', fvec(4), 4, 8, (v) => Math.max(fr(sext(v, 8) / 127), -1)),
  unpack4x8unorm: unpacker('unpack4x8unorm', fvec(4), 4, 8, (v) => fr(v / 255)),
  unpack2x16snorm: unpacker('unpack2x16snorm', fvec(2), 2, 16, (v) => Math.max(fr(sext(v, 16) / 32767), -1)),
  unpack2x16unorm: unpacker('unpack2x16unorm', fvec(2), 2, 16, (v) => fr(v / 65535)),
  unpack2x16float: unpacker('unpack2x16float', fvec(2), 2, 16, bitsToF16),
  unpack4xI8: unpacker('unpack4xI8', vec(4, 'i32'), 4, 8, (v) => sext(v, 8)),
  unpack4xU8: unpacker('unpack4xU8', vec(4, 'u32'), 4, 8, (v) => v),
};

const vector: Record<string, Builtin> = {
  distance: {
    family: 'vector',
    sig(args) {
      const n = sameFloat('distance', 2, args);
      if (typeof n === 'string') return n;
      return {
        params: [fvec(n), fvec(n)],
        result: F32,
        f: (xs, out) => {
          let acc = 0;
          for (let c = 0; c < n; c++) {
            const d = fr(xs[c]! - xs[n + c]!);
            acc = c === 0 ? fr(d * d) : fr(acc + fr(d * d));
          }
          out[0] = fr(Math.sqrt(acc));
        },
      };
    },
  },
  normalize: {
    family: 'vector',
    sig(args) {
      const n = sameFloat('normalize', 1, args);
      if (typeof n === 'string') return n;
      if (n === 1) return 'normalize needs a vector';
      return {
        params: [fvec(n)],
        result: fvec(n),
        f: (xs, out) => {
          const len = fr(Math.sqrt(dot(xs, 0, 0, n)));
          for (let c = 0; c < n; c++) out[c] = fr(xs[c]! / len);
        },
      };
    },
  },
  cross: {
    family: 'vector',
    sig(args) {
      const n = sameFloat('cross', 2, args);
      if (typeof n === 'string') return n;
      if (n !== 3) return 'cross needs two vec3<f32>';
      return {
        params: [fvec(3), fvec(3)],
        result: fvec(3),
        f: (xs, out) => {
          const [a0, a1, a2, b0, b1, b2] = [xs[0]!, xs[1]!, xs[2]!, xs[3]!, xs[4]!, xs[5]!];
          out[0] = fr(fr(a1 * b2) - fr(a2 * b1));
          out[1] = fr(fr(a2 * b0) - fr(a0 * b2));
          out[2] = fr(fr(a0 * b1) - fr(a1 * b0));
        },
      };
    },
  },
  reflect: {
    family: 'vector',
    sig(args) {
      const n = sameFloat('reflect', 2, args);
      if (typeof n === 'string') return n;
      return {
        params: [fvec(n), fvec(n)],
        result: fvec(n),
        f: (xs, out) => {
          // e1 - 2 * dot(e2, e1) * e2
          const d2 = fr(2 * dot(xs, n, 0, n));
          for (let c = 0; c < n; c++) out[c] = fr(xs[c]! - fr(d2 * xs[n + c]!));
        },
      };
    },
  },
  refract: {
    family: 'vector',
    sig(args) {
      if (args.length !== 3) return 'refract takes 3 arguments';
      const n = floatShape(args[0]);
      if (!n || n === 1 || floatShape(args[1]) !== n || floatShape(args[2]) !== 1) {
        return 'refract(e1, e2, e3) needs two vecN<f32> and an f32';
      }
      return {
        params: [fvec(n), fvec(n), F32],
        result: fvec(n),
        f: (xs, out) => {
          const eta = xs[2 * n]!;
          const d = dot(xs, n, 0, n);
          const k = fr(1 - fr(fr(eta * eta) * fr(1 - fr(d * d))));
          if (k < 0) {
            for (let c = 0; c < n; c++) out[c] = 0;
            return;
          }
          const m = fr(fr(eta * d) + fr(Math.sqrt(k)));
          for (let c = 0; c < n; c++) out[c] = fr(fr(eta * xs[c]!) - fr(m * xs[n + c]!));
        },
      };
    },
  },
  faceForward: {
    family: 'vector',
    sig(args) {
      const n = sameFloat('faceForward', 3, args);
      if (typeof n === 'string') return n;
      return {
        params: [fvec(n), fvec(n), fvec(n)],
        result: fvec(n),
        f: (xs, out) => {
          const flip = dot(xs, n, 2 * n, n) < 0;
          for (let c = 0; c < n; c++) out[c] = flip ? xs[c]! : -xs[c]!;
        },
      };
    },
  },
};

/** Every table builtin by name. */
export const BUILTINS: Readonly<Record<string, Builtin>> = { ...numeric, ...bit, ...pack, ...vector };
