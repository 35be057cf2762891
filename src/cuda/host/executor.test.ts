import { describe, expect, it, vi } from 'vitest';
import { compileCuda } from '../index.ts';
import { runHostProgram } from './index.ts';

// Counts the simulator's runs and keeps the options they were given, running it as it is (with a
// lower per-block step limit where a test asks for one, so an endless kernel stops in milliseconds).
const simulated = vi.hoisted(() => ({ count: 0, blockLimit: undefined as number | undefined, options: [] as unknown[] }));
vi.mock('../../sim/index.ts', async (importOriginal) => {
  const sim = await importOriginal<typeof import('../../sim/index.ts')>();
  return {
    ...sim,
    simulate: (run: Parameters<typeof sim.simulate>[0], options: Parameters<typeof sim.simulate>[1] = {}) => {
      simulated.count++;
      simulated.options.push(options);
      return sim.simulate(run, simulated.blockLimit ? { ...options, maxWorkgroupSteps: simulated.blockLimit } : options);
    },
  };
});

// A benchmark loop as the course writes it: the same launch, on the same inputs, many times,
// then a launch on inputs the earlier ones changed.
const SOURCE = `#include <cstdio>
__global__ void sum(float *out, const float *in) {
    __shared__ float s[64];
    s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
    __syncthreads();
    for (unsigned k = 32; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) { out[blockIdx.x] = s[0]; if (blockIdx.x == 0) printf("block 0: %.1f\\n", s[0]); }
}
int main() {
    float h[256], r[4];
    for (int i = 0; i < 256; i++) h[i] = i % 7;
    float *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof r);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    for (int t = 0; t < 10; t++) sum<<<4, 64>>>(out, in);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("%.1f %.1f %.1f %.1f\\n", r[0], r[1], r[2], r[3]);
    h[0] = 100;
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    sum<<<4, 64>>>(out, in);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("%.1f\\n", r[0]);
    return 0;
}`;

describe('the simulator executor', () => {
  it('answers a launch identical to an earlier one (same kernel, configuration and input bytes) from that run, and simulates any other', () => {
    const c = compileCuda(SOURCE, { fileName: 'bench.cu' });
    if (!c.ok) throw new Error(JSON.stringify(c.diagnostics));
    simulated.count = 0;
    const r = runHostProgram(c.program);
    expect(r.stderr).toBe('');
    expect(r.launches).toHaveLength(11);
    // `out` is read-write, so its bytes are inputs too: the first launch sees it unwritten, the
    // second sees the sums, and the eight after are the second again (its printf lines with
    // them). The changed input: one more.
    expect(simulated.count).toBe(3);
    const block = (b: number): number => Array.from({ length: 64 }, (_, i) => (b * 64 + i) % 7).reduce((x, y) => x + y, 0);
    expect(r.stdout).toBe(`${'block 0: 189.0\n'.repeat(10)}${[0, 1, 2, 3].map((b) => block(b).toFixed(1)).join(' ')}\nblock 0: 289.0\n289.0\n`);
  });

  it('stops an endless kernel in a launch of any size at its first block, with CUDA’s error and the CUDA line of the loop', () => {
    const c = compileCuda(`#include <cstdio>
__global__ void spin(int *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (a[0] == 0) {
        a[1] += 1;
    }
    a[i % 64] = 1;
}
int main() {
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    cudaMemset(d, 0, 64 * sizeof(int));
    spin<<<2147483647, 1024>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %d %s\\n", (int)e, cudaGetErrorString(e));
    return 0;
}`, { fileName: 'spin.cu' });
    if (!c.ok) throw new Error(JSON.stringify(c.diagnostics));
    simulated.options = [];
    simulated.blockLimit = 4096;
    try {
      const r = runHostProgram(c.program);
      expect(r.stdout).toBe('sync: 719 unspecified launch failure\n');
      expect(r.stderr).toBe('[warpscope] spin<<<…>>> at line 13: stopped: a block ran more warp instructions than the simulator allows without finishing, with a warp at line 4, column 5 of spin.cu: the kernel may loop forever.\n');
    } finally {
      simulated.blockLimit = undefined;
    }
    // The executor's own limit per block, whatever the grid (the run's limit alone grows with it).
    expect(simulated.options).toEqual([expect.objectContaining({ maxWorkgroupSteps: 2 ** 25 })]);
  });
});
