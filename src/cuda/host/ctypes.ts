/**
 * C's arithmetic types and operators as gcc implements them on x86-64 Linux (LP64): `char` is
 * signed, `int` 32 bits, `long` and pointers 64 bits. Integer promotion, the usual arithmetic
 * conversions, wrap-around of unsigned types, truncating `/` and `%`, arithmetic `>>` on signed
 * values, and float-to-integer conversion toward zero (out-of-range values become the x86
 * "integer indefinite" value, as `cvttsd2si` gives).
 *
 * Values: types of at most 32 bits and `float`/`double` are JavaScript numbers; the 64-bit integer
 * types are numbers while they are safe integers and bigints beyond (`C64`), so ordinary `long`
 * loops never touch BigInt.
 */
import type { CudaScalarType } from '../types.ts';

/** C's arithmetic types, spelled as the front end's contract spells them. */
export type CArith = CudaScalarType;

/** A value of a C arithmetic type (see the module comment for the representation). */
export type CValue = number | bigint;

export interface ArithInfo {
  readonly bytes: number;
  readonly float: boolean;
  readonly signed: boolean;
  /** Integer conversion rank (C11 6.3.1.1); floats rank above every integer. */
  readonly rank: number;
}

export const ARITH: Readonly<Record<CArith, ArithInfo>> = {
  bool: { bytes: 1, float: false, signed: false, rank: 0 },
  char: { bytes: 1, float: false, signed: true, rank: 1 },
  'signed char': { bytes: 1, float: false, signed: true, rank: 1 },
  'unsigned char': { bytes: 1, float: false, signed: false, rank: 1 },
  short: { bytes: 2, float: false, signed: true, rank: 2 },
  'unsigned short': { bytes: 2, float: false, signed: false, rank: 2 },
  int: { bytes: 4, float: false, signed: true, rank: 3 },
  'unsigned int': { bytes: 4, float: false, signed: false, rank: 3 },
  long: { bytes: 8, float: false, signed: true, rank: 4 },
  'unsigned long': { bytes: 8, float: false, signed: false, rank: 4 },
  'long long': { bytes: 8, float: false, signed: true, rank: 5 },
  'unsigned long long': { bytes: 8, float: false, signed: false, rank: 5 },
  float: { bytes: 4, float: true, signed: true, rank: 10 },
  double: { bytes: 8, float: true, signed: true, rank: 11 },
};

/** Other spellings of the same types (`unsigned` is `unsigned int`, `size_t` is `unsigned long`). */
export const ARITH_ALIASES: Readonly<Record<string, CArith>> = {
  unsigned: 'unsigned int',
  signed: 'int',
  'signed int': 'int',
  'long int': 'long',
  'unsigned long int': 'unsigned long',
  'long long int': 'long long',
  'unsigned long long int': 'unsigned long long',
  'short int': 'short',
  'unsigned short int': 'unsigned short',
  _Bool: 'bool',
  size_t: 'unsigned long',
  ssize_t: 'long',
  ptrdiff_t: 'long',
  intptr_t: 'long',
  uintptr_t: 'unsigned long',
  int8_t: 'signed char',
  uint8_t: 'unsigned char',
  int16_t: 'short',
  uint16_t: 'unsigned short',
  int32_t: 'int',
  uint32_t: 'unsigned int',
  int64_t: 'long',
  uint64_t: 'unsigned long',
  clock_t: 'long',
  time_t: 'long',
};

export function arithType(name: string): CArith | undefined {
  return name in ARITH ? (name as CArith) : ARITH_ALIASES[name];
}

/** A 64-bit integer as a number when it is safe, else a bigint. */
function norm64(v: bigint): CValue {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

const f32 = Math.fround;

/** x86's cvttsd2si for an out-of-range or NaN value: the "integer indefinite" 0x80000000... */
function truncToInt(x: number, bits: 32 | 64, signed: boolean): CValue {
  if (Number.isNaN(x)) return bits === 32 ? -2147483648 : -9223372036854775808n;
  const t = Math.trunc(x);
  if (bits === 32) {
    if (signed) return t >= -2147483648 && t <= 2147483647 ? t : -2147483648;
    // gcc converts double→unsigned int through a 64-bit signed conversion, then keeps 32 bits.
    const wide = t >= -9223372036854775808 && t < 9223372036854775808 ? BigInt(t) : -9223372036854775808n;
    return Number(BigInt.asUintN(32, wide));
  }
  if (signed) return t >= -9223372036854775808 && t < 9223372036854775808 ? norm64(BigInt(t)) : -9223372036854775808n;
  // double→unsigned long: values ≥ 2^63 are converted after subtracting 2^63.
  if (t >= 0 && t < 18446744073709551616) return norm64(BigInt(t));
  if (t < 0 && t > -9223372036854775808) return norm64(BigInt.asUintN(64, BigInt(t)));
  return 9223372036854775808n;
}

/** Converts a value of type `from` to type `to` (C11 6.3.1). */
export function convert(v: CValue, from: CArith, to: CArith): CValue {
  const t = ARITH[to];
  if (to === 'bool') return typeof v === 'bigint' ? (v !== 0n ? 1 : 0) : v !== 0 && !Number.isNaN(v) ? 1 : 0;
  if (t.float) {
    const x = typeof v === 'bigint' ? Number(v) : v;
    return to === 'float' ? f32(x) : x;
  }
  if (ARITH[from].float && typeof v === 'number') {
    if (t.bytes === 8) return truncToInt(v, 64, t.signed);
    const wide = truncToInt(v, 32, t.bytes === 4 ? t.signed : true);
    return t.bytes === 4 ? wide : wrapInt(wide, to);
  }
  return wrapInt(v, to);
}

/** An integer value reduced to the range of integer type `to`, as C's conversions wrap. */
export function wrapInt(v: CValue, to: CArith): CValue {
  switch (to) {
    case 'bool':
      return v === 0 || v === 0n ? 0 : 1;
    case 'char':
    case 'signed char':
      return typeof v === 'bigint' ? Number(BigInt.asIntN(8, v)) : (v << 24) >> 24;
    case 'unsigned char':
      return typeof v === 'bigint' ? Number(BigInt.asUintN(8, v)) : v & 0xff;
    case 'short':
      return typeof v === 'bigint' ? Number(BigInt.asIntN(16, v)) : (v << 16) >> 16;
    case 'unsigned short':
      return typeof v === 'bigint' ? Number(BigInt.asUintN(16, v)) : v & 0xffff;
    case 'int':
      return typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : Number.isSafeInteger(v) ? v | 0 : Number(BigInt.asIntN(32, BigInt(v)));
    case 'unsigned int':
      return typeof v === 'bigint' ? Number(BigInt.asUintN(32, v)) : Number.isSafeInteger(v) ? v >>> 0 : Number(BigInt.asUintN(32, BigInt(v)));
    case 'long':
    case 'long long':
      if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
      return norm64(BigInt.asIntN(64, BigInt(v)));
    case 'unsigned long':
    case 'unsigned long long':
      if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
      return norm64(BigInt.asUintN(64, BigInt(v)));
    default:
      return typeof v === 'bigint' ? Number(v) : v;
  }
}

/** Integer promotion (C11 6.3.1.1): everything narrower than `int` becomes `int`. */
export function promote(t: CArith): CArith {
  return ARITH[t].float || ARITH[t].rank >= 3 ? t : 'int';
}

/** The usual arithmetic conversions (C11 6.3.1.8) on LP64. */
export function commonType(a: CArith, b: CArith): CArith {
  if (a === 'double' || b === 'double') return 'double';
  if (a === 'float' || b === 'float') return 'float';
  const pa = promote(a);
  const pb = promote(b);
  if (pa === pb) return pa;
  const ia = ARITH[pa];
  const ib = ARITH[pb];
  if (ia.signed === ib.signed) return ia.rank >= ib.rank ? pa : pb;
  const [u, s] = ia.signed ? [pb, pa] : [pa, pb];
  if (ARITH[u].rank >= ARITH[s].rank) return u;
  if (ARITH[s].bytes > ARITH[u].bytes) return s;
  return s === 'long' ? 'unsigned long' : 'unsigned long long';
}

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '<<' | '>>' | '&' | '|' | '^' | '<' | '>' | '<=' | '>=' | '==' | '!=';

/** Raised for what C leaves undefined and x86 turns into a trap: integer division by zero. */
export class CArithmeticError extends Error {}

const COMPARE = new Set<BinaryOp>(['<', '>', '<=', '>=', '==', '!=']);

function compare(op: BinaryOp, x: CValue, y: CValue): number {
  switch (op) {
    case '<':
      return x < y ? 1 : 0;
    case '>':
      return x > y ? 1 : 0;
    case '<=':
      return x <= y ? 1 : 0;
    case '>=':
      return x >= y ? 1 : 0;
    case '==':
      return x == y ? 1 : 0; // == on purpose: a number and a bigint compare by value
    default:
      return x != y ? 1 : 0; // == on purpose: a number and a bigint compare by value
  }
}

/**
 * `a op b` with C's semantics: the operands are converted as C converts them, the result has
 * the type C gives it (`int` for comparisons; the promoted left type for shifts).
 */
export function binary(op: BinaryOp, ta: CArith, a: CValue, tb: CArith, b: CValue): { type: CArith; value: CValue } {
  if (op === '<<' || op === '>>') {
    const type = promote(ta);
    const info = ARITH[type];
    const bits = info.bytes * 8;
    const n = Number(convert(b, tb, 'long')) & (bits - 1); // x86 masks the count
    const x = BigInt(convert(a, ta, type));
    const r = op === '<<' ? x << BigInt(n) : x >> BigInt(n);
    return { type, value: wrapInt(r, type) };
  }
  const type = commonType(ta, tb);
  const x = convert(a, ta, type);
  const y = convert(b, tb, type);
  if (COMPARE.has(op)) return { type: 'int', value: compare(op, x, y) };
  const info = ARITH[type];
  if (info.float) {
    const xf = x as number;
    const yf = y as number;
    let r: number;
    switch (op) {
      case '+':
        r = xf + yf;
        break;
      case '-':
        r = xf - yf;
        break;
      case '*':
        r = xf * yf;
        break;
      case '/':
        r = xf / yf;
        break;
      default:
        throw new CArithmeticError(`invalid operands to binary ${op} (have '${type}')`);
    }
    return { type, value: type === 'float' ? f32(r) : r };
  }
  const X = BigInt(x);
  const Y = BigInt(y);
  let r: bigint;
  switch (op) {
    case '+':
      r = X + Y;
      break;
    case '-':
      r = X - Y;
      break;
    case '*':
      r = X * Y;
      break;
    case '/':
    case '%':
      if (Y === 0n) throw new CArithmeticError('integer division by zero');
      // BigInt division truncates toward zero, as C's does; INT_MIN / -1 traps on x86.
      if (info.signed && Y === -1n && X === -(1n << BigInt(info.bytes * 8 - 1))) throw new CArithmeticError('integer overflow in division (INT_MIN / -1)');
      r = op === '/' ? X / Y : X % Y;
      break;
    case '&':
      r = X & Y;
      break;
    case '|':
      r = X | Y;
      break;
    default:
      r = X ^ Y;
  }
  return { type, value: wrapInt(r, type) };
}

export type UnaryOp = '-' | '+' | '~' | '!';

export function unary(op: UnaryOp, t: CArith, v: CValue): { type: CArith; value: CValue } {
  if (op === '!') return { type: 'int', value: v === 0 || v === 0n ? 1 : 0 };
  const type = promote(t);
  const x = convert(v, t, type);
  if (ARITH[type].float) {
    if (op === '~') throw new CArithmeticError(`wrong type argument to bit-complement ('${type}')`);
    return { type, value: op === '-' ? -(x as number) : x };
  }
  if (op === '+') return { type, value: x };
  const X = BigInt(x);
  return { type, value: wrapInt(op === '-' ? -X : ~X, type) };
}

// ---- struct layout --------------------------------------------------------------------------

export interface FieldLayout {
  readonly name: string;
  readonly offset: number;
}

/** System V x86-64 layout: each field at its alignment, the size rounded to the largest. */
export function layoutStruct(fields: readonly { name: string; bytes: number; align: number }[]): {
  size: number;
  align: number;
  fields: FieldLayout[];
} {
  let offset = 0;
  let align = 1;
  const out: FieldLayout[] = [];
  for (const f of fields) {
    offset = Math.ceil(offset / f.align) * f.align;
    out.push({ name: f.name, offset });
    offset += f.bytes;
    align = Math.max(align, f.align);
  }
  return { size: Math.ceil(offset / align) * align, align, fields: out };
}
