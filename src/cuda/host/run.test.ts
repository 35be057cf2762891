import { describe, expect, it } from 'vitest';
import { compileCuda, runCudaProgram } from '../index.ts';
import { runHostProgram, STOPPED } from './index.ts';

function compile(source: string, files?: Record<string, string>) {
  const c = compileCuda(source, { fileName: 'prog.cu', ...(files ? { files } : {}) });
  if (!c.ok) throw new Error(JSON.stringify(c.diagnostics.slice(0, 3)));
  return c.program;
}

describe('runCudaProgram: Stop and local headers', () => {
  it('stops an endless host loop when its signal is aborted, at the loop, with what it printed so far', () => {
    // The run is synchronous: the abort comes from inside it (here the clock that time() reads),
    // as it does when a worker's Stop sets the signal between two checks.
    const controller = new AbortController();
    const program = compile(`#include <stdio.h>
#include <time.h>
int main() {
  printf("started\\n");
  long t = time(NULL);
  unsigned int x = 1;
  while (1) {
    x = x * 1664525u + 1013904223u;
  }
  printf("never %ld %u\\n", t, x);
  return 0;
}`);
    const clock = { now: () => (controller.abort(), 1764115200), cpuMicros: () => 0 };
    const r = runHostProgram(program, { clock, signal: controller.signal, maxSteps: 1e12 });
    expect(r.exitCode).toBe(STOPPED);
    expect(r.stdout).toBe('started\n');
    expect(r.stderr).toMatch(/^prog\.cu:8:\d+: stopped: the run was stopped here, after [\d,]+ steps\n$/);
  });

  it('a signal aborted before the run starts runs nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await runCudaProgram(compile('#include <stdio.h>\nint main() { printf("hi\\n"); return 0; }'), { executor: 'sim' }, { signal: controller.signal });
    expect(r.exitCode).toBe(STOPPED);
    expect(r.stdout).toBe('');
  });

  it('a program that includes a local header runs with the header it was compiled with', async () => {
    const files = { 'util.cuh': '#pragma once\n#define SCALE 3\nstatic int triple(int x) { return SCALE * x; }\n' };
    const program = compile('#include <stdio.h>\n#include "util.cuh"\nint main() { printf("%d\\n", triple(14)); return 0; }', files);
    const r = await runCudaProgram(program, { executor: 'sim' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('42\n');
  });
});
