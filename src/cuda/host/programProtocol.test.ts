import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../sim/index.ts';
import { runProgramJob, runProgramJobOnGpu, type JobGpu, type ProgramMessage } from './programProtocol.ts';

const seed = (name: string): string => readFileSync(new URL(`./seeds/${name}`, import.meta.url), 'utf8');

function run(source: string, maxSteps?: number): ProgramMessage[] {
  const messages: ProgramMessage[] = [];
  runProgramJob({ source, fileName: 'program.cu', executor: 'sim', ...(maxSteps ? { maxSteps } : {}) }, (m) => messages.push(m));
  return messages;
}

describe('runProgramJob', () => {
  it("streams seed 003's shared-memory histogram as the H100 printed it, with its launch", () => {
    const messages = run(seed('003-histogram-shared.cu'));
    expect(messages[0]).toMatchObject({ type: 'compiled', ok: true });
    const stdout = messages.flatMap((m) => (m.type === 'output' && m.stream === 'stdout' ? [m.text] : [])).join('');
    const reference = readFileSync(new URL('../../../docs/runs/2026-11-26-h100-seed-programs/003-histogram-shared.txt', import.meta.url), 'utf8');
    expect(reference).toContain(stdout);
    expect(stdout).toContain('histo[6]:78');
    const streamed = messages.filter((m) => m.type === 'launch');
    expect(streamed).toHaveLength(1);
    const done = messages.at(-1)!;
    expect(done).toMatchObject({ type: 'done', exitCode: 0 });
    if (done.type !== 'done') throw new Error('no done');
    expect(done.launches).toHaveLength(1);
    expect(done.launches[0]).toMatchObject({ kernel: 'histo_kernel', ran: true });
    expect(done.launches[0]!.sharedBytes).toBeGreaterThanOrEqual(0);
  });

  it('sends output in pieces before the run ends, stdout and stderr apart', () => {
    let t = 0;
    const messages: ProgramMessage[] = [];
    const source = '#include <cstdio>\nint main(){ for(int i=0;i<3;i++){ printf("out %d\\n", i); fprintf(stderr, "err %d\\n", i);} return 2; }';
    runProgramJob({ source, fileName: 'p.cu', executor: 'sim' }, (m) => messages.push(m), () => (t += 100), 50);
    const pieces = messages.filter((m) => m.type === 'output');
    expect(pieces.map((m) => (m.type === 'output' ? `${m.stream}:${m.text}` : ''))).toEqual(['stdout:out 0\n', 'stderr:err 0\n', 'stdout:out 1\n', 'stderr:err 1\n', 'stdout:out 2\n', 'stderr:err 2\n']);
    expect(messages.at(-1)).toMatchObject({ type: 'done', exitCode: 2 });
  });

  it('sends what was printed before a long computation while it computes, not at its end', () => {
    let t = 0;
    const messages: ProgramMessage[] = [];
    const source = '#include <cstdio>\nint main(){ printf("hi\\n"); unsigned int x = 1; for (int i = 0; i < 3000000; i++) x = x * 3u + 1u; printf("bye %u\\n", x > 0u); return 0; }';
    // A clock that moves one unit per look: only the interpreter's checkpoints look during the loop.
    runProgramJob({ source, fileName: 'p.cu', executor: 'sim' }, (m) => messages.push(m), () => ++t, 20);
    const pieces = messages.flatMap((m) => (m.type === 'output' ? [m.text] : []));
    expect(pieces).toEqual(['hi\n', 'bye 1\n']);
  });

  it('reports compile errors at CUDA line and column, and runs nothing', () => {
    const messages = run('int main() {\n  int x = ;\n}\n');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ type: 'compiled', ok: false });
    if (messages[0]!.type !== 'compiled') throw new Error('no compiled');
    expect(messages[0]!.diagnostics[0]).toMatchObject({ severity: 'error', line: 2 });
  });

  it('ends an endless host loop at the step budget, saying so on stderr', () => {
    const messages = run('int main() { while (1) {} }', 100_000);
    const stderr = messages.flatMap((m) => (m.type === 'output' && m.stream === 'stderr' ? [m.text] : [])).join('');
    expect(stderr).toMatch(/step budget/);
    expect(messages.at(-1)).toMatchObject({ type: 'done' });
    expect((messages.at(-1) as { exitCode: number }).exitCode).not.toBe(0);
  });
});

/** A fake GPU: the simulator behind `run`, an adapter named as a test would name it. */
const LIMITS = { maxComputeInvocationsPerWorkgroup: 1024, maxComputeWorkgroupSizeX: 1024, maxComputeWorkgroupSizeY: 1024, maxComputeWorkgroupSizeZ: 64, maxComputeWorkgroupStorageSize: 49152 };
const fakeGpu = (ready?: () => Promise<never>): JobGpu =>
  ({
    ready: ready ?? (() => Promise.resolve({ summary: { name: 'Fake GPU 9000' }, device: { limits: LIMITS } })),
    run: (run: Parameters<JobGpu['run']>[0], o?: Parameters<JobGpu['run']>[1]) => {
      o?.onGpuMs?.(0.25, 'timestamp-query');
      return Promise.resolve(simulate(run, { trace: 'summary' }).buffers);
    },
  }) as unknown as JobGpu;

describe('runProgramJobOnGpu', () => {
  const stdoutOf = (messages: ProgramMessage[]): string => messages.flatMap((m) => (m.type === 'output' && m.stream === 'stdout' ? [m.text] : [])).join('');
  const reference = readFileSync(new URL('../../../docs/runs/2026-11-26-h100-seed-programs/003-histogram-shared.txt', import.meta.url), 'utf8');

  it('says which GPU runs the kernels, streams the output once, and keeps the launch for the replay with its GPU time', async () => {
    const messages: ProgramMessage[] = [];
    const kept = await runProgramJobOnGpu({ source: seed('003-histogram-shared.cu'), fileName: 'program.cu', executor: 'gpu' }, (m) => messages.push(m), fakeGpu());
    expect(messages.map((m) => m.type).slice(0, 2)).toEqual(['compiled', 'executor']);
    expect(messages[1]).toEqual({ type: 'executor', executor: 'gpu', adapter: 'Fake GPU 9000' });
    expect(reference.endsWith(stdoutOf(messages))).toBe(true);
    expect(stdoutOf(messages)).toContain('histo[6]:78');
    const launch = messages.find((m) => m.type === 'launch');
    expect(launch).toMatchObject({ launch: { kernel: 'histo_kernel', ms: 0.25, gpuMs: 0.25 } });
    const done = messages.at(-1)!;
    expect(done).toMatchObject({ type: 'done', exitCode: 0, launches: [{ kernel: 'histo_kernel', ran: true, kept: true, ms: 0.25 }] });
    expect(kept.get(0)?.entryPoint).toBeDefined();
  });

  it('without WebGPU the kernels run on the simulator, and the executor message says why', async () => {
    const messages: ProgramMessage[] = [];
    await runProgramJobOnGpu({ source: seed('003-histogram-shared.cu'), fileName: 'program.cu', executor: 'gpu' }, (m) => messages.push(m), undefined);
    expect(messages[1]).toEqual({ type: 'executor', executor: 'sim', fallback: 'no-webgpu' });
    expect(stdoutOf(messages)).toContain('histo[6]:78');
    expect(messages.at(-1)).toMatchObject({ type: 'done', exitCode: 0 });
  });

  it('where the GPU gives no device, the reason (with what to do) is the fallback message', async () => {
    const messages: ProgramMessage[] = [];
    const refuse = (): Promise<never> => Promise.reject(Object.assign(new Error('No WebGPU adapter was found.'), { hint: 'Update the graphics driver.' }));
    await runProgramJobOnGpu({ source: seed('003-histogram-shared.cu'), fileName: 'program.cu', executor: 'gpu' }, (m) => messages.push(m), fakeGpu(refuse));
    expect(messages[1]).toEqual({ type: 'executor', executor: 'sim', fallback: 'No WebGPU adapter was found. Update the graphics driver.' });
    expect(messages.at(-1)).toMatchObject({ type: 'done', exitCode: 0 });
  });
});
