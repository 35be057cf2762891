/**
 * WGSL matrices (§6.2.7, §8.7 matrix arithmetic, §17.5 transpose/determinant), simulator vs Dawn.
 * Matrices are built in the kernel from vec4 arguments; each suite stores one column (or the
 * scalar result). Sums of products may be fused on the GPU, so f32 results allow a few ulps.
 */
import { describe, expect, it } from 'vitest';
import type { KernelRun } from '../../../../kernel/types.ts';
import { simulate } from '../../../simulate.ts';
import { conform, nodeGpu, randomVecs, type Suite, type Tolerance } from '../../harness.ts';

const DECLS = `
fn m2(a: vec4f) -> mat2x2f { return mat2x2f(a.xy, a.zw); }
fn m3(a: vec4f, b: vec4f, c: vec4f) -> mat3x3<f32> { return mat3x3<f32>(a.xyz, b.xyz, c.xyz); }
fn m4(a: vec4f, b: vec4f, c: vec4f, d: vec4f) -> mat4x4f { return mat4x4f(a, b, c, d); }
fn m23(a: vec4f, b: vec4f) -> mat2x3f { return mat2x3f(a.xyz, b.xyz); }
fn m32(a: vec4f, b: vec4f) -> mat3x2f { return mat3x2f(a.x, a.y, a.z, a.w, b.x, b.y); }
`;
const tol: Tolerance = { ulp: 8, abs: 1e-4 };
const args4 = (k: number, seed: number) =>
  Array.from({ length: 24 }, (_, i) => Array.from({ length: k }, (_, j) => randomVecs(1, 4, -4, 4, seed * 1000 + i * 10 + j)[0]!));

const suite = (name: string, expr: string, k: number, result: Suite['result'], seed: number): Suite => ({
  name, expr, args: Array.from({ length: k }, () => 'vec4f' as const), result, cases: args4(k, seed), tolerance: tol, decls: DECLS,
});

const suites: Suite[] = [
  suite('mat2x2 column', 'm2(a0)[1]', 1, 'vec2f', 1),
  suite('mat2x2 + mat2x2', '(m2(a0) + m2(a1))[0]', 2, 'vec2f', 2),
  suite('mat3x3 - mat3x3', '(m3(a0, a1, a2) - m3(a2, a0, a1))[2]', 3, 'vec3f', 3),
  suite('scalar * mat4x4', '(a1.x * m4(a0, a1, a2, a3))[3]', 4, 'vec4f', 4),
  suite('mat4x4 * scalar', '(m4(a0, a1, a2, a3) * a0.w)[1]', 4, 'vec4f', 5),
  suite('mat2x2 * vec2', 'm2(a0) * a1.xy', 2, 'vec2f', 6),
  suite('mat3x3 * vec3', 'm3(a0, a1, a2) * a3.xyz', 4, 'vec3f', 7),
  suite('mat4x4 * vec4', 'm4(a0, a1, a2, a3) * a1', 4, 'vec4f', 8),
  suite('vec4 * mat4x4', 'a2 * m4(a0, a1, a2, a3)', 4, 'vec4f', 9),
  suite('mat2x3 * vec2', 'm23(a0, a1) * a2.xy', 3, 'vec3f', 10),
  suite('vec3 * mat2x3', 'a2.xyz * m23(a0, a1)', 3, 'vec2f', 11),
  suite('mat3x3 * mat3x3', '(m3(a0, a1, a2) * m3(a1, a2, a0))[1]', 3, 'vec3f', 12),
  suite('mat2x3 * mat3x2', '(m23(a0, a1) * m32(a2, a3))[2]', 4, 'vec3f', 13),
  suite('mat4x4 * mat4x4', '(m4(a0, a1, a2, a3) * m4(a3, a2, a1, a0))[2]', 4, 'vec4f', 14),
  suite('transpose mat2x3', 'transpose(m23(a0, a1))[2]', 2, 'vec2f', 15),
  suite('transpose mat4x4', 'transpose(m4(a0, a1, a2, a3))[1]', 4, 'vec4f', 16),
  suite('mat3x3 * -1', '(m3(a0, a1, a2) * -1.0)[0]', 3, 'vec3f', 17),
  suite('m[i][j] dynamic', 'm4(a0, a1, a2, a3)[u32(abs(a0.x)) % 4u][u32(abs(a1.y)) % 4u]', 4, 'f32', 18),
  suite('determinant mat2x2', 'determinant(m2(a0))', 1, 'f32', 19),
  suite('determinant mat3x3', 'determinant(m3(a0, a1, a2))', 3, 'f32', 20),
  { ...suite('determinant mat4x4', 'determinant(m4(a0, a1, a2, a3))', 4, 'f32', 21), tolerance: { ulp: 64, abs: 1e-3 } },
];

describe('matrices: simulator vs GPU', () => {
  it.each(suites.map((s) => [s.name, s] as [string, Suite]))('%s', async (_n, s) => {
    expect(await conform(s)).toEqual([]);
  });

  it('matrices in storage and workgroup memory (column stride, vec3 padding) and var assignment', async () => {
    const code = `
struct S { a: f32, m: mat3x3f, b: mat2x2<f32>, c: f32 }
@group(0) @binding(0) var<storage, read> src: array<S>;
@group(0) @binding(1) var<storage, read_write> dst: array<S>;
var<workgroup> w: array<mat4x3f, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  var s = src[i];
  s.m[1] = s.m[1] * 2.0;
  s.m[2][0] = s.a;
  s.b = transpose(s.b);
  w[i] = mat4x3f(s.m[0], s.m[1], s.m[2], vec3f(s.c));
  workgroupBarrier();
  let o = w[(i + 1u) % 4u];
  s.m = mat3x3f(o[3], o[1], o[0]);
  dst[i] = s;
}`;
    const words = 4 * 24;
    const input = Float32Array.from({ length: words }, (_, k) => Math.fround((k % 13) - 6 + k / 7));
    const run: KernelRun = { code, entryPoint: 'main', workgroups: [1], bindings: { 0: { 0: input, 1: new Float32Array(words).fill(-1) } } };
    const sim = simulate(run, { trace: 'summary' });
    expect(sim.diagnostics).toEqual([]);
    const out = await (await nodeGpu()).run(run);
    expect(Array.from(sim.buffers[0]![1]!)).toEqual(Array.from(out[0]![1]!));
  });
});
