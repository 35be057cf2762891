import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileCuda } from '../index.ts';
import { runHostProgram } from './index.ts';

// oracle/programs.cpp, a whole program (pointer arithmetic, std::vector, std::cout chains), run by
// the host interpreter against what the same text printed built with g++ on x86-64
// (oracle/programs.out, from scripts/cuda-host-oracle.sh): one case per line, named by the line.
const source = readFileSync(new URL('./oracle/programs.cpp', import.meta.url), 'utf8');
const expected = readFileSync(new URL('./oracle/programs.out', import.meta.url), 'utf8').split('\n').slice(0, -1);

describe('a whole program prints what g++ built it to print', () => {
  const compiled = compileCuda(source, { fileName: 'programs.cpp' });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics.slice(0, 3)));
  const run = runHostProgram(compiled.program);
  const got = run.stdout.split('\n');

  it('runs to the end', () => {
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(expected.length).toBeGreaterThan(50);
    expect(got.length - 1).toBe(expected.length);
  });

  it.each(expected.map((line, i) => [line.slice(0, line.indexOf(':')), i, line] as const))('%s', (_name, i, line) => {
    expect(got[i]).toBe(line);
  });
});
