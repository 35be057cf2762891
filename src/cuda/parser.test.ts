import { describe, expect, it } from 'vitest';
import type { Expr, FunctionDecl, Stmt } from './ast.ts';
import { parseCuda } from './parser.ts';

const fn = (src: string, name: string): FunctionDecl => {
  const r = parseCuda(src);
  expect(r.diagnostics).toEqual([]);
  return r.unit.items.find((i): i is FunctionDecl => i.kind === 'function' && i.name === name)!;
};

describe('CUDA parser', () => {
  it('parses a kernel with qualifiers, pointers and a range on every node', () => {
    const k = fn('__global__ void k(const float * __restrict__ a, int *b, unsigned n) {\n  if (threadIdx.x < n) b[threadIdx.x] = (int)a[threadIdx.x];\n}', 'k');
    expect(k.global).toBe(true);
    expect(k.params.map((p) => [p.name, p.type.base, p.type.isConst, p.type.pointers.length, p.type.restrict])).toEqual([
      ['a', 'float', true, 1, true],
      ['b', 'int', false, 1, false],
      ['n', 'unsigned int', false, 0, false],
    ]);
    const s = k.body!.body[0] as Extract<Stmt, { kind: 'if' }>;
    expect(s.range).toMatchObject({ line: 2, col: 3, endLine: 2, endCol: 61 });
    expect(s.test.range).toMatchObject({ line: 2, col: 7, endCol: 22 });
  });

  it('parses host code: launches, dim3, new[], vectors, cout, casts', () => {
    const m = fn(
      [
        '#include <vector>',
        '#include <iostream>',
        'template <int B> __global__ void r(float *x) {}',
        'int main() {',
        '  dim3 block(16, 16), grid((n + 15) / 16, 1);',
        '  std::vector<int> v(10);',
        '  float *h = new float[n];',
        '  cudaMalloc((void **)&d, n * sizeof(float));',
        '  r<256><<<grid, block, 256 * sizeof(float)>>>(d);',
        '  k << <1, 2 >> > (d);',
        '  std::cout << "x" << v[0] << std::endl;',
        '  delete[] h;',
        '  return 0;',
        '}',
      ].join('\n'),
      'main',
    );
    const launch = (m.body!.body[4] as Extract<Stmt, { kind: 'expr' }>).expr as Extract<Expr, { kind: 'launch' }>;
    expect(launch.kind).toBe('launch');
    expect(launch.config).toHaveLength(3);
    expect(launch.templateArgs).toHaveLength(1);
    expect(((m.body!.body[5] as Extract<Stmt, { kind: 'expr' }>).expr).kind).toBe('launch');
    const d = m.body!.body[0] as Extract<Stmt, { kind: 'decl' }>;
    expect(d.vars.map((v) => [v.name, v.ctorArgs?.length])).toEqual([['block', 2], ['grid', 2]]);
  });

  it('reports a missing semicolon at clang\'s position and keeps going', () => {
    const r = parseCuda('__global__ void k(int *a) {\n  int x = 1\n  a[0] = x;\n  a[1] = ;\n}\n');
    expect(r.diagnostics.map((d) => [d.line, d.column, d.message])).toEqual([
      [2, 12, "expected ';' after the declaration"],
      [4, 10, "expected expression, found ';'"],
    ]);
  });

  it('names a // comment that hides code when a post lost its line breaks', () => {
    const r = parseCuda('__global__ void k(int *a) { // set id int i = threadIdx.x; a[i] = 0; }');
    expect(r.diagnostics[0]!.message).toMatch(/expected '}' at end of input.*'\/\/' comment at line 1 runs to the end of that line/);
  });

  it('parses templates with type and value parameters, structs and typedefs', () => {
    const r = parseCuda('struct P { float x, y; };\ntypedef unsigned int uint;\ntemplate <typename T, int N> __device__ T sum(T *a) { T s = 0; for (int i = 0; i < N; ++i) s += a[i]; return s; }\n');
    expect(r.diagnostics).toEqual([]);
    expect(r.unit.items.map((i) => i.kind)).toEqual(['struct', 'typedef', 'function']);
  });
});
