/**
 * How long compileCuda takes on a 300-line CUDA file (preprocess, parse, check, lower, and the
 * WGSL front end's check of the result). Prints the median and spread of many runs; it never
 * fails on time.
 *   node scripts/run-ts.mjs scripts/cuda-translate-bench.ts [runs]
 */
import { cpus, loadavg } from 'node:os';
import { compileCuda } from '../src/cuda/index.ts';
import { lower } from '../src/cuda/lower.ts';
import { parseCuda } from '../src/cuda/parser.ts';
import { check } from '../src/wgsl/checker.ts';

/** One ~30-line kernel of the kinds teaching code has (shared memory, loops, atomics, pointers). */
const kernel = (i: number): string => `
#define TILE_${i} 16
__device__ int clampi_${i}(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
__global__ void stage_${i}(const float *in, float *out, unsigned int *hist, int n, int width)
{
    __shared__ float tile[TILE_${i}][TILE_${i} + 1];
    __shared__ unsigned int bins[8];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TILE_${i} + tx;
    int y = blockIdx.y * TILE_${i} + ty;
    const float *row = in + y * width;
    if (tx < 8 && ty == 0) bins[tx] = 0;
    tile[ty][tx] = (x < width && y < n) ? row[x] : 0.0f;
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < TILE_${i}; ++k) {
        acc += tile[ty][k] * tile[k][tx];
    }
    int b = clampi_${i}((int)(acc * 0.25f), 0, 7);
    atomicAdd(&bins[b], 1u);
    __syncthreads();
    if (x < width && y < n) out[y * width + x] = acc / (float)(k_scale_${i} + 1);
    if (tx < 8 && ty == 0) atomicAdd(&hist[tx], bins[tx]);
    for (int s = TILE_${i} / 2; s > 0; s >>= 1) {
        if (tx < s) tile[ty][tx] += tile[ty][tx + s];
        __syncthreads();
    }
    if (tx == 0 && y < n) out[y] = tile[ty][0];
}
`;

const source = `// A 300-line translation unit: ten kernels of the shapes the course uses.\n#include <cstdio>\n#include <cuda_runtime.h>\n#include <stdlib.h>\n#include <math.h>\n#define CHECK(call) call\n#define BLOCK 16\n#define N 1024\n\n` + Array.from({ length: 10 }, (_, i) => kernel(i).replace(`k_scale_${i}`, String(i))).join('');
const lines = source.split('\n').length;
const runs = Number(process.argv[2] ?? 60);

const first = compileCuda(source, { fileName: 'bench.cu' });
if (!first.ok) {
  console.error(first.diagnostics.slice(0, 5));
  process.exit(1);
}
for (let i = 0; i < 5; i++) compileCuda(source);
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  compileCuda(source, { fileName: 'bench.cu' });
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const at = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
console.log(`compileCuda on a ${lines}-line CUDA file (${first.program.kernels.length} kernels, ${first.program.wgsl.split('\n').length} lines of WGSL), ${runs} runs after 5 warm-up:`);
console.log(`  median ${at(0.5).toFixed(1)} ms   min ${times[0]!.toFixed(1)} ms   p90 ${at(0.9).toFixed(1)} ms   (target ≤ 30 ms)`);
console.log(`  load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} (1/5/15 min) on ${cpus().length} cores: a median taken while others run is slower than the machine`);

// Where the time goes: the same file through each stage alone (medians).
const stages: Record<'preprocess and parse' | 'check and lower' | 'WGSL front end on the result', number[]> = { 'preprocess and parse': [], 'check and lower': [], 'WGSL front end on the result': [] };
for (let i = 0; i < runs; i++) {
  let t0 = performance.now();
  const parsed = parseCuda(source, { fileName: 'bench.cu' });
  stages['preprocess and parse'].push(performance.now() - t0);
  t0 = performance.now();
  const lowered = lower(parsed.unit, 'bench.cu');
  stages['check and lower'].push(performance.now() - t0);
  t0 = performance.now();
  check(lowered.wgsl, {});
  stages['WGSL front end on the result'].push(performance.now() - t0);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(`  stages (median): ${Object.entries(stages).map(([k, v]) => `${k} ${median(v).toFixed(1)} ms`).join(', ')}`);
