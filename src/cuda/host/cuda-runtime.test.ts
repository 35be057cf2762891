import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileCuda, type CudaProgram } from '../index.ts';
import { CUDA_ERRORS } from './cuda-runtime.ts';
import { runHostProgram } from './index.ts';

// The CUDA-runtime conformance suite: oracle/cuda-runtime.cu (device count and properties, launch
// configurations over the limits, dynamic shared memory, cudaMalloc/Memset/Memcpy of every kind
// and their misuse, cudaFree, managed memory, MemcpyTo/FromSymbol, events, GetLastError and
// PeekAtLastError, a kernel's out-of-bounds write) prints one `K` line per case; the expected lines
// are what it printed built with nvcc -arch=sm_90 and run on the H100
// (docs/runs/2026-11-26-h100-seed-programs/cuda-runtime.txt). oracle/cuda-errors.cu prints cudart's
// own table of error names and strings (oracle/cuda-errors.out, from nvcc's cudart).
const ORACLE = new URL('./oracle/', import.meta.url);
const read = (url: URL): string => readFileSync(url, 'utf8');

function compiled(name: string): CudaProgram {
  const files = { 'oracle.h': read(new URL('oracle.h', ORACLE)), 'cuda-templates.cuh': read(new URL('cuda-templates.cuh', ORACLE)) };
  const c = compileCuda(read(new URL(name, ORACLE)), { fileName: name, files });
  if (!c.ok) throw new Error(`${name} does not compile: ${JSON.stringify(c.diagnostics.slice(0, 3))}`);
  return c.program;
}
const run = (name: string): ReturnType<typeof runHostProgram> => runHostProgram(compiled(name));

/**
 * Cases whose line differs on purpose or by a known limit, with why. The test fails when one of
 * them starts to match, so the list cannot go stale.
 */
const KNOWN: Readonly<Record<string, string>> = {
  'prop.name': 'the simulator names itself, not the H100',
  // writeAt<<<1, 1>>>(d_out, 1LL << 40): kernels are translated to 32-bit WGSL integers, so the
  // index 2^40 wraps to 0 and the write lands in bounds; on the H100 it is an illegal address.
  'illegal address: cudaDeviceSynchronize': 'a 64-bit kernel index is narrowed to 32 bits',
  'illegal address: cudaGetLastError': 'a 64-bit kernel index is narrowed to 32 bits',
  'illegal address: cudaMalloc afterwards': 'a 64-bit kernel index is narrowed to 32 bits',
  'illegal address: cudaMemcpy afterwards': 'a 64-bit kernel index is narrowed to 32 bits',
};

const cases = (text: string): Map<string, string> =>
  new Map(text.split('\n').filter((l) => l.startsWith('K\t')).map((l) => { const [, key, value] = l.split('\t'); return [key!, value ?? '']; }));

describe('the CUDA runtime answers as cudart 13 on the H100 does', () => {
  const reference = cases(read(new URL('../../../docs/runs/2026-11-26-h100-seed-programs/cuda-runtime.txt', import.meta.url)));
  const got = run('cuda-runtime.cu');

  it('runs the whole suite to its end', () => {
    expect(got.stderr).toBe('');
    expect(got.exitCode).toBe(0);
    expect(reference.size).toBe(96);
    expect([...cases(got.stdout).keys()]).toEqual([...reference.keys()]);
  });

  it.each([...reference.keys()].filter((k) => !(k in KNOWN)).map((k) => [k]))('%s', (key) => {
    expect(cases(got.stdout).get(key)).toBe(reference.get(key));
  });

  it.each(Object.entries(KNOWN))('known difference: %s (%s)', (key) => {
    expect(cases(got.stdout).get(key)).not.toBe(reference.get(key));
  });

  it('every error the runtime reports has cudart’s name and string; other codes are unrecognized', () => {
    const r = run('cuda-errors.cu');
    expect(r.stderr).toBe('');
    const known = new Set(Object.keys(CUDA_ERRORS).map(Number));
    expect(known.size).toBeGreaterThanOrEqual(10);
    const oracle = read(new URL('cuda-errors.out', ORACLE)).split(/(?<=\n)/);
    const expected = oracle.filter((l) => !l.startsWith('E\t') || known.has(Number(l.split('\t')[1]))).join('');
    expect(r.stdout).toBe(expected);
  });
});

// oracle/cuda-templates.cu launches template kernels as CUDA C++ writes them (`fill<float, 8>`,
// `scaleBy<BLOCK>` from a local header, `scaleBy<-1>`, `halve<float>` and `halve<int>`,
// `pick<true>`, a device template called as `times<N / 2>`, an explicit instantiation) and prints
// each result as a `K` line; the expected lines are what it printed built with nvcc -arch=sm_90
// and run on the H100 (docs/runs/2026-11-27-h100-cuda-twins/cuda-templates.txt).
describe('template kernels launch as on the H100', () => {
  const reference = cases(read(new URL('../../../docs/runs/2026-11-27-h100-cuda-twins/cuda-templates.txt', import.meta.url)));
  const program = compiled('cuda-templates.cu');
  const got = runHostProgram(program);

  it('translates one kernel per instance, runs each launch on its own, and ends cleanly', () => {
    expect(program.kernels.map((k) => k.name).sort()).toEqual(['addOne<int>', 'fill<float, 8>', 'fill<int, 4>', 'halve<float>', 'halve<int>', 'pick<false>', 'pick<true>', 'scaleBy<-1>', 'scaleBy<4>', 'timesHalf<6>']);
    expect(got.stderr).toBe('');
    expect(got.exitCode).toBe(0);
    expect(got.launches.map((l) => l.kernel)).toEqual(['fill', 'fill', 'scaleBy', 'scaleBy', 'halve', 'halve', 'pick', 'pick', 'timesHalf', 'addOne']);
    expect(reference.size).toBe(9);
    expect([...cases(got.stdout).keys()]).toEqual([...reference.keys()]);
  });

  it.each([...reference.keys()].map((k) => [k]))('%s', (key) => {
    expect(cases(got.stdout).get(key)).toBe(reference.get(key));
  });
});
