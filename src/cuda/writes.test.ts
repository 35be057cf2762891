/**
 * The one notion of "names a body writes" (writes.ts), on the cases where the two it replaced were
 * wrong: globalSync's `assignedNames` (only `x = …`, `x++`, `&x`) missed a struct's member, an
 * array's element and a reference the callee writes; lower.ts's `writtenNames` counted every name
 * passed to a function of the program, and a pointer's pointee as the pointer. Then the same
 * cases translated and run on the simulator: CUDA C++ where the narrow notion made the translator
 * refuse valid code or emit WGSL it rejected.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../sim/index.ts';
import type { FunctionDecl } from './ast.ts';
import { compileCuda, prepareLaunch } from './index.ts';
import { parseCuda } from './parser.ts';
import { writtenNames } from './writes.ts';

/** Each function of `source` and what its body writes. */
function writes(source: string): Record<string, string[]> {
  const fns = parseCuda(source).unit.items.filter((i): i is FunctionDecl => i.kind === 'function' && !!i.body);
  const callees = (name: string) => fns.filter((f) => f.name === name);
  return Object.fromEntries(fns.map((f) => [f.name, [...writtenNames(f, callees)].sort()]));
}

describe('names a body writes', () => {
  it('a reference parameter the callee writes writes the argument; one it only reads does not', () => {
    const w = writes(`
__device__ void bump(int &k) { k += 1; }
__device__ int peek(const int &k) { return k + 1; }
__device__ int f(int a, int b) { bump(a); return peek(b) + a; }`);
    expect(w['bump']).toEqual(['k']);
    expect(w['peek']).toEqual([]);
    expect(w['f']).toEqual(['a']);
  });

  it('a pointer the callee writes through writes the array or variable it points into; a pointer it only reads through does not', () => {
    const w = writes(`
__device__ void fill(int *p, int n) { for (int i = 0; i < n; i++) p[i] = i; }
__device__ int sum(const int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
__device__ void set(int *p) { *p = 3; }
__device__ int g() { int v[4]; int w[4] = {1, 2, 3, 4}; int x = 0, y = 1; fill(v, 4); set(&x); return sum(w, 4) + sum(&y, 1) + v[0] + x; }`);
    expect(w['fill']).toEqual(['i']);
    expect(w['set']).toEqual([]);
    expect(w['g']).toEqual(['v', 'x']);
  });

  it('follows a parameter passed on to another function, and a pointer copied into another counts as written through', () => {
    const w = writes(`
__device__ void set(int *p) { *p = 3; }
__device__ void outer(int *q) { set(q + 1); }
__device__ void alias(int *q) { int *r = q; r[0] = 1; }
__device__ int reader(const int *q) { return q[0]; }
__device__ void h() { int a[4] = {}; int b[4] = {}; int c[4] = {}; outer(a); alias(b); reader(c); }`);
    expect(w['outer']).toEqual([]);
    expect(w['h']).toEqual(['a', 'b']);
  });

  it('a member or an element writes its struct or array; an element through a pointer writes the pointee, not the pointer', () => {
    const w = writes(`
__device__ float k(float4 v, int *p, int n) { int a[2]; v.x = 1.0f; a[1] = n; p[0] = n; *(p + 1) = n; return v.x + a[1]; }
__device__ void m(int *p) { p++; p[0] = 0; }`);
    expect(w['k']).toEqual(['a', 'v']);
    expect(w['m']).toEqual(['p']);
  });

  it('the address taken anywhere but as an argument, a reference bound to a name, and an atomic on it write it', () => {
    const w = writes(`
__device__ int n(int x, int y, int z, int *out) { int *p = &x; int &r = y; r = 2; atomicAdd(&z, 1); return *p + out[0]; }`);
    expect(w['n']).toEqual(['r', 'x', 'y', 'z']);
  });

  it('a function that calls itself counts its parameters as written, as a fixed point would not promise', () => {
    const w = writes(`
__device__ int rec(int *p, int n) { return n == 0 ? p[0] : rec(p, n - 1); }
__device__ int top() { int a[2] = {5, 6}; return rec(a, 1); }`);
    expect(w['top']).toEqual(['a']);
  });
});

/** Runs `kernel` over one block of `threads` and returns `out`. */
function run(source: string, kernel: string, threads: number, args: Record<string, Int32Array | Float32Array>): number[] {
  const r = compileCuda(source, { fileName: 'k.cu' });
  if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`).join('\n'));
  const launch = prepareLaunch(r.program, kernel, { grid: { x: 1, y: 1, z: 1 }, block: { x: threads, y: 1, z: 1 } }, args);
  const out = launch.readBack(simulate(launch.run, { trace: 'summary' }).buffers)['out'] as Int32Array | Float32Array;
  return Array.from(out);
}

describe('what the narrow notion broke, translated and run', () => {
  it('a by-value parameter passed to a reference parameter that the callee writes: a copy the callee changes, also for a constant argument', () => {
    const source = `
__device__ void bump(int &k) { k += 1; }
__device__ int twice(int k) { bump(k); return 2 * k; }
__global__ void kern(int *out) { out[threadIdx.x] = twice(5) + twice((int)threadIdx.x); }`;
    expect(run(source, 'kern', 8, { out: new Int32Array(8) })).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((t) => 12 + 2 * (t + 1)));
  });

  it('a struct parameter whose member the body assigns is the callee’s copy', () => {
    const source = `
__device__ float first(float4 v) { v.x = 1.0f; return v.x + v.y; }
__global__ void kern(const float4 *in, float *out) { out[threadIdx.x] = first(in[threadIdx.x]) + in[threadIdx.x].x; }`;
    const input = Float32Array.from({ length: 16 }, (_, i) => i);
    expect(run(source, 'kern', 4, { in: input, out: new Float32Array(4) })).toEqual([0, 1, 2, 3].map((t) => 1 + (4 * t + 1) + 4 * t));
  });
});
