import { describe, expect, it } from 'vitest';
import { runHostProgram, type CudaRunResult } from './index.ts';
import { FIXED_CLOCK, SEED_FILES, SEED_PROGRAMS, comparable, compileSeed, maskTiming, reference, seedSource } from './oracle/seedRuns.ts';

// The posts' complete programs (src/cuda/host/seeds/) against what the same source, built with
// `nvcc -arch=sm_90`, printed on the H100 (docs/runs/2026-11-26-h100-seed-programs/), except
// timing figures, output that depends on time(NULL), and the device's name.
const run = (name: string, args: string[] = []): CudaRunResult => runHostProgram(compileSeed(name), { args, files: SEED_FILES, clock: FIXED_CLOCK });
const programs = SEED_PROGRAMS;

describe('the posts’ programs print what they print on the H100', () => {
  it('covers every program stored', () => {
    expect(programs.length).toBe(14);
  });

  // Too slow for every test run (seconds to minutes: millions of threads, a 2047-long loop in each
  // of half a million, or 003-matrix-add-cpu's 2^21 elements through std::vector and std::cout on
  // the host): WARPSCOPE_SLOW_SEEDS=1 runs them too.
  const slow = !process.env.WARPSCOPE_SLOW_SEEDS;
  it.each([
    ['000-scan'], ['003-histogram'], ['003-histogram-shared'], ['003-row-sum'], ['004-add-managed'], ['004-reduce-unoptimized'],
    ...(slow ? [] : [['003-scan-2d'], ['003-matrix-add'], ['003-matrix-multiply-tiled'], ['003-matrix-add-cpu']]),
  ])('%s', (name) => {
    const ref = reference(name);
    const got = run(name);
    expect(got.stderr).toBe('');
    expect(got.exitCode).toBe(ref.exit);
    const { got: have, want } = comparable(got.stdout, ref);
    expect(have).toBe(want);
  });

  it.skipIf(slow).each([[[] as string[], '000-reduce'], [['1'], '000-reduce-argv-1']])('000-reduce %j (the device line names our device)', (args, label) => {
    const ref = reference(label);
    const got = run('000-reduce', args);
    const device = (s: string): string => s.replace(/^.*(; global mem:)/m, '<device>$1');
    expect(got.exitCode).toBe(ref.exit);
    expect(maskTiming(device(got.stdout))).toBe(maskTiming(device(ref.stdout!)));
  });

  it.skipIf(slow)('002-topk: same lines, and the CPU and GPU top 20 agree (its values follow time(NULL))', () => {
    const ref = reference('002-topk');
    const got = run('002-topk');
    const shape = (s: string): string => maskTiming(s).replace(/top(\d+): \d+/g, 'top$1: #');
    expect(got.exitCode).toBe(ref.exit);
    expect(shape(got.stdout)).toBe(shape(ref.stdout!));
    for (const m of got.stdout.matchAll(/cpu top\d+: (\d+); gpu top\d+: (\d+)/g)) expect(m[1]).toBe(m[2]);
  });

  it.each([['003-convolution-2d'], ['003-convolution-2d-tiled']])('%s: the host buffer overflow that crashes it on the H100 is named at its line', (name) => {
    const ref = reference(name);
    const got = run(name);
    expect(ref.exit).toBe(139);
    expect(got.exitCode).toBe(139);
    expect(got.stderr).toMatch(/^003-convolution-2d(-tiled)?\.cu:\d+:\d+: runtime error: write to element 1024 of 'new unsigned int\[100\]', which has 100 unsigned int elements \(allocated at line \d+\): out of bounds/);
    const line = Number(/\.cu:(\d+):/.exec(got.stderr)![1]);
    expect(seedSource(name).split('\n')[line - 1]).toContain('mask[y * width + x] = 2;');
  });
});
