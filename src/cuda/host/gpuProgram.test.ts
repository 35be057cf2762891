import { describe, expect, it } from 'vitest';
import { compileCuda } from '../index.ts';
import type { Bindings, KernelRun } from '../../kernel/types.ts';
import { simulate } from '../../sim/index.ts';
import { GpuError } from '../../gpu/errors.ts';
import type { RunOptions } from '../../gpu/executor.ts';
import { LAUNCH_TIMEOUT, runProgramOnDevice, type KernelDevice } from './gpuProgram.ts';
import { runHostProgram, STOPPED } from './index.ts';

function compile(source: string) {
  const c = compileCuda(source, { fileName: 'prog.cu' });
  if (!c.ok) throw new Error(JSON.stringify(c.diagnostics.slice(0, 3)));
  return c.program;
}

/** A fake GPU: the simulator behind the executor's `run`, counting the runs and what they were given. */
function fakeGpu(behave?: (run: KernelRun, n: number, options?: RunOptions) => Bindings | Promise<Bindings> | undefined): KernelDevice & { runs: KernelRun[]; options: (RunOptions | undefined)[] } {
  const runs: KernelRun[] = [];
  const options: (RunOptions | undefined)[] = [];
  return {
    runs,
    options,
    async run(run, o) {
      runs.push(run);
      options.push(o);
      const own = await behave?.(run, runs.length, o);
      return own ?? simulate(run, { trace: 'summary' }).buffers;
    },
  };
}

const clock = { now: () => 1764115200, cpuMicros: () => 0 };

// Three launches, each reading what the previous one wrote, with host decisions in between that
// depend on the device's results, a kernel printf, and rand().
const CHAIN = `#include <cstdio>
#include <cstdlib>
__global__ void twice(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 2 * a[i] + 1;
    if (i == 0) printf("kernel sees a[0] = %d\\n", a[0]);
}
int main() {
    const int n = 40;
    int h[n];
    srand(7);
    for (int i = 0; i < n; i++) h[i] = rand() % 10;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    int rounds = 0;
    do {
        twice<<<2, 32>>>(d, n);
        cudaDeviceSynchronize();
        cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
        rounds++;
        printf("after %d: h[0] = %d, h[39] = %d, next rand %d\\n", rounds, h[0], h[39], rand() % 100);
    } while (h[0] < 100);
    fprintf(stderr, "done in %d\\n", rounds);
    cudaFree(d);
    return 0;
}
`;

describe('runProgramOnDevice: the launches on a (fake) GPU, the host replayed round by round', () => {
  it('prints what the simulator executor prints, running each launch on the device once', async () => {
    const program = compile(CHAIN);
    const sim = runHostProgram(program, { clock });
    const gpu = fakeGpu();
    const pieces: string[] = [];
    const r = await runProgramOnDevice(program, gpu, { clock, onOutput: (s, t) => pieces.push(`${s}:${t}`) });
    expect(sim.exitCode).toBe(0);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(sim.stdout);
    expect(r.stderr).toBe(sim.stderr);
    expect(r.stdout).toContain('kernel sees a[0] =');
    const launches = (sim.stdout.match(/^after/gm) ?? []).length;
    expect(launches).toBeGreaterThanOrEqual(3);
    expect(gpu.runs).toHaveLength(launches);
    expect(r.rounds).toBe(launches + 1);
    expect(r.launches).toHaveLength(launches);
    // The stream gives every piece once, in order, across the rounds.
    expect(pieces.filter((p) => p.startsWith('stdout:')).map((p) => p.slice(7)).join('')).toBe(sim.stdout);
    expect(pieces.filter((p) => p.startsWith('stderr:')).map((p) => p.slice(7)).join('')).toBe('done in ' + launches + '\n');
  });

  it('the device gets the buffers as they are at each launch, and every loop guarded by the watchdog, under a timeout', async () => {
    const program = compile(CHAIN);
    const gpu = fakeGpu();
    await runProgramOnDevice(program, gpu, { clock, timeoutMs: 1234 });
    const first = gpu.runs[0]!.bindings[0]!;
    const second = gpu.runs[1]!.bindings[0]!;
    // a[i] = 2 a[i] + 1 between them.
    const a0 = Array.from(Object.values(first).find((b) => b.length >= 40)!.slice(0, 40));
    const a1 = Array.from(Object.values(second).find((b) => b.length >= 40)!.slice(0, 40));
    expect(a1).toEqual(a0.map((v) => 2 * v + 1));
    expect(gpu.options[0]!.timeoutMs).toBe(1234);
  });

  it('time(NULL), clock() and the events read in one round are replayed in the next, so the rounds agree', async () => {
    const program = compile(`#include <cstdio>
#include <cstdlib>
#include <ctime>
__global__ void inc(int *a) { a[threadIdx.x] += 1; }
int main() {
    srand(time(NULL));
    int first = rand();
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    cudaMemset(d, 0, 32 * sizeof(int));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a);
    inc<<<1, 32>>>(d);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = -1;
    cudaEventElapsedTime(&ms, a, b);
    long t = time(NULL);
    int h[32];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("first %d again %d h %d t %ld ms %s\\n", first, rand() == rand() ? 1 : 0, h[31], t, ms >= 0 ? "ok" : "bad");
    return 0;
}`);
    // A clock that moves on every read: a round that read it afresh would seed rand differently.
    let tick = 1764115200;
    const moving = { now: () => tick++, cpuMicros: () => tick * 1000 };
    let wall = 0;
    const r = await runProgramOnDevice(program, fakeGpu(), { clock: moving, now: () => (wall += 5) });
    expect(r.exitCode).toBe(0);
    expect(r.rounds).toBe(2);
    // srand(1764115200): the first value glibc gives for that seed, as the reference run printed it.
    const expected = runHostProgram(program, { clock: { now: () => 1764115200, cpuMicros: () => 0 } }).stdout.replace(/ t \d+ /, ' t # ');
    expect(r.stdout.replace(/ t \d+ /, ' t # ')).toBe(expected);
    expect(r.stdout).toContain(`t ${1764115201} `);
    expect(r.stdout).toContain('ms ok');
  });

  it('events time the launches between them once (their GPU time and the host time of one pass), never the rounds that re-ran the host code', async () => {
    const program = compile(`#include <cstdio>
__global__ void inc(int *a) { a[threadIdx.x] += 1; }
int main() {
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a);
    for (int i = 0; i < 20; i++) inc<<<1, 32>>>(d);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = -1;
    cudaEventElapsedTime(&ms, a, b);
    printf("%.1f\\n", ms);
    return 0;
}`);
    // Every read of the wall clock moves it by 5 ms; each launch takes 2 ms on the "GPU".
    let wall = 0;
    const gpu = fakeGpu((_run, _n, o) => {
      o?.onGpuMs?.(2, 'timestamp-query');
      return undefined;
    });
    const r = await runProgramOnDevice(program, gpu, { clock, now: () => (wall += 5) });
    expect(r.rounds).toBe(21);
    // 20 launches × 2 ms, plus the few reads of the clock in the last pass between the events
    // (the 21 rounds read it over a hundred times: 500 ms and more if they counted).
    const ms = Number(r.stdout.trim());
    expect(ms).toBeGreaterThanOrEqual(40);
    expect(ms).toBeLessThan(60);
  });

  it('a kernel the watchdog stops fails with cudaErrorLaunchTimeout at the next synchronising call, and the program goes on', async () => {
    const program = compile(`#include <cstdio>
__global__ void spin(int *a) { while (a[0] == 0) { } }
int main() {
    int *d;
    cudaMalloc(&d, sizeof(int));
    cudaMemset(d, 0, sizeof(int));
    spin<<<1, 1>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s\\n", (int)e, cudaGetErrorString(e));
    return 0;
}`);
    const gpu = fakeGpu((run, _n, o) => {
      expect(o?.watchdog).toBeDefined();
      expect(run.code).not.toBe(program.wgsl);
      throw new GpuError('watchdog', 'the loop at line 2 was stopped after 1048576 iterations', 'Check its exit condition.');
    });
    const r = await runProgramOnDevice(program, gpu, { clock });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`sync: ${LAUNCH_TIMEOUT} the launch timed out and was terminated\n`);
    expect(r.stderr).toMatch(/spin<<<…>>> at line 7: the GPU stopped the kernel: the loop at line 2/);
  });

  it('a launch the device cannot run ends the run with where, why and what to do, keeping what was printed', async () => {
    const program = compile(`#include <cstdio>
__global__ void k(int *a) { a[threadIdx.x] = 1; }
int main() {
    printf("before\\n");
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    k<<<1, 64>>>(d);
    cudaDeviceSynchronize();
    printf("after\\n");
    return 0;
}`);
    const gpu = fakeGpu(() => {
      throw new GpuError('validation', 'workgroup size 64 exceeds the limit', 'Lower the workgroup size.');
    });
    const r = await runProgramOnDevice(program, gpu, { clock });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('before\n');
    expect(r.stderr).toMatch(/^prog\.cu:7:\d+: error: launch 1 \(k<<<…>>>\) could not run on this GPU: workgroup size 64 exceeds the limit\. Lower the workgroup size\. The simulator can run it/);
  });

  it('Stop while a launch is on the device ends the run there with exit status 130', async () => {
    const program = compile(`#include <cstdio>
__global__ void k(int *a) { a[threadIdx.x] = 1; }
int main() {
    printf("before\\n");
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    k<<<1, 32>>>(d);
    k<<<1, 32>>>(d);
    printf("after\\n");
    return 0;
}`);
    const controller = new AbortController();
    const gpu = fakeGpu((_run, n, o) => {
      expect(o?.signal).toBe(controller.signal);
      if (n === 1) return undefined;
      controller.abort();
      throw new GpuError('cancelled', 'cancelled; the GPU work was abandoned.', 'Run it again.');
    });
    const r = await runProgramOnDevice(program, gpu, { clock, signal: controller.signal });
    expect(r.exitCode).toBe(STOPPED);
    expect(r.stdout).toBe('before\n');
    expect(r.stderr).toMatch(/^prog\.cu:8:\d+: stopped: the run was stopped here, while k<<<…>>> ran on the GPU\n$/);
    expect(gpu.runs).toHaveLength(2);
  });

  it('a launch CUDA refuses never reaches the device, and a host fault after the launches is reported as on the simulator', async () => {
    const program = compile(`#include <cstdio>
__global__ void k(int *a) { a[threadIdx.x] = 1; }
int main() {
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    k<<<1, 2048>>>(d);
    printf("%s\\n", cudaGetErrorString(cudaGetLastError()));
    k<<<1, 32>>>(d);
    int *p = new int[4];
    p[4] = 1;
    return 0;
}`);
    const gpu = fakeGpu();
    const r = await runProgramOnDevice(program, gpu, { clock });
    const sim = runHostProgram(program, { clock });
    expect(gpu.runs).toHaveLength(1);
    expect(r.stdout).toBe('invalid argument\n');
    expect(r.exitCode).toBe(sim.exitCode);
    expect(r.stderr).toBe(sim.stderr);
    expect(r.stderr).toMatch(/prog\.cu:10:\d+: runtime error: write to element 4/);
  });
});
