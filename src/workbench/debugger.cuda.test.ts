/**
 * The debugger on the CUDA tab: seed 000's `shmem_reduce_kernel` (as the post prints it) run in
 * the reduce lab's place, and every line, stop and expression in the CUDA's terms.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { KernelRun } from '../kernel/types.ts';
import { simulate, traceStep } from '../sim/index.ts';
import { indexTrace } from '../trace/index.ts';
import { mainSharedMemory, sharedContentsAt } from '../trace/memory.ts';
import { seedLines } from '../cuda/testdata/seeds.ts';
import { compileCudaDraft, cudaDebugSource, cudaPass } from './cudaDraft.ts';
import { findHit, lineOfStep, makeBreakpoint, runCommand, warpWatch, wgslNameOf, type DebugState, type WatchLocals } from './debugger.ts';
import { evaluateCudaExpression, parseCudaExpression } from './cudaExpression.ts';

/** The post's kernel, from its `__global__` line to its closing brace. */
const post = seedLines('000', 1, 400);
const start = post.indexOf('__global__ void shmem_reduce_kernel');
const KERNEL = post.slice(start, post.indexOf('\n}', start) + 2);
const lineOf = (text: string) => KERNEL.split('\n').findIndex((l) => l.includes(text)) + 1;
const ADD = lineOf('sdata[tid] += sdata[tid + s];');

const WGSL = readFileSync(new URL('../../shaders/reduce/interleaved.wgsl', import.meta.url), 'utf8');
const labRun: KernelRun = {
  code: WGSL,
  entryPoint: 'main',
  workgroups: [4],
  overrides: { WORKGROUP_SIZE: 64 },
  bindings: { 0: { 0: Uint32Array.from({ length: 256 }, (_, i) => i % 7), 1: new Uint32Array(4), 2: Uint32Array.of(256) } },
};
const program = compileCudaDraft(KERNEL).program!;
const run = cudaPass(program, labRun).run;
const source = cudaDebugSource(program, run);
const result = simulate(run, { trace: 'full', traceWorkgroups: [1] });
const index = indexTrace(result.trace!);
const sdata = mainSharedMemory(result.trace!);
const state = (step: number, extra: Partial<DebugState> = {}): DebugState => ({ index, step, workgroup: 1, workgroupCount: 4, focusWarp: 0, focusLane: 0, breakpoints: [], source, ...extra });
/** The kernel's names where warp 0 stands after `step` (the watch re-run the panel asks for). */
const localsAt = (step: number, warp = 0): WatchLocals => simulate(run, { trace: 'summary', traceWorkgroups: [1], watch: { step, warp } }).watch!;
const stops = (bp = makeBreakpoint(1, ADD, undefined, source)) => {
  const out: number[] = [];
  for (let at = -1, k = 0; k < 20; k++) {
    const hit = findHit(index, [bp], at, 1, source);
    if (!hit) break;
    out.push(hit.step);
    at = hit.step;
  }
  return out;
};

describe('the debugger on CUDA lines', () => {
  it('a breakpoint on the addition’s CUDA line stops once per tree level, in warp 0, with s halving', () => {
    const hits = stops();
    expect(hits).toHaveLength(Math.log2(64));
    hits.forEach((step, k) => {
      expect(lineOfStep(index.trace, step, source)).toBe(ADD);
      expect(traceStep(index.trace, step).warp).toBe(0);
      const s = runCommand(state(step, { locals: localsAt(step) }), 'print s').output[0];
      expect(s).toBe(`$ = ${32 >> k}  (unsigned int; s at step ${step + 1})`);
    });
    // Between two stops the tree's level is written: the words below s hold the pairwise sums.
    const sums = sharedContentsAt(index.trace, sdata, hits[1]!).values;
    const loaded = sharedContentsAt(index.trace, sdata, hits[0]!).values;
    for (let i = 0; i < 32; i++) expect(sums[i]).toBe(loaded[i]! + loaded[i + 32]!);
  });

  it('break, continue, step and info cuda warps speak CUDA lines', () => {
    const b = runCommand(state(0), `break ${ADD}`);
    expect(b.output[0]).toBe(`Breakpoint 1 at CUDA line ${ADD}.`);
    const c = runCommand(state(0, { breakpoints: b.breakpoints! }), 'continue');
    expect(c.output[0]).toMatch(new RegExp(`^Breakpoint 1, warp 0 at CUDA line ${ADD} \\(step \\d+\\)\\.$`));
    const s = runCommand(state(c.step!), 'step');
    // The next CUDA statement of warp 0 after the addition: the loop's __syncthreads().
    expect(s.output[0]).toContain(`CUDA line ${lineOf('__syncthreads();        // make sure all adds')}`);
    expect(runCommand(state(c.step!), 'info cuda warps').output[1]).toContain(`CUDA line ${ADD}`);
    // A line with no code (the brace before the addition) says which lines have some.
    expect(runCommand(state(0), `break ${ADD - 1}`).output[0]).toMatch(new RegExp(`CUDA line ${ADD - 1} has no code that runs; lines with code: .*\\b${ADD}\\b`));
    // A condition on CUDA's built-in variables; one on a variable of the kernel is explained.
    expect(stops(makeBreakpoint(1, ADD, 'threadIdx.x == 40', source))).toEqual([]);
    expect(stops(makeBreakpoint(1, ADD, 'threadIdx.x == 0 && blockIdx.x == 1'))).toHaveLength(6);
    // Lane 3 adds on the first four levels only (s = 32, 16, 8, 4).
    expect(stops(makeBreakpoint(1, ADD, 'threadIdx.x == 3'))).toHaveLength(4);
    expect(runCommand(state(0), `break ${ADD} if tid == 0`).output[0]).toMatch(/“tid” is a variable of the kernel; write the condition with threadIdx\.x/);
  });

  it('print takes the kernel’s CUDA names and CUDA’s built-ins, with C’s types', () => {
    const step = stops()[1]!;
    const locals = localsAt(step);
    const at = (focusLane: number) => state(step, { locals, focusLane });
    const print = (expr: string, lane = 5) => runCommand(at(lane), `print ${expr}`).output[0];
    const memory = sharedContentsAt(index.trace, sdata, step).values;
    expect(print('tid')).toBe(`$ = 5  (int; tid at step ${step + 1})`);
    expect(print('myId')).toBe(`$ = ${64 + 5}  (int; myId at step ${step + 1})`);
    expect(print('threadIdx.x')).toBe(`$ = 5  (unsigned int; threadIdx.x at step ${step + 1})`);
    expect(print('blockIdx.x')).toBe(`$ = 1  (unsigned int; blockIdx.x at step ${step + 1})`);
    expect(print('blockDim.x * gridDim.x')).toBe(`$ = 256  (unsigned int; blockDim.x * gridDim.x at step ${step + 1})`);
    expect(print('sdata[tid]')).toBe(`$ = ${memory[5]}  (float; sdata[tid] at step ${step + 1})`);
    expect(print('sdata[tid + s]')).toBe(`$ = ${memory[5 + 16]}  (float; sdata[tid + s] at step ${step + 1})`);
    // C's usual arithmetic conversions: int - unsigned int is unsigned and wraps.
    expect(print('tid - s')).toBe(`$ = ${(5 - 16) >>> 0}  (unsigned int; tid - s at step ${step + 1})`);
    expect(runCommand(at(5), 'ptype tid < s').output[0]).toBe('type = int');
    // A name that is not there: which of the kernel's variables are, and nothing of the translator's.
    const missing = print('count');
    expect(missing).toMatch(/no variable “count” where this warp stands: the kernel’s variables in scope here are (?=.*\bs\b)(?=.*\btid\b)(?=.*\bmyId\b)/);
    expect(missing).toMatch(/also knows threadIdx, blockIdx/);
    expect(print('sdata[64]')).toMatch(/sdata\[64\] is outside 0…63/);
    expect(print('tid +')).toMatch(/Error:/);
  });

  it('the warp watch reads CUDA expressions lane by lane', () => {
    const step = stops()[2]!;
    const locals = localsAt(step);
    const memory = sharedContentsAt(index.trace, sdata, step).values;
    const cells = warpWatch(index, step, 0, 'sdata[threadIdx.x]', undefined, source);
    for (const c of cells) expect(c.value).toBe(memory[c.lane]);
    expect(warpWatch(index, step, 0, 's', locals, source).map((c) => c.value)).toEqual(Array.from({ length: 32 }, () => 8));
    expect(warpWatch(index, step, 0, 'tid < s', locals, source).map((c) => c.value)).toEqual(Array.from({ length: 32 }, (_, l) => (l < 8 ? 1 : 0)));
  });
});

describe('C expressions', () => {
  const scope = { scalar: (n: string) => (n === 'u' ? { type: 'u32' as const, value: 3 } : n === 'i' ? { type: 'i32' as const, value: -7 } : undefined), array: () => undefined };
  const value = (text: string) => evaluateCudaExpression(parseCudaExpression(text), scope);
  it('follow C’s arithmetic', () => {
    expect(value('-1 < 0u')).toEqual({ type: 'int', value: 0 });
    expect(value('i < u')).toEqual({ type: 'int', value: 0 });
    expect(value('i / 2')).toEqual({ type: 'int', value: -3 });
    expect(value('i % 2')).toEqual({ type: 'int', value: -1 });
    expect(value('(float)i / 2')).toEqual({ type: 'float', value: -3.5 });
    expect(value('1 << 31')).toEqual({ type: 'int', value: -2147483648 });
    expect(value('0x80000000')).toEqual({ type: 'unsigned int', value: 2147483648 });
    expect(value('u > 2 ? 1.5f : 0')).toEqual({ type: 'float', value: 1.5 });
    expect(value('!u || i')).toEqual({ type: 'int', value: 1 });
    expect(value('(unsigned char)300')).toEqual({ type: 'unsigned char', value: 44 });
  });
  it('say what they cannot do', () => {
    expect(() => value('u / 0')).toThrow(/division by zero/);
    expect(() => value('u = 2')).toThrow(/does not change them/);
    expect(() => value('&u')).toThrow(/addresses/);
    expect(() => parseCudaExpression('u; i')).toThrow(/unexpected ';'/);
  });
  it('find the generated WGSL’s name of a CUDA variable', () => {
    expect(wgslNameOf('s', ['tid', 's'])).toBe('s');
    expect(wgslNameOf('s', ['s', 's_2', 'sum'])).toBe('s_2');
    expect(wgslNameOf('loop', ['loop_'])).toBe('loop_');
    expect(wgslNameOf('x', ['xy'])).toBeUndefined();
  });
});
