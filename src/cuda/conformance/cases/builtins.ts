/**
 * §2 Built-in variables: threadIdx, blockIdx, blockDim, gridDim in 1-D, 2-D and 3-D launches,
 * warpSize and dim3 (Programming Guide §"Built-in Variables", §"dim3").
 */
import { dim3, group, iota } from '../harness.ts';
import { at, cu } from './source.ts';

export const g = group('builtins');
const SPEC = 'CUDA Programming Guide, Built-in Variables';

/** Every thread of a launch, in CUDA's linear order: x fastest, then y, z; blocks likewise. */
function threadsOf(grid: { x: number; y: number; z: number }, block: { x: number; y: number; z: number }) {
  const out: { b: [number, number, number]; t: [number, number, number] }[] = [];
  for (let bz = 0; bz < grid.z; bz++)
    for (let by = 0; by < grid.y; by++)
      for (let bx = 0; bx < grid.x; bx++)
        for (let tz = 0; tz < block.z; tz++)
          for (let ty = 0; ty < block.y; ty++) for (let tx = 0; tx < block.x; tx++) out.push({ b: [bx, by, bz], t: [tx, ty, tz] });
  return out;
}

const RECORD = cu`
__global__ void record(int* out)
{
    int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int local = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int id = block * (blockDim.x * blockDim.y * blockDim.z) + local;
    int* r = out + 12 * id;
    r[0] = threadIdx.x; r[1] = threadIdx.y; r[2] = threadIdx.z;
    r[3] = blockIdx.x;  r[4] = blockIdx.y;  r[5] = blockIdx.z;
    r[6] = blockDim.x;  r[7] = blockDim.y;  r[8] = blockDim.z;
    r[9] = gridDim.x;   r[10] = gridDim.y;  r[11] = gridDim.z;
}
`;

g.test('index_variables', SPEC)
  .params([
    { dims: '1-D', gx: 3, gy: 1, gz: 1, bx: 40, by: 1, bz: 1 },
    { dims: '2-D', gx: 3, gy: 2, gz: 1, bx: 4, by: 3, bz: 1 },
    { dims: '3-D', gx: 2, gy: 2, gz: 2, bx: 2, by: 3, bz: 4 },
    { dims: '3-D, one block', gx: 1, gy: 1, gz: 1, bx: 4, by: 4, bz: 4 },
  ])
  .run((p) => {
    const grid = dim3(p.gx, p.gy, p.gz);
    const block = dim3(p.bx, p.by, p.bz);
    const all = threadsOf(grid, block);
    return {
      from: 'reference',
      source: RECORD,
      kernel: 'record',
      launch: { grid, block },
      args: { out: new Int32Array(12 * all.length) },
      expect: { out: all.flatMap(({ b, t }) => [...t, ...b, p.bx, p.by, p.bz, p.gx, p.gy, p.gz]) },
    };
  });

g.test('matrix_indexing_2d_partial_blocks', `${SPEC}: row/column from a 2-D grid that overhangs the matrix`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void fillMatrix(int* m, int width, int height)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < height && col < width) {
        m[row * width + col] = row * 1000 + col;
    }
}
`,
  kernel: 'fillMatrix',
  launch: { grid: dim3(3, 2), block: dim3(4, 4) },
  args: { m: new Int32Array(60), width: 10, height: 6 },
  expect: { m: iota(60).map((k) => Math.floor(k / 10) * 1000 + (k % 10)) },
}));

g.test('grid_stride_loop', `${SPEC}: gridDim.x * blockDim.x as the stride`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void scaleAll(float* v, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        v[i] = v[i] * 2.0f + 1.0f;
    }
}
`,
  kernel: 'scaleAll',
  launch: { grid: dim3(2), block: dim3(64) },
  args: { v: Float32Array.from(iota(1000)), n: 1000 },
  expect: { v: iota(1000).map((i) => 2 * i + 1) },
}));

g.test('warp_size', `${SPEC}: warpSize is 32`).run(() => ({
  from: 'literal',
  source: cu`
__global__ void warps(int* out)
{
    int t = threadIdx.x;
    out[3 * t] = warpSize;
    out[3 * t + 1] = t / warpSize;
    out[3 * t + 2] = t % warpSize;
}
`,
  kernel: 'warps',
  launch: { grid: dim3(1), block: dim3(96) },
  args: { out: new Int32Array(288) },
  expect: { out: iota(96).flatMap((t) => [32, Math.floor(t / 32), t % 32]) },
}));

g.test('dim3_locals', `${SPEC}, dim3: unspecified components are 1`).run(() => ({
  from: 'literal',
  source: cu`
__global__ void dims(unsigned int* out)
{
    dim3 a(4, 2);
    dim3 b;
    dim3 c(7);
    dim3 d = dim3(2, 3, 5);
    out[0] = a.x; out[1] = a.y; out[2] = a.z;
    out[3] = b.x; out[4] = b.y; out[5] = b.z;
    out[6] = c.x; out[7] = c.y; out[8] = c.z;
    out[9] = d.x * d.y * d.z;
}
`,
  kernel: 'dims',
  launch: { grid: dim3(1), block: dim3(1) },
  args: { out: new Uint32Array(10) },
  expect: { out: [4, 2, 1, 1, 1, 1, 7, 1, 1, 30] },
}));

g.test('uint3_copy_of_threadIdx', `${SPEC}: threadIdx and blockIdx are uint3`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void copyIdx(unsigned int* out)
{
    uint3 t = threadIdx;
    uint3 b = blockIdx;
    out[b.x * 8 + t.y * 4 + t.x] = t.x + 10 * t.y + 100 * b.x;
}
`,
  kernel: 'copyIdx',
  launch: { grid: dim3(2), block: dim3(4, 2) },
  args: { out: new Uint32Array(16) },
  expect: { out: iota(16).map((k) => (k % 4) + 10 * (Math.floor(k / 4) % 2) + 100 * Math.floor(k / 8)) },
}));

g.test('unsigned_arithmetic_of_indices', `${SPEC}: the components are unsigned int, so threadIdx.x - 1 wraps at 0`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void wrapIdx(unsigned int* wrapped, int* asInt)
{
    int t = threadIdx.x;
    wrapped[t] = threadIdx.x - 1;
    asInt[t] = (threadIdx.x - 1 < 4) ? 1 : 0;
}
`,
  kernel: 'wrapIdx',
  launch: { grid: dim3(1), block: dim3(8) },
  args: { wrapped: new Uint32Array(8), asInt: new Int32Array(8) },
  expect: { wrapped: iota(8).map((t) => (t - 1) >>> 0), asInt: iota(8).map((t) => (((t - 1) >>> 0) < 4 ? 1 : 0)) },
}));

const ASSIGN = cu`
__global__ void k(int* out)
{
    threadIdx.x = 0;
    out[0] = 1;
}
`;
g.test('builtin_is_read_only', `${SPEC}: built-in variables cannot be assigned`).error(() => ({
  source: ASSIGN,
  error: { ...at(ASSIGN, 'threadIdx.x ='), includes: ['threadIdx'] },
}));

const MEMBER = cu`
__global__ void k(int* out)
{
    out[0] = blockIdx.w;
}
`;
g.test('builtin_has_no_such_member', `${SPEC}: uint3 has members x, y, z`).error(() => ({
  source: MEMBER,
  error: { ...at(MEMBER, 'w;'), includes: ['w'] },
}));
