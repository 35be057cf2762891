import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { KernelRun } from '../kernel/types.ts';
import { simulate } from '../sim/index.ts';
import { compileCudaDraft, cudaPass, cudaPlace, CudaLaunchMismatch } from './cudaDraft.ts';
import { checkDraft, translatedCompileError } from './editorRun.ts';
import { GpuError, type GpuExecutor } from '../gpu/index.ts';
import { findLab } from '../labs/all.ts';

const WGSL = readFileSync(new URL('../../shaders/reduce/interleaved.wgsl', import.meta.url), 'utf8');
/** The lab's pass: 256 words in, 4 partial sums out, `params.n` = 256, 64 threads a workgroup. */
const labRun = (): KernelRun => ({
  code: WGSL,
  entryPoint: 'main',
  workgroups: [4],
  overrides: { WORKGROUP_SIZE: 64 },
  bindings: { 0: { 0: Uint32Array.from({ length: 256 }, (_, i) => i % 7), 1: new Uint32Array(4), 2: Uint32Array.of(256) } },
});

// seed 000's kernel as printed: output first, a float kernel in a u32 lab.
const SEED = `__global__ void shmem_reduce_kernel(float * d_out, const float * d_in)
{
    extern __shared__ float sdata[];
    int myId = threadIdx.x + blockDim.x * blockIdx.x;
    int tid  = threadIdx.x;
    sdata[tid] = d_in[myId];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1)
    {
        if (tid < s)
        {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0)
    {
        d_out[blockIdx.x] = sdata[0];
    }
}`;

const sums = (input: Uint32Array) => [0, 1, 2, 3].map((b) => input.slice(b * 64, b * 64 + 64).reduce((a, x) => a + x, 0));

describe('a CUDA draft in a lab', () => {
  it('a syntax error is reported at its CUDA line and column', () => {
    const r = compileCudaDraft(SEED.replace('int tid  = threadIdx.x;', 'int tid  = threadIdx.x'));
    expect(r.program).toBeUndefined();
    const e = r.diagnostics.find((d) => d.severity === 'error')!;
    expect([5, 6]).toContain(e.line);
    expect(e.endLine > e.line || e.endColumn > e.column).toBe(true);
  });

  it('takes the lab’s input and output by access (d_out first), converts floats, and hands the sums back as the lab’s u32', () => {
    const { program } = compileCudaDraft(SEED);
    expect(program).toBeDefined();
    const run = labRun();
    const pass = cudaPass(program!, run);
    expect(pass.run.overrides?.['BLOCK_DIM_X']).toBe(64);
    expect(pass.run.workgroups[0]).toBe(4);
    const result = simulate(pass.run, { trace: 'summary' });
    const out = pass.outputs(result.buffers);
    expect(out[0]![1]).toBeInstanceOf(Uint32Array);
    expect(Array.from(out[0]![1]!)).toEqual(sums(run.bindings[0]![0] as Uint32Array));
  });

  it('a scalar parameter takes the lab’s uniform field of its name; one the lab lacks is named', () => {
    const cu = readFileSync(new URL('../labs/reduce/cuda/interleaved.cu', import.meta.url), 'utf8');
    const run = labRun();
    const pass = cudaPass(compileCudaDraft(cu).program!, run);
    const out = pass.outputs(simulate(pass.run, { trace: 'summary' }).buffers);
    expect(Array.from(out[0]![1]!)).toEqual(sums(run.bindings[0]![0] as Uint32Array));
    const other = compileCudaDraft(cu.replace(/unsigned int n\)/, 'unsigned int count)').replace(/< n/g, '< count')).program!;
    expect(() => cudaPass(other, run)).toThrow(CudaLaunchMismatch);
    expect(() => cudaPass(other, run)).toThrow(/count/);
  });
});

describe('the GPU compiler on WGSL generated from CUDA', () => {
  const program = compileCudaDraft(SEED).program!;
  const addLine = SEED.split('\n').findIndex((l) => l.includes('sdata[tid] += sdata[tid + s];')) + 1;
  const generatedLine = program.sourceMap.toWgsl(addLine)!.line;
  const translated = { code: program.wgsl, pass: (r: KernelRun) => cudaPass(program, r), place: (l: number, c: number) => cudaPlace(program, l, c) };
  const rejected = (line: number) => new GpuError('compile', `WGSL compile error at kernel.cu (from reduce/interleaved.wgsl):${line}:7: no matching overload`, 'fix the line', [{ severity: 'error', message: 'no matching overload', line, column: 7 }]);

  it('a message on the addition’s generated line is told at its CUDA line and column, with the generated line kept to show', () => {
    const e = rejected(generatedLine);
    const o = translatedCompileError(e.message, e.hint, e.messages, SEED, translated);
    expect(o.state).toBe('failed');
    if (o.state !== 'failed') return;
    expect(o.message).toContain(`CUDA line ${addLine}, column `);
    expect(o.message).toContain(`the generated WGSL line ${generatedLine}`);
    expect(o.message).toContain('no matching overload');
    // Never the bare WGSL place under the CUDA file's name.
    expect(o.message).not.toMatch(/kernel\.cu[^,]*:\d+:\d+/);
    const m = o.messages![0]!;
    expect(m.line).toBe(addLine);
    expect(m.sourceLine?.trim()).toBe('sdata[tid] += sdata[tid + s];');
    expect(m.generated).toMatchObject({ line: generatedLine, column: 7 });
    expect(m.generated?.sourceLine).toContain('sdata[tid] +=');
  });

  it('a message in code the translator added says so; the check of a CUDA draft reports the GPU’s rejection that way', async () => {
    const added = program.wgsl.split('\n').findIndex((l) => l.startsWith('override BLOCK_DIM_X')) + 1;
    const e = rejected(added);
    const o = translatedCompileError(e.message, e.hint, e.messages, SEED, translated);
    expect(o.state === 'failed' && o.message).toMatch(/code the translator added around your CUDA: no matching overload \(the generated WGSL line \d+\)/);
    // The whole path: a lab check whose GPU rejects the generated WGSL.
    const gpu = { run: () => Promise.reject(rejected(generatedLine)) } as unknown as GpuExecutor;
    const reduce = findLab('reduce');
    const params = { ...(reduce.defaults as Record<string, number | string>), n: 256, workgroupSize: 64 };
    const r = await checkDraft({ lab: reduce, variant: 'interleaved', params, draft: SEED, gpu, simulate: (run, options) => ({ promise: Promise.resolve(simulate(run, options)), cancel: () => {} }), translated });
    expect(r.gpu.state === 'failed' && r.gpu.message).toContain(`CUDA line ${addLine}`);
    expect(r.sim.state).toBe('done');
  });
});
