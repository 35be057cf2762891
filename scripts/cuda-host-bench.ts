// The host interpreter's speed: simple statements per second on a CPU check loop of the kind the
// course programs run (sum, compare, store over 2^22 elements), median of 5 runs. Prints figures;
// never fails on time.
//   node scripts/run-ts.mjs scripts/cuda-host-bench.ts
import { compileCuda } from '../src/cuda/index.ts';
import { runHostProgram } from '../src/cuda/host/index.ts';

const N = 1 << 22;
// Per iteration: the test, the body's 3 statements and the increment = 5 simple statements.
const STATEMENTS_PER_ITERATION = 5;
const source = `#include <stdio.h>
#include <stdlib.h>
int main() {
  const int n = ${N};
  int *a = (int *)malloc(n * sizeof(int));
  float *b = (float *)malloc(n * sizeof(float));
  long sum = 0;
  int bad = 0;
  for (int i = 0; i < n; i++) {
    a[i] = i & 1023;
    b[i] = a[i] * 0.5f;
    if (b[i] != a[i] * 0.5f) bad++;
  }
  for (int i = 0; i < n; i++) sum += a[i];
  printf("%ld %d\\n", sum, bad);
  return 0;
}`;
const compiled = compileCuda(source, { fileName: 'bench.cu' });
if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics));
const times: number[] = [];
let out = '';
for (let k = 0; k < 5; k++) {
  const t = performance.now();
  const r = runHostProgram(compiled.program);
  times.push(performance.now() - t);
  out = r.stdout + r.stderr;
}
times.sort((x, y) => x - y);
const median = times[2]!;
// First loop: test + 3 body statements + increment; second loop: test + body + increment.
const statements = N * STATEMENTS_PER_ITERATION + N * 3;
console.log(`program output: ${out.trim()}`);
console.log(`runs (ms): ${times.map((t) => t.toFixed(0)).join(' ')}`);
console.log(`median ${median.toFixed(0)} ms for ${(statements / 1e6).toFixed(1)} M simple statements: ${(statements / median / 1e3).toFixed(1)} M statements/s`);
