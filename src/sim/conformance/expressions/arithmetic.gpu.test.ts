/** WGSL §8.7 arithmetic, bit and comparison expressions, simulator vs Dawn, on edge-case operands. */
import { describe, expect, it } from 'vitest';
import { AMOUNTS, conform, f32Edges, I32_EDGES, pairs, U32_EDGES, type Suite } from '../harness.ts';

const I = I32_EDGES.filter((_, i) => i % 2 === 0 || i > 12);
const U = U32_EDGES;
const F = f32Edges({ inf: true });
const int2 = (t: 'i32' | 'u32', op: string, xs: number[], ys: number[]): Suite => ({
  name: `${t} ${op}`, expr: `a0 ${op} a1`, args: [t, t], result: t, cases: pairs(xs, ys).map(([x, y]) => [[x], [y]]),
});
const cmp = (t: 'i32' | 'u32' | 'f32', op: string, xs: number[]): Suite => ({
  name: `${t} ${op}`, expr: `a0 ${op} a1`, args: [t, t], result: 'bool', cases: pairs(xs, xs).map(([x, y]) => [[x], [y]]),
});

const suites: Suite[] = [
  ...['+', '-', '*', '/', '%', '&', '|', '^'].flatMap((op) => [int2('i32', op, I, I), int2('u32', op, U, U)]),
  { name: 'i32 <<', expr: 'a0 << a1', args: ['i32', 'u32'], result: 'i32', cases: pairs(I, AMOUNTS).map(([x, y]) => [[x], [y]]) },
  { name: 'i32 >>', expr: 'a0 >> a1', args: ['i32', 'u32'], result: 'i32', cases: pairs(I, AMOUNTS).map(([x, y]) => [[x], [y]]) },
  { name: 'u32 <<', expr: 'a0 << a1', args: ['u32', 'u32'], result: 'u32', cases: pairs(U, AMOUNTS).map(([x, y]) => [[x], [y]]) },
  { name: 'u32 >>', expr: 'a0 >> a1', args: ['u32', 'u32'], result: 'u32', cases: pairs(U, AMOUNTS).map(([x, y]) => [[x], [y]]) },
  { name: 'i32 unary -', expr: '-a0', args: ['i32'], result: 'i32', cases: I.map((x) => [[x]]) },
  { name: 'i32 ~', expr: '~a0', args: ['i32'], result: 'i32', cases: I.map((x) => [[x]]) },
  ...['+', '-', '*'].map((op): Suite => ({
    name: `f32 ${op}`, expr: `a0 ${op} a1`, args: ['f32', 'f32'], result: 'f32', cases: pairs(F, F).map(([x, y]) => [[x], [y]]),
  })),
  {
    // Division: 2.5 ulp for divisors of magnitude 2^-126…2^126.
    name: 'f32 /', expr: 'a0 / a1', args: ['f32', 'f32'], result: 'f32', tolerance: { ulp: 2.5 },
    cases: pairs(f32Edges(), f32Edges().filter((y) => Math.abs(y) >= 2 ** -126 && Math.abs(y) <= 2 ** 126)).map(([x, y]) => [[x], [y]]),
  },
  ...['<', '<=', '==', '!='].flatMap((op) => [cmp('i32', op, I), cmp('u32', op, U), cmp('f32', op, F)]),
  { name: 'f32 → i32', expr: 'i32(a0)', args: ['f32'], result: 'i32', cases: F.filter(Number.isFinite).map((x) => [[x]]) },
  { name: 'f32 → u32', expr: 'u32(a0)', args: ['f32'], result: 'u32', cases: F.filter(Number.isFinite).map((x) => [[x]]) },
  { name: 'i32 → f32', expr: 'f32(a0)', args: ['i32'], result: 'f32', cases: I.map((x) => [[x]]) },
  { name: 'u32 → f32', expr: 'f32(a0)', args: ['u32'], result: 'f32', cases: U.map((x) => [[x]]) },
  { name: 'select', expr: 'select(a0, a1, a0 < a1)', args: ['i32', 'i32'], result: 'i32', cases: pairs(I, [0, -1, 5]).map(([x, y]) => [[x], [y]]) },
];

describe('expressions: simulator vs GPU', () => {
  it.each(suites.map((s) => [s.name, s] as [string, Suite]))('%s', async (_n, s) => {
    expect(await conform(s)).toEqual([]);
  });
});
