/** WGSL §17.5 geometric builtins on vectors, simulator vs Dawn (the spec inherits their accuracy). */
import { describe, expect, it } from 'vitest';
import { conform, randomVecs, type Suite, type Tolerance } from '../../harness.ts';

const loose: Tolerance = { ulp: 16, abs: 1e-5 };
const vecs = (n: number, k: number, seed: number) => {
  const a = randomVecs(24, n, -10, 10, seed);
  const b = randomVecs(24, n, -10, 10, seed + 1);
  const c = randomVecs(24, n, -10, 10, seed + 2);
  return a.map((x, i) => [x, b[i]!, c[i]!].slice(0, k));
};

const suites: Suite[] = [2, 3, 4].flatMap((n): Suite[] => {
  const t = `vec${n}f` as 'vec2f' | 'vec3f' | 'vec4f';
  return [
    { name: `dot ${t}`, expr: 'dot(a0, a1)', args: [t, t], result: 'f32', cases: vecs(n, 2, n), tolerance: { ulp: 16, abs: 1e-4 } },
    { name: `length ${t}`, expr: 'length(a0)', args: [t], result: 'f32', cases: vecs(n, 1, n + 10), tolerance: loose },
    { name: `distance ${t}`, expr: 'distance(a0, a1)', args: [t, t], result: 'f32', cases: vecs(n, 2, n + 20), tolerance: loose },
    { name: `normalize ${t}`, expr: 'normalize(a0)', args: [t], result: t, cases: vecs(n, 1, n + 30), tolerance: loose },
    { name: `reflect ${t}`, expr: 'reflect(a0, a1)', args: [t, t], result: t, cases: vecs(n, 2, n + 40), tolerance: { ulp: 64, abs: 1e-3 } },
    {
      name: `refract ${t}`, expr: 'refract(a0, normalize(a1), a2)', args: [t, t, 'f32'], result: t,
      cases: vecs(n, 2, n + 50).map(([a, b], i) => [a!.map((x) => Math.fround(x / 10)), b!, [Math.fround(0.3 + 0.1 * (i % 12))]]),
      tolerance: { ulp: 256, abs: 1e-4 },
    },
    { name: `faceForward ${t}`, expr: 'faceForward(a0, a1, a2)', args: [t, t, t], result: t, cases: vecs(n, 3, n + 60) },
    { name: `abs ${t}`, expr: 'abs(a0)', args: [t], result: t, cases: vecs(n, 1, n + 70) },
    { name: `min ${t}`, expr: 'min(a0, a1)', args: [t, t], result: t, cases: vecs(n, 2, n + 80) },
  ];
});
suites.push(
  { name: 'cross', expr: 'cross(a0, a1)', args: ['vec3f', 'vec3f'], result: 'vec3f', cases: vecs(3, 2, 99), tolerance: { ulp: 16, abs: 1e-4 } },
  { name: 'all', expr: 'all(a0 > vec3f(0.0))', args: ['vec3f'], result: 'bool', cases: vecs(3, 1, 7) },
  { name: 'any', expr: 'any(a0 > vec3f(5.0))', args: ['vec3f'], result: 'bool', cases: vecs(3, 1, 8) },
  { name: 'dot vec4i', expr: 'dot(a0, a1)', args: ['vec4i', 'vec4i'], result: 'i32', cases: [[[1, -2, 3, 2147483647], [5, 6, -7, 2]], [[-2147483648, 0, 1, 1], [-1, 9, 9, 9]]] },
);

describe('vector builtins: simulator vs GPU', () => {
  it.each(suites.map((s) => [s.name, s] as [string, Suite]))('%s', async (_n, s) => {
    expect(await conform(s)).toEqual([]);
  });
});
