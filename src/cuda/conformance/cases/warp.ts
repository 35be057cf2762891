/**
 * §2 Warp functions on 32-lane warps: the __shfl_*_sync family (with width), __ballot_sync,
 * __any_sync, __all_sync, __activemask under divergence (Programming Guide §"Warp Shuffle
 * Functions", §"Warp Vote Functions"). Warps are consecutive linear thread indices
 * (x fastest, then y, z), 32 at a time. The references below model one warp as an array.
 */
import { dim3, group, iota, seeded } from '../harness.ts';
import { at, cu } from './source.ts';

export const g = group('warp');
const SHFL = 'CUDA Programming Guide, Warp Shuffle Functions';
const VOTE = 'CUDA Programming Guide, Warp Vote Functions';
const WARP = 32;

/** Applies `f(lane, laneValues)` to each warp of `values` (linear thread order). */
function perWarp(values: readonly number[], f: (lane: number, warp: readonly number[]) => number): number[] {
  return values.map((_, i) => {
    const base = i - (i % WARP);
    return f(i % WARP, values.slice(base, base + WARP));
  });
}
function shfl(v: readonly number[], lane: number, src: number, width: number): number {
  return v[lane - (lane % width) + (((src % width) + width) % width)]!;
}
function shflUp(v: readonly number[], lane: number, delta: number, width: number): number {
  return lane % width < delta ? v[lane]! : v[lane - delta]!;
}
function shflDown(v: readonly number[], lane: number, delta: number, width: number): number {
  return (lane % width) + delta >= width ? v[lane]! : v[lane + delta]!;
}
function shflXor(v: readonly number[], lane: number, mask: number, width: number): number {
  const src = lane ^ mask;
  return src >= lane - (lane % width) + width ? v[lane]! : v[src]!;
}

const INPUT = seeded(64, 11, (r) => (r % 1000) - 500);
const args = (T = 'int') => ({
  in: T === 'float' ? Float32Array.from(INPUT, (v) => v / 4) : Int32Array.from(INPUT),
  out: T === 'float' ? new Float32Array(64) : new Int32Array(64),
});
const launch = { grid: dim3(1), block: dim3(64) };

function shuffleKernel(call: string, T = 'int'): string {
  return cu`
__global__ void shuffle(const ${T}* in, ${T}* out)
{
    int t = threadIdx.x;
    int lane = t % 32;
    ${T} v = in[t];
    out[t] = ${call};
}
`;
}

const SHUFFLES: { name: string; call: string; ref: (lane: number, w: readonly number[]) => number }[] = [
  { name: 'shfl broadcast lane 0', call: '__shfl_sync(0xffffffff, v, 0)', ref: (l, w) => shfl(w, l, 0, 32) },
  { name: 'shfl rotate', call: '__shfl_sync(0xffffffff, v, (lane + 1) % 32)', ref: (l, w) => shfl(w, l, (l + 1) % 32, 32) },
  { name: 'shfl srcLane beyond width wraps', call: '__shfl_sync(0xffffffff, v, lane + 37)', ref: (l, w) => shfl(w, l, l + 37, 32) },
  { name: 'shfl width 8', call: '__shfl_sync(0xffffffff, v, 3, 8)', ref: (l, w) => shfl(w, l, 3, 8) },
  { name: 'shfl width 16 reversed', call: '__shfl_sync(0xffffffff, v, 15 - lane % 16, 16)', ref: (l, w) => shfl(w, l, 15 - (l % 16), 16) },
  { name: 'shfl_up 1', call: '__shfl_up_sync(0xffffffff, v, 1)', ref: (l, w) => shflUp(w, l, 1, 32) },
  { name: 'shfl_up 3 width 16', call: '__shfl_up_sync(0xffffffff, v, 3, 16)', ref: (l, w) => shflUp(w, l, 3, 16) },
  { name: 'shfl_down 16', call: '__shfl_down_sync(0xffffffff, v, 16)', ref: (l, w) => shflDown(w, l, 16, 32) },
  { name: 'shfl_down 2 width 8', call: '__shfl_down_sync(0xffffffff, v, 2, 8)', ref: (l, w) => shflDown(w, l, 2, 8) },
  { name: 'shfl_xor 1', call: '__shfl_xor_sync(0xffffffff, v, 1)', ref: (l, w) => shflXor(w, l, 1, 32) },
  { name: 'shfl_xor 16', call: '__shfl_xor_sync(0xffffffff, v, 16)', ref: (l, w) => shflXor(w, l, 16, 32) },
  { name: 'shfl_xor 4 width 8', call: '__shfl_xor_sync(0xffffffff, v, 4, 8)', ref: (l, w) => shflXor(w, l, 4, 8) },
];

g.test('shuffle', SHFL)
  .params(SHUFFLES.map((s) => ({ call: s.name })))
  .run(({ call }) => {
    const s = SHUFFLES.find((q) => q.name === call)!;
    return {
      from: 'reference',
      source: shuffleKernel(s.call),
      kernel: 'shuffle',
      launch,
      args: args(),
      expect: { out: perWarp(INPUT, s.ref) },
      warp: true,
      info: { usesWarpFunctions: true },
    };
  });

g.test('shuffle_float', `${SHFL}: float values move bit for bit`).run(() => ({
  from: 'reference',
  source: shuffleKernel('__shfl_xor_sync(0xffffffff, v, 3)', 'float'),
  kernel: 'shuffle',
  launch,
  args: args('float'),
  expect: { out: perWarp(INPUT, (l, w) => shflXor(w, l, 3, 32) / 4) },
  warp: true,
}));

g.test('warp_reduce_down', `${SHFL}: the shfl_down tree; lane 0 holds the warp's sum`).run(() => ({
  from: 'reference',
  source: cu`
__device__ int warpSum(int v)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffff, v, offset);
    }
    return v;
}

__global__ void sums(const int* in, int* out)
{
    int t = threadIdx.x;
    int s = warpSum(in[t]);
    if (t % 32 == 0) out[t / 32] = s;
}
`,
  kernel: 'sums',
  launch,
  args: { in: Int32Array.from(INPUT), out: new Int32Array(2) },
  expect: { out: [0, 1].map((w) => INPUT.slice(32 * w, 32 * w + 32).reduce((a, b) => a + b, 0)) },
  warp: true,
}));

g.test('warp_allreduce_xor', `${SHFL}: the butterfly; every lane holds the warp's sum`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void allSums(const int* in, int* out)
{
    int v = in[threadIdx.x];
    #pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1) {
        v += __shfl_xor_sync(0xffffffff, v, mask);
    }
    out[threadIdx.x] = v;
}
`,
  kernel: 'allSums',
  launch,
  args: args(),
  expect: { out: iota(64).map((i) => INPUT.slice(i - (i % 32), i - (i % 32) + 32).reduce((a, b) => a + b, 0)) },
  warp: true,
}));

/** The shfl_up scan of one warp as CUDA programs write it, on values of type T. */
const inclusiveScanKernel = (T: string): string => cu`
__global__ void scan(const ${T}* in, ${T}* out)
{
    int lane = threadIdx.x & 31;
    ${T} v = in[threadIdx.x];
    for (int d = 1; d < 32; d *= 2) {
        ${T} n = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d) v += n;
    }
    out[threadIdx.x] = v;
}
`;

g.test('warp_inclusive_scan_up', `${SHFL}: the shfl_up scan (Hillis–Steele within a warp)`).run(() => ({
  from: 'reference',
  source: inclusiveScanKernel('int'),
  kernel: 'scan',
  launch,
  args: args(),
  expect: { out: iota(64).map((i) => INPUT.slice(i - (i % 32), i + 1).reduce((a, b) => a + b, 0)) },
  warp: true,
}));

/**
 * The Kogge–Stone scan as CUDA defines it, one round at a time: `up` is lane − d's value (its own
 * below d, Programming Guide: "the source lane index will not wrap around"), added where the
 * kernel's own `lane` (not necessarily the warp lane) is at least d. `lanes` gives that `lane` for
 * each thread of a warp, in linear order.
 */
function koggeStone(values: readonly number[], lanes: (i: number) => number, wrap: (x: number) => number): number[] {
  let v = [...values];
  for (let d = 1; d < WARP; d *= 2) {
    v = v.map((x, i) => {
      const l = i % WARP;
      const up = l >= d ? v[i - d]! : x;
      return lanes(i) >= d ? wrap(x + up) : x;
    });
  }
  return v;
}
const U32_INPUT = seeded(64, 29, (r) => (r * 2654435761) >>> 0);

g.test('warp_inclusive_scan_unsigned_wraps', `${SHFL}: the shfl_up scan of unsigned values whose sums pass 2^32 (they wrap), lane as t % 32, the counter doubled by <<=`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void scan(const unsigned int* in, unsigned int* out)
{
    unsigned int t = threadIdx.x;
    unsigned int lane = t % 32;
    unsigned int v = in[t];
    for (unsigned int d = 1; d <= 16; d <<= 1) {
        unsigned int up = __shfl_up_sync(0xffffffff, v, d);
        if (d <= lane) v = v + up;
    }
    out[t] = v;
}
`,
  kernel: 'scan',
  launch,
  args: { in: Uint32Array.from(U32_INPUT), out: new Uint32Array(64) },
  expect: { out: koggeStone(U32_INPUT, (i) => i % WARP, (x) => x >>> 0) },
  warp: true,
}));

g.test('warp_inclusive_scan_lane_is_not_the_warp_lane', `${SHFL}; SIMT Architecture: in a 16 × 4 block, threadIdx.x % 32 is not the lane for odd rows (a warp is two rows): the scan adds where the kernel's lane says, and shuffles by the warp's lanes`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void scan(const int* in, int* out)
{
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[t];
    for (int d = 1; d < 32; d *= 2) {
        int up = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d) v += up;
    }
    out[t] = v;
}
`,
  kernel: 'scan',
  launch: { grid: dim3(1), block: dim3(16, 4) },
  args: args(),
  expect: { out: koggeStone(INPUT, (i) => i % 16, (x) => x | 0) },
  warp: true,
}));

g.test('warp_inclusive_scan_float', `${SHFL}: the shfl_up scan of floats, in the order the rounds add (values exact in f32)`).run(() => ({
  from: 'reference',
  source: inclusiveScanKernel('float'),
  kernel: 'scan',
  launch,
  args: args('float'),
  expect: { out: koggeStone(INPUT.map((v) => v / 4), (i) => i % WARP, Math.fround) },
  warp: true,
}));

g.test('warp_allreduce_xor_ascending', `${SHFL}: the butterfly with offsets 1, 2, … 16 on unsigned values (wrapping): every lane holds the warp's sum`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void allSums(const unsigned int* in, unsigned int* out)
{
    unsigned int v = in[threadIdx.x];
    for (int d = 1; d < warpSize; d = d * 2) v = __shfl_xor_sync(0xffffffff, v, d) + v;
    out[threadIdx.x] = v;
}
`,
  kernel: 'allSums',
  launch,
  args: { in: Uint32Array.from(U32_INPUT), out: new Uint32Array(64) },
  expect: { out: iota(64).map((i) => U32_INPUT.slice(i - (i % 32), i - (i % 32) + 32).reduce((a, b) => (a + b) >>> 0, 0)) },
  warp: true,
}));

g.test('warps_of_a_2d_block', 'CUDA Programming Guide, SIMT Architecture: warps take consecutive linear thread IDs (x fastest)').run(() => ({
  from: 'reference',
  source: cu`
__global__ void firstOfWarp(int* out)
{
    int linear = threadIdx.y * blockDim.x + threadIdx.x;
    out[linear] = __shfl_sync(0xffffffff, linear * 10 + threadIdx.y, 0);
}
`,
  kernel: 'firstOfWarp',
  launch: { grid: dim3(1), block: dim3(8, 8) },
  args: { out: new Int32Array(64) },
  expect: { out: iota(64).map((i) => { const base = i - (i % 32); return base * 10 + Math.floor(base / 8); }) },
  warp: true,
}));

g.test('ballot', `${VOTE}, __ballot_sync: bit N is lane N's predicate`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void ballots(const int* in, unsigned int* out, int* counts)
{
    int t = threadIdx.x;
    unsigned int b = __ballot_sync(0xffffffff, in[t] % 3 == 0);
    out[t] = b;
    counts[t] = __popc(b);
}
`,
  kernel: 'ballots',
  launch,
  args: { in: Int32Array.from(INPUT), out: new Uint32Array(64), counts: new Int32Array(64) },
  expect: {
    out: perWarp(INPUT, (_l, w) => w.reduce((m, v, k) => (v % 3 === 0 ? m | (1 << k) : m), 0) >>> 0),
    counts: perWarp(INPUT, (_l, w) => w.filter((v) => v % 3 === 0).length),
  },
  warp: true,
}));

g.test('any_all', `${VOTE}, __any_sync and __all_sync`)
  .params([
    { fn: '__any_sync', pred: 'v > 450' },
    { fn: '__any_sync', pred: 'v > 10000' },
    { fn: '__all_sync', pred: 'v > -10000' },
    { fn: '__all_sync', pred: 'v > -450' },
  ])
  .run(({ fn, pred }) => {
    const limit = Number(pred.split('>')[1]);
    return {
      from: 'reference',
      source: cu`
__global__ void vote(const int* in, int* out)
{
    int v = in[threadIdx.x];
    out[threadIdx.x] = ${fn}(0xffffffff, ${pred}) ? 1 : 0;
}
`,
      kernel: 'vote',
      launch,
      args: args(),
      expect: { out: perWarp(INPUT, (_l, w) => (fn === '__any_sync' ? w.some((v) => v > limit) : w.every((v) => v > limit)) ? 1 : 0) },
      warp: true,
    };
  });

g.test('activemask_under_divergence', `${VOTE}, __activemask: the lanes executing the call`).run(() => ({
  from: 'literal',
  source: cu`
__global__ void masks(unsigned int* out)
{
    int lane = threadIdx.x % 32;
    unsigned int m;
    if (lane < 10) {
        m = __activemask();
    } else {
        m = __activemask();
    }
    out[threadIdx.x] = m;
}
`,
  kernel: 'masks',
  launch,
  args: { out: new Uint32Array(64) },
  expect: { out: iota(64).map((i) => (i % 32 < 10 ? 0x3ff : 0xfffffc00)) },
  warp: true,
}));

g.test('activemask_partial_warp', `${VOTE}: a 48-thread block has a second warp of 16 lanes`).run(() => ({
  from: 'literal',
  source: cu`
__global__ void partial(unsigned int* out)
{
    out[threadIdx.x] = __activemask();
}
`,
  kernel: 'partial',
  launch: { grid: dim3(1), block: dim3(48) },
  args: { out: new Uint32Array(48) },
  expect: { out: iota(48).map((i) => (i < 32 ? 0xffffffff : 0xffff)) },
  warp: true,
}));

g.test('ballot_in_divergent_branch', `${VOTE}: __ballot_sync(__activemask(), …) over the odd lanes only`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void oddBallot(const int* in, unsigned int* out)
{
    int t = threadIdx.x;
    unsigned int r = 0;
    if (t % 2 == 1) {
        r = __ballot_sync(__activemask(), in[t] > 0);
    }
    out[t] = r;
}
`,
  kernel: 'oddBallot',
  launch,
  args: { in: Int32Array.from(INPUT), out: new Uint32Array(64) },
  expect: {
    out: perWarp(INPUT, (l, w) => (l % 2 === 1 ? w.reduce((m, v, k) => (k % 2 === 1 && v > 0 ? m | (1 << k) : m), 0) >>> 0 : 0)),
  },
  warp: true,
}));

g.test('shuffle_with_partial_mask', `${SHFL}: the lower half-warp shuffles among itself, mask 0x0000ffff`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void halfShuffle(const int* in, int* out)
{
    int t = threadIdx.x;
    int lane = t % 32;
    int v = in[t];
    if (lane < 16) {
        v = __shfl_sync(0x0000ffff, v, (lane + 5) % 16);
    }
    out[t] = v;
}
`,
  kernel: 'halfShuffle',
  launch,
  args: args(),
  expect: { out: perWarp(INPUT, (l, w) => (l < 16 ? w[(l + 5) % 16]! : w[l]!)) },
  warp: true,
}));

g.test('syncwarp_with_mask', `${SHFL}; __syncwarp(mask) between shared-memory steps of a warp`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void warpShift(const int* in, int* out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncwarp(0xffffffff);
    int lane = t % 32;
    int v = s[t - lane + (lane + 31) % 32];
    __syncwarp(0xffffffff);
    out[t] = v;
}
`,
  kernel: 'warpShift',
  launch,
  args: args(),
  expect: { out: perWarp(INPUT, (l, w) => w[(l + 31) % 32]!) },
  warp: true,
}));

// ---- errors: the pre-Volta forms without a mask are gone from CUDA 9 on

const OLD_SHFL = cu`
__global__ void k(const int* in, int* out)
{
    int v = in[threadIdx.x];
    out[threadIdx.x] = __shfl(v, 0);
}
`;
g.test('shfl_without_sync_removed', `${SHFL}: __shfl was removed; use __shfl_sync(0xffffffff, …)`).error(() => ({
  source: OLD_SHFL,
  error: { ...at(OLD_SHFL, '__shfl'), includes: ['__shfl', '__shfl_sync'] },
}));

const OLD_BALLOT = cu`
__global__ void k(const int* in, unsigned int* out)
{
    out[threadIdx.x] = __ballot(in[threadIdx.x] > 0);
}
`;
g.test('ballot_without_sync_removed', `${VOTE}: __ballot was removed; use __ballot_sync`).error(() => ({
  source: OLD_BALLOT,
  error: { ...at(OLD_BALLOT, '__ballot'), includes: ['__ballot', '__ballot_sync'] },
}));

const OLD_ANY = cu`
__global__ void k(const int* in, int* out)
{
    out[threadIdx.x] = __any(in[threadIdx.x] > 0);
}
`;
g.test('any_without_sync_removed', `${VOTE}: __any was removed; use __any_sync`).error(() => ({
  source: OLD_ANY,
  error: { ...at(OLD_ANY, '__any'), includes: ['__any', '__any_sync'] },
}));
