import { describe, expect, it } from 'vitest';
import { compileCuda } from '../index.ts';
import { runHostProgram } from './index.ts';

function run(source: string): { exitCode: number; stdout: string; stderr: string } {
  const c = compileCuda(source, { fileName: 'prog.cu' });
  if (!c.ok) throw new Error(JSON.stringify(c.diagnostics.slice(0, 3)));
  return runHostProgram(c.program);
}

// The interpreter's fast paths (typed comparisons, unsigned arithmetic, shifts, inline-checked
// indexing, read-modify-write of memory lvalues) against what the same program prints when built
// with gcc on x86-64 Linux (expected lines taken from that build).
describe('host interpreter fast paths keep C semantics', () => {
  it('evaluates lvalues once, tests once, and wraps unsigned arithmetic as gcc does', () => {
    const r = run(`#include <stdio.h>
unsigned int sq(unsigned int x) { return x * x; }
int main() {
  int a[4] = {1, 2, 3, 4};
  int i = 0;
  a[i++] += 10;
  a[i++]++;
  int n = 3, c = 0;
  while (n--) c++;
  double zero = 0.0;
  double z = zero / zero;
  int t = z ? 1 : 0;
  unsigned int u = 7u;
  unsigned int w = u - 9u;
  unsigned int m = 4000000000u * 3u;
  int neg = -7;
  unsigned int big = 0xffffffffu;
  printf("%d %d %d %d i=%d n=%d c=%d t=%d\\n", a[0], a[1], a[2], a[3], i, n, c, t);
  printf("%u %u %u %u %u %d\\n", w, m, w / 3u, w % 1000u, sq(65537u), neg < u);
  printf("%u %d %u %d\\n", big >> 28, neg >> 1, big << 31, 1 << 31);
  unsigned char uc = 200; short s = -3;
  printf("%u %u\\n", uc + 0u, s + 0u);
  return 0;
}`);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('11 3 3 4 i=2 n=-1 c=3 t=1\n4294967294 3410065408 1431655764 294 131073 0\n15 -4 2147483648 -2147483648\n200 4294967293\n');
  });

  it('an index far past the end is out of bounds of that array, at its line, not a neighbour’s element', () => {
    const r = run(`#include <stdlib.h>
int main() {
  int *a = (int *)malloc(4 * sizeof(int));
  int *b = (int *)malloc(4 * sizeof(int));
  b[0] = 1;
  a[1073741824] = 5;
  return b[0];
}`);
    expect(r.exitCode).toBe(139);
    expect(r.stderr).toMatch(/^prog\.cu:6:\d+: runtime error: write to byte 4294967296\.\.4294967299 of 'malloc\(16\)', which has 16 bytes \(allocated at line 3\): out of bounds/);
  });

  it('a read after free through an index is named', () => {
    const r = run(`#include <stdlib.h>
int main() {
  float *a = (float *)malloc(8 * sizeof(float));
  free(a);
  float x = a[2];
  return (int)x;
}`);
    expect(r.exitCode).toBe(139);
    expect(r.stderr).toMatch(/^prog\.cu:5:\d+: runtime error: read from .* after it was freed/);
  });
});
