import { describe, expect, it } from 'vitest';
import { oracleRecords, parseHexFloat } from './oracle/read.ts';
import { ARITH, arithType, binary, convert, layoutStruct, unary, type BinaryOp, type CArith, type CValue, type UnaryOp } from './ctypes.ts';

// Expected values: src/cuda/host/oracle/arith.c compiled and run with gcc (scripts/cuda-host-oracle.sh).
function typeOf(name: string): CArith {
  const t = arithType(name);
  if (!t) throw new Error(`unknown type ${name}`);
  return t;
}
function valueOf(type: CArith, text: string): CValue {
  if (ARITH[type].float) return parseHexFloat(text);
  const b = BigInt(text);
  return b >= -(2n ** 53n) + 1n && b <= 2n ** 53n - 1n ? Number(b) : b;
}
function same(got: CValue, type: CArith, text: string): boolean {
  if (ARITH[type].float) return Object.is(got, parseHexFloat(text));
  return BigInt(got) === BigInt(text);
}

const binaries = oracleRecords('arith', 'B').map(([, ta, a, op, tb, b, , tr, r]) => ({ ta: ta!, a: a!, op: op!, tb: tb!, b: b!, tr: tr!, r: r! }));
const conversions = oracleRecords('arith', 'C').map(([, to, from, v, , r]) => ({ to: to!, from: from!, v: v!, r: r! }));
const unaries = oracleRecords('arith', 'U').map(([, op, t, v, , tr, r]) => ({ op: op!, t: t!, v: v!, tr: tr!, r: r! }));
const layouts = oracleRecords('arith', 'S').map(([, name, size, align, offsets]) => ({ name: name!, size: Number(size), align: Number(align), offsets: offsets!.split(' ').map(Number) }));

describe('C arithmetic against gcc on x86-64', () => {
  it('has the oracle cases', () => {
    expect(binaries.length + conversions.length + unaries.length + layouts.length).toBeGreaterThan(110);
  });

  it.each(binaries)('($ta)$a $op ($tb)$b is ($tr)$r', ({ ta, a, op, tb, b, tr, r }) => {
    const A = typeOf(ta);
    const B = typeOf(tb);
    const got = binary(op as BinaryOp, A, valueOf(A, a), B, valueOf(B, b));
    expect(got.type).toBe(typeOf(tr));
    expect(same(got.value, got.type, r), `got ${String(got.value)}`).toBe(true);
  });

  it.each(conversions)('($to)($from)$v is $r', ({ to, from, v, r }) => {
    const T = typeOf(to);
    const F = typeOf(from);
    const got = convert(valueOf(F, v), F, T);
    expect(same(got, T, r), `got ${String(got)}`).toBe(true);
  });

  it.each(unaries)('$op($t)$v is ($tr)$r', ({ op, t, v, tr, r }) => {
    const T = typeOf(t);
    const got = unary(op as UnaryOp, T, valueOf(T, v));
    expect(got.type).toBe(typeOf(tr));
    expect(same(got.value, got.type, r), `got ${String(got.value)}`).toBe(true);
  });

  // The structs of arith.c, field by field: [bytes, align] of each member.
  const FIELDS: Record<string, [number, number][]> = {
    A: [[1, 1], [4, 4]],
    B: [[1, 1], [8, 8], [2, 2]],
    C: [[4, 4], [4, 4], [4, 4]],
    D: [[1, 1], [1, 1], [1, 1]],
    E: [[4, 4], [1, 1], [8, 8], [1, 1]],
    F: [[1, 1], [2, 2], [1, 1], [4, 4]],
    G: [[8, 8], [1, 1]],
    H: [[4, 4], [8, 8], [1, 1]],
  };
  it.each(layouts)('struct $name: sizeof $size, alignof $align, offsets $offsets', ({ name, size, align, offsets }) => {
    const got = layoutStruct(FIELDS[name]!.map(([bytes, al], i) => ({ name: `f${i}`, bytes, align: al })));
    expect({ size: got.size, align: got.align, offsets: got.fields.map((f) => f.offset) }).toEqual({ size, align, offsets });
  });
});
