// The host interpreter's speed: simple statements per second on the loops course programs run on
// the CPU (fill an array with index arithmetic, a check loop that compares, a sum with +=, a 2-D
// matrix loop, a small function called per element), median of 5 runs. Prints figures; never
// fails on time.
//   npm run bench:cuda-host            (or: node scripts/run-ts.mjs scripts/cuda-host-bench.ts)
import { compileCuda } from '../src/cuda/index.ts';
import { runHostProgram } from '../src/cuda/host/index.ts';

const N = 1 << 20;
const M = 1024; // rows × cols = N
// A "simple statement" is one expression statement, one loop test or one loop increment: what a
// learner counts when reading the loop. The count per pass of each loop is written beside it.
const source = `#include <stdio.h>
#include <stdlib.h>
static inline int clampi(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }
int main() {
  const int n = ${N};
  int *a = (int *)malloc(n * sizeof(int));
  float *b = (float *)malloc(n * sizeof(float));
  unsigned int *h = (unsigned int *)calloc(256, sizeof(unsigned int));
  long sum = 0;
  int bad = 0;
  for (int i = 0; i < n; i++) {          // 2 (test, increment)
    a[i] = (i * 7 + 3) & 1023;           // 1
    b[i] = a[i] * 0.5f;                  // 1
  }
  for (int i = 0; i < n; i++) {          // 2
    if (b[i] != a[i] * 0.5f) bad++;      // 1
  }
  for (int i = 0; i < n; i++) sum += a[i];          // 3
  for (int r = 0; r < ${M}; r++)                     // (outer loop: not counted)
    for (int c = 0; c < ${M}; c++)                   // 2
      h[(a[r * ${M} + c] + c) & 255] += 1u;          // 1
  for (int i = 0; i < n; i++) bad += clampi(a[i], 0, 1022) != a[i];  // 3 (+1 for the call's return)
  printf("%ld %d %u\\n", sum, bad, h[7]);
  free(a); free(b); free(h);
  return 0;
}`;
const statements = N * (4 + 3 + 3 + 3 + 4);
const compiled = compileCuda(source, { fileName: 'bench.cu' });
if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics));
const runs = Number(process.env.RUNS ?? 5);
const times: number[] = [];
const cpu: number[] = [];
let out = '';
for (let k = 0; k < runs; k++) {
  const t = performance.now();
  const c = process.cpuUsage();
  const r = runHostProgram(compiled.program);
  const used = process.cpuUsage(c);
  times.push(performance.now() - t);
  cpu.push((used.user + used.system) / 1e3);
  out = r.stdout + r.stderr;
}
times.sort((x, y) => x - y);
cpu.sort((x, y) => x - y);
const median = times[Math.floor(times.length / 2)]!;
const medianCpu = cpu[Math.floor(cpu.length / 2)]!;
console.log(`program output: ${out.trim()}`);
console.log(`runs (ms): ${times.map((t) => t.toFixed(0)).join(' ')}`);
console.log(`median ${median.toFixed(0)} ms for ${(statements / 1e6).toFixed(1)} M simple statements: ${(statements / median / 1e3).toFixed(1)} M statements/s (best ${(statements / times[0]! / 1e3).toFixed(1)} M/s)`);
// On a shared machine the wall clock includes time other processes held the cores; CPU time does not.
console.log(`median CPU time ${medianCpu.toFixed(0)} ms: ${(statements / medianCpu / 1e3).toFixed(1)} M statements per CPU second`);
