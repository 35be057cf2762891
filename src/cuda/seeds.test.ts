/**
 * Every `__global__` kernel of the five course posts, pasted as printed (host code included),
 * translated, launched as its post launches it at a small size, and run on the simulator against
 * a CPU reference. The same cases run on Dawn in seeds.gpu.test.ts. Kernels whose post text has a
 * bug must give the diagnostic that names it.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../sim/index.ts';
import { compileCuda, prepareLaunch, type CudaProgram } from './index.ts';
import { SEED_CASES, restoreLineBreaks, seedLines, type SeedCase } from './testdata/seeds.ts';

const FILES = { 'error.cuh': '#pragma once\n#define CHECK(call) call\n' };

export function compileCase(c: SeedCase): CudaProgram {
  const text = seedLines(c.seed, c.lines[0], c.lines[1]);
  const r = compileCuda(c.fix ? c.fix.apply(text) : text, { fileName: `post-${c.seed}.cu`, files: FILES });
  if (!r.ok) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`).join('\n'));
  for (const w of c.warnings ?? []) expect(r.diagnostics.map((d) => d.message).join('\n')).toContain(w);
  return r.program;
}

const errorsOf = (src: string): string[] => {
  const r = compileCuda(src, { fileName: 'post.cu', files: FILES });
  expect(r.ok).toBe(false);
  return r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.line}:${d.column}: ${d.message}`);
};

describe('the posts\' kernels on the simulator', () => {
  it.each(SEED_CASES.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const program = compileCase(c);
    const args = c.args();
    const launch = prepareLaunch(program, c.kernel, c.config, args);
    const result = simulate(launch.run, { trace: 'summary' });
    expect(result.diagnostics.filter((d) => d.kind !== 'race')).toEqual([]);
    const out = launch.readBack(result.buffers);
    for (const [name, want] of Object.entries(c.expected(args))) expect(Array.from(out[name] as ArrayLike<number>), name).toEqual(Array.from(want));
  });
});

describe('the posts\' bugs, named', () => {
  it('seed 001 as printed: the // comments hide the rest of each one-line kernel', () => {
    const errs = errorsOf(seedLines('001', 20, 20));
    expect(errs[0]).toMatch(/^1:\d+: expected '}' at end of input.*'\/\/' comment at line 1 runs to the end of that line and hides the code after it/);
  });

  it('seed 001 reduceNeighbored: idx is used but never declared', () => {
    const text = restoreLineBreaks(seedLines('001', 20, 20), ['set thread ID', 'convert global data pointer to the local pointer of this block', 'boundary check', 'in-place reduction in global memory', 'synchronize within block', 'write result for this block to global mem']);
    const errs = errorsOf(text);
    expect(errs).toEqual(["4:6: use of undeclared identifier 'idx'"]);
  });

  /** Runs a case as printed; the simulator's diagnostics with their WGSL lines mapped to the post's CUDA lines. */
  const asPrinted = (id: string): { kind: string; cudaLine: string }[] => {
    const c = SEED_CASES.find((x) => x.id.startsWith(id))!;
    const text = seedLines(c.seed, c.lines[0], c.lines[1]);
    const r = compileCuda(text, { fileName: 'post.cu' });
    if (!r.ok) throw new Error('does not compile');
    const sim = simulate(prepareLaunch(r.program, c.kernel, c.config, c.args()).run, { trace: 'summary' });
    const lines = text.split('\n');
    return sim.diagnostics.map((d) => ({ kind: d.kind, cudaLine: lines[r.program.sourceMap.toCuda(d.line, d.column)!.line - 1]!.trim() }));
  };

  it('seed 003 tiled convolution: the mask indexed by the image width reads past the mask (out of bounds, on its CUDA line)', () => {
    expect(asPrinted('convolution 2-D tiled')).toContainEqual({ kind: 'out-of-bounds', cudaLine: 'value += mask[i * width + j] * Ns[i + ty][j + tx];' });
  });

  it('seed 003 work-efficient scan: no barrier between the last down-sweep step and the output copy (a race, on its CUDA lines)', () => {
    const d = asPrinted('scan: work-efficient');
    expect(d.filter((x) => x.kind === 'race').map((x) => x.cudaLine)).toContain('output[start + blockDim.x + tx] = XY[blockDim.x+tx];');
  });

  it('seed 004 optimized ReductionSum: the post omits the declarations ("相同, 略去")', () => {
    const errs = errorsOf(seedLines('004', 169, 181));
    expect(errs.join('\n')).toMatch(/use of undeclared identifier 'tid'/);
  });

  it('seed 003 fragments: merge with co-rank has an unbalanced parenthesis, SpMV ELL an undeclared col and no closing brace', () => {
    expect(errorsOf(seedLines('003', 537, 550)).join('\n')).toMatch(/expected '\)'/);
    const ell = errorsOf(seedLines('003', 485, 495)).join('\n');
    expect(ell).toMatch(/expected '}' at end of input/);
  });

  it('seed 003 work-inefficient scan: SECTION_SIZE comes from a #define the fragment leaves out; with it, the scan runs', () => {
    const text = seedLines('003', 370, 396);
    expect(errorsOf(text).join('\n')).toMatch(/use of undeclared identifier 'SECTION_SIZE'/);
    const r = compileCuda(`#define SECTION_SIZE 1024\n${text}`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const input = Int32Array.from({ length: 256 }, (_, i) => (i % 7) - 3);
    const launch = prepareLaunch(r.program, 'work_inefficient_scan_kernel', { grid: { x: 1, y: 1, z: 1 }, block: { x: 256, y: 1, z: 1 } }, { inputMatrix: input, output: new Int32Array(256), width: 16 });
    const out = launch.readBack(simulate(launch.run, { trace: 'summary' }).buffers).output as Int32Array;
    let s = 0;
    expect(Array.from(out)).toEqual(Array.from(input, (v) => (s += v * v)));
  });
});
