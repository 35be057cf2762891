import { describe, expect, it } from 'vitest';
import { evaluateExpression, ExpressionError, parseExpression, type ArrayValue, type Scope, type ScalarValue } from './evaluate.ts';

/** A scope with these scalars (`name: [type, value]`) and arrays. */
function scope(scalars: Record<string, ScalarValue> = {}, arrays: Record<string, ArrayValue> = {}): Scope {
  return { scalar: (n) => scalars[n], array: (n) => arrays[n] };
}

const run = (text: string, s: Scope = scope()) => evaluateExpression(parseExpression(text), s);
const value = (text: string, s?: Scope) => run(text, s).value;

function failure(text: string, s: Scope = scope()): ExpressionError {
  try {
    run(text, s);
  } catch (e) {
    if (e instanceof ExpressionError) return e;
    throw e;
  }
  throw new Error(`${text} evaluated`);
}

describe('WGSL expressions for the debugger', () => {
  it('u32 wraps: 0u - 1u, 4294967295u + 1u, a product past 2^32', () => {
    expect(run('0u - 1u')).toEqual({ type: 'u32', value: 4294967295 });
    expect(value('4294967295u + 1u')).toBe(0);
    expect(value('65536u * 65537u')).toBe(65536);
  });

  it('shifts take u32 amounts modulo 32 and keep the value’s type', () => {
    expect(run('1u << 31u')).toEqual({ type: 'u32', value: 2147483648 });
    expect(value('1u << x', scope({ x: { type: 'u32', value: 32 } }))).toBe(1);
    expect(value('0x80000000u >> 31u')).toBe(1);
    expect(value('-8i >> 1u')).toBe(-4);
    expect(value('x << 4u', scope({ x: { type: 'i32', value: 0x10000000 } }))).toBe(0);
  });

  it('i32 wraps in two’s complement', () => {
    expect(run('-2147483647i - 2i')).toEqual({ type: 'i32', value: 2147483647 });
    expect(value('x * 2i', scope({ x: { type: 'i32', value: 2 ** 30 } }))).toBe(-(2 ** 31));
    expect(value('-x', scope({ x: { type: 'i32', value: -(2 ** 31) } }))).toBe(-(2 ** 31));
  });

  it('division and remainder by zero follow WGSL (x / 0 = x, x % 0 = 0), as the kernel computes them', () => {
    const z = scope({ z: { type: 'u32', value: 0 } });
    expect(value('7u / z', z)).toBe(7);
    expect(value('7u % z', z)).toBe(0);
    expect(value('7u / 2u')).toBe(3);
  });

  it('comparisons give bools; && and || need bools', () => {
    expect(run('3u < 4u')).toEqual({ type: 'bool', value: 1 });
    expect(value('2u >= 4u')).toBe(0);
    expect(value('1u == 1u && 2u != 2u')).toBe(0);
    expect(value('1u == 1u || 2u != 2u')).toBe(1);
    expect(failure('1u && 2u').kind).toBe('type');
  });

  it('a kernel variable typed u32 wraps; abstract literals take its type', () => {
    const s = scope({ i: { type: 'u32', value: 0 } });
    expect(run('i - 1', s)).toEqual({ type: 'u32', value: 4294967295 });
    expect(run('i - 1u', s)).toEqual({ type: 'u32', value: 4294967295 });
  });

  it('a kernel variable typed f32 rounds to f32 after each operation', () => {
    const s = scope({ v: { type: 'f32', value: Math.fround(0.1) } });
    expect(run('v + 0.2', s)).toEqual({ type: 'f32', value: Math.fround(Math.fround(0.1) + Math.fround(0.2)) });
    expect(value('v * 3.0', s)).toBe(Math.fround(Math.fround(0.1) * 3));
    expect(value('v + 16777216.0', scope({ v: { type: 'f32', value: 1 } }))).toBe(16777216);
  });

  it('mixing types is refused as WGSL refuses it, at the operator', () => {
    const s = scope({ i: { type: 'u32', value: 1 }, v: { type: 'f32', value: 1 } });
    const e = failure('i + v', s);
    expect(e.kind).toBe('type');
    expect(e.message).toMatch(/no matching overload|cannot|'u32'.*'f32'|f32/);
    expect(failure('1u + 1i').kind).toBe('type');
  });

  it('indexes workgroup arrays of their element type; outside the array is an error', () => {
    const s = scope({ lid: { type: 'u32', value: 2 } }, { sdata: { type: 'f32', values: [1.5, 2.5, 3.5, 4.5] } });
    expect(run('sdata[lid + 1u]', s)).toEqual({ type: 'f32', value: 4.5 });
    expect(value('sdata[lid] * 2.0', s)).toBe(7);
    const out = failure('sdata[lid + 2u]', s);
    expect([out.kind, out.subject, out.last]).toEqual(['outside', 'sdata[4]', 3]);
  });

  it('names members (threadIdx.x) and conversions and builtins', () => {
    const s = scope({ 'threadIdx.x': { type: 'u32', value: 5 } });
    expect(value('threadIdx.x % 2u', s)).toBe(1);
    expect(run('i32(threadIdx.x) - 6i', s)).toEqual({ type: 'i32', value: -1 });
    expect(value('min(3u, threadIdx.x)', s)).toBe(3);
    expect(value('select(10u, 20u, threadIdx.x > 4u)', s)).toBe(20);
  });

  it('says what it cannot read and where', () => {
    expect(failure('').kind).toBe('empty');
    const e = failure('lid == ');
    expect(e.kind).toBe('syntax');
    const u = failure('s + 1');
    expect([u.kind, u.subject]).toEqual(['unknown-name', 's']);
    expect(failure('nope[0]').kind).toBe('unknown-array');
  });
});
