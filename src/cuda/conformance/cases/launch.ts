/**
 * Launch configurations CUDA refuses (Programming Guide, Compute Capabilities: at most 1024
 * threads per block, block dimensions at most 1024 × 1024 × 64, grid dimensions at least 1; and
 * the kernel's parameters all supplied): `prepareLaunch` throws a CudaLaunchError that says so.
 */
import { dim3, group } from '../harness.ts';
import { cu } from './source.ts';

export const g = group('launch');
const LIMITS = 'CUDA Programming Guide, Compute Capabilities (Technical Specifications)';

const KERNEL = cu`
__global__ void fill(int* out, int v)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
`;

g.test('bad_configuration', LIMITS)
  .params([
    { what: '2048 threads in x', gx: 1, bx: 2048, by: 1, bz: 1, words: '2048|1024' },
    { what: '32 x 32 x 2 threads', gx: 1, bx: 32, by: 32, bz: 2, words: '2048|1024' },
    { what: 'block z of 65', gx: 1, bx: 1, by: 1, bz: 65, words: '65|64' },
    { what: 'empty grid', gx: 0, bx: 32, by: 1, bz: 1, words: 'grid' },
    { what: 'empty block', gx: 1, bx: 0, by: 1, bz: 1, words: 'block' },
  ])
  .launchError((p) => ({
    source: KERNEL,
    kernel: 'fill',
    launch: { grid: dim3(p.gx), block: dim3(p.bx, p.by, p.bz) },
    args: { out: new Int32Array(4096), v: 1 },
    includes: p.words.split('|'),
  }));

g.test('missing_argument', 'CUDA Programming Guide, Execution Configuration: every parameter takes an argument').launchError(() => ({
  source: KERNEL,
  kernel: 'fill',
  launch: { grid: dim3(1), block: dim3(32) },
  args: { out: new Int32Array(32) },
  includes: ['v'],
}));

g.test('dynamic_shared_over_48k', `${LIMITS}: 48 KB of shared memory per block without an opt-in`).launchError(() => ({
  source: cu`
__global__ void big(float* out)
{
    extern __shared__ float buf[];
    buf[threadIdx.x] = 1.0f;
    out[threadIdx.x] = buf[threadIdx.x];
}
`,
  kernel: 'big',
  launch: { grid: dim3(1), block: dim3(32), sharedBytes: 64 * 1024 },
  args: { out: new Float32Array(32) },
  includes: ['shared'],
}));

g.test('unknown_kernel', 'CUDA Programming Guide: only a __global__ function can be launched').launchError(() => ({
  source: KERNEL,
  kernel: 'fil',
  launch: { grid: dim3(1), block: dim3(32) },
  args: { out: new Int32Array(32), v: 1 },
  includes: ['fil'],
}));
