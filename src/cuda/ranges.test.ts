import { describe, expect, it } from 'vitest';
import type { CType } from './ctypes.ts';
import { builtinRange, rangeOf, typeRange, union, within } from './ranges.ts';

const INT: CType = { k: 'int', name: 'int', bits: 32, signed: true };
const UINT: CType = { k: 'int', name: 'unsigned int', bits: 32, signed: false };

describe('value ranges', () => {
  it.each([
    ['+', [0, 1023], [0, 768], INT, [0, 1791]],
    ['-', [0, 1023], [32, 32], INT, [-32, 991]],
    ['*', [0, 3], [-256, 256], INT, [-768, 768]],
    ['/', [0, 1791], [16, 16], INT, [0, 111]],
    ['%', [0, 1791], [64, 64], INT, [0, 63]],
    ['%', [0, 10], [64, 64], INT, [0, 10]],
    ['&', [-5, 5], [0, 255], INT, [0, 255]],
    ['>>', [0, 1023], [2, 2], INT, [0, 255]],
    ['<<', [0, 3], [4, 4], UINT, [0, 48]],
  ] as const)('%s of %j and %j (type %j) is %j', (op, a, b, t, r) => {
    expect(rangeOf(op, a, b, t)).toEqual(r);
  });

  it.each([
    // A result that could leave the type (where WGSL wraps) has no range.
    ['+', [0, 2147483647], [1, 1], INT],
    ['*', [0, 65535], [0, 65536], INT],
    ['-', [0, 5], [1, 1], UINT],
    // Division and remainder are only bounded for a non-negative dividend over a positive divisor.
    ['/', [-1, 10], [2, 2], INT],
    ['%', [0, 10], [0, 4], INT],
    ['/', [0, 10], [-4, -4], INT],
    ['>>', [0, 10], [0, 40], INT],
  ] as const)('%s of %j and %j (type %j) is unknown', (op, a, b, t) => {
    expect(rangeOf(op, a, b, t)).toBeUndefined();
  });

  it('conversions keep a range that fits the new type; unions and the built-ins', () => {
    expect(within([0, 1023], INT)).toEqual([0, 1023]);
    expect(within([-1, 3], UINT)).toBeUndefined();
    expect(within([0, 2147483648], INT)).toBeUndefined();
    expect(typeRange({ k: 'int', name: 'signed char', bits: 8, signed: true })).toEqual([-128, 127]);
    expect(union([0, 3], [-1, 1])).toEqual([-1, 3]);
    expect(union([0, 3], undefined)).toBeUndefined();
    expect(builtinRange('threadIdx', 'x')).toEqual([0, 1023]);
    expect(builtinRange('blockIdx', 'y')).toEqual([0, 65534]);
    expect(builtinRange('gridDim', 'x')).toEqual([1, 2147483647]);
  });
});
