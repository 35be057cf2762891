/**
 * §2 Atomics: atomicAdd/Sub/Min/Max/Exch/CAS/And/Or/Xor/Inc/Dec on int and unsigned int, float
 * atomicAdd, the old value each returns, and a buffer that atomics and plain loads share
 * (Programming Guide §"Atomic Functions"). With contention the order is unspecified, so
 * expectations are order-free: final values, and the multiset of returned old values.
 */
import { dim3, group, iota, type Expected } from '../harness.ts';
import { at, cu } from './source.ts';

export const g = group('atomics');
const ATOMIC = 'CUDA Programming Guide, Atomic Functions';

/** Sorted returned values must equal the sorted `want`. */
function multiset(want: readonly number[], describe: string): Expected {
  const w = [...want].sort((a, b) => a - b);
  return {
    describe,
    check: (actual) => {
      const got = actual.slice(0, w.length).sort((a, b) => a - b);
      const bad = w.findIndex((v, i) => got[i] !== v);
      return bad < 0 ? undefined : `sorted element ${bad} is ${got[bad]}, expected ${w[bad]}`;
    },
  };
}

/**
 * The olds of contended read-modify-writes chain: each old, stepped by its own thread's operation,
 * is another thread's old or the final value. As multisets: {step(t, old_t)} ∪ {start} equals
 * {old_t} ∪ {final}.
 */
function chain(start: number, final: number, step: (t: number, old: number) => number, norm: (x: number) => number): Expected {
  return {
    describe: 'each old value, stepped by its own thread, is another old value or the final one',
    check: (olds) => {
      const a = [...olds.map((o, t) => norm(step(t, o))), norm(start)].sort((x, y) => x - y);
      const b = [...olds.map(norm), norm(final)].sort((x, y) => x - y);
      const bad = a.findIndex((v, i) => v !== b[i]);
      return bad < 0 ? undefined : `stepped olds ${a.slice(Math.max(0, bad - 2), bad + 3).join(',')} vs olds ${b.slice(Math.max(0, bad - 2), bad + 3).join(',')}`;
    },
  };
}

g.test('add_counter_returns_old', `${ATOMIC}, atomicAdd: every thread gets a different old value`)
  .params([{ T: 'int' }, { T: 'unsigned int' }])
  .run(({ T }) => {
    const n = 256;
    const arr = T === 'int' ? Int32Array : Uint32Array;
    return {
      from: 'reference',
      source: cu`
__global__ void take(${T}* counter, ${T}* tickets)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tickets[i] = atomicAdd(&counter[0], 1);
}
`,
      kernel: 'take',
      launch: { grid: dim3(4), block: dim3(64) },
      args: { counter: new arr(1), tickets: new arr(n) },
      expect: { counter: [n], tickets: multiset(iota(n), 'the tickets are 0 … 255 in some order') },
      info: { params: { counter: { atomic: true, access: 'read_write' }, tickets: { atomic: false } } },
    };
  });

g.test('add_unsigned_wraps', `${ATOMIC}, atomicAdd on unsigned int wraps modulo 2^32`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void wrapAdd(unsigned int* v)
{
    atomicAdd(&v[0], 0x10000000u);
}
`,
  kernel: 'wrapAdd',
  launch: { grid: dim3(1), block: dim3(20) },
  args: { v: Uint32Array.from([5]) },
  expect: { v: [(5 + 20 * 0x10000000) % 2 ** 32] },
}));

g.test('sub', `${ATOMIC}, atomicSub`)
  .params([{ T: 'int' }, { T: 'unsigned int' }])
  .run(({ T }) => {
    const norm = (x: number) => (T === 'int' ? x | 0 : x >>> 0);
    return {
    from: 'reference',
    source: cu`
__global__ void drain(${T}* v, ${T}* olds)
{
    ${T} t = threadIdx.x;
    olds[t] = atomicSub(&v[0], t);
}
`,
    kernel: 'drain',
    launch: { grid: dim3(1), block: dim3(64) },
    args: T === 'int' ? { v: Int32Array.from([1000]), olds: new Int32Array(64) } : { v: Uint32Array.from([1000]), olds: new Uint32Array(64) },
    expect: { v: [norm(1000 - 2016)], olds: chain(1000, 1000 - 2016, (t, o) => o - t, norm) },
  };
  });

const MINMAX_INT = [-5, 17, -300, 42, 0, 99, -2, 8];
const MINMAX_UINT = [5, 0x80000000, 0xfffffff0, 7, 0x7fffffff, 100, 3, 0xdeadbeef];
g.test('min_max', `${ATOMIC}, atomicMin/atomicMax compare as the pointee's type`)
  .params([
    { fn: 'atomicMin', T: 'int' },
    { fn: 'atomicMax', T: 'int' },
    { fn: 'atomicMin', T: 'unsigned int' },
    { fn: 'atomicMax', T: 'unsigned int' },
  ])
  .run(({ fn, T }) => {
    const values = T === 'int' ? MINMAX_INT : MINMAX_UINT;
    const start = T === 'int' ? 1 : 0x40000000;
    const final = fn === 'atomicMin' ? Math.min(start, ...values) : Math.max(start, ...values);
    const arr = T === 'int' ? Int32Array : Uint32Array;
    return {
      from: 'reference',
      source: cu`
__global__ void extreme(const ${T}* values, ${T}* result, ${T}* single, ${T}* olds, int n)
{
    int t = threadIdx.x;
    if (t < n) {
        ${fn}(&result[0], values[t]);
        olds[t] = ${fn}(&single[t], values[(t + 1) % n]);
    }
}
`,
      kernel: 'extreme',
      launch: { grid: dim3(1), block: dim3(32) },
      args: { values: arr.from(values), result: arr.from([start]), single: arr.from(values), olds: new arr(8), n: 8 },
      expect: {
        result: [final],
        // Uncontended: each slot keeps the min (max) of itself and its neighbour, and returns itself.
        single: values.map((v, t) => (fn === 'atomicMin' ? Math.min(v, values[(t + 1) % 8]!) : Math.max(v, values[(t + 1) % 8]!))),
        olds: values,
      },
    };
  });

g.test('exch', `${ATOMIC}, atomicExch returns the old value`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void exchange(int* slots, int* olds, int* shared)
{
    int t = threadIdx.x;
    olds[t] = atomicExch(&slots[t], t * 10);
    atomicExch(&shared[0], t + 1);
}
`,
  kernel: 'exchange',
  launch: { grid: dim3(1), block: dim3(64) },
  args: { slots: Int32Array.from(iota(64), (t) => -t), olds: new Int32Array(64), shared: Int32Array.from([0]) },
  expect: {
    slots: iota(64).map((t) => t * 10),
    olds: iota(64).map((t) => -t),
    shared: { describe: 'the last exchange wins: one of 1 … 64', check: ([v]) => (v! >= 1 && v! <= 64 ? undefined : `got ${v}`) },
  },
}));

g.test('cas', `${ATOMIC}, atomicCAS(address, compare, val) stores val only when *address == compare, and returns the old value`)
  .params([{ T: 'int' }, { T: 'unsigned int' }])
  .run(({ T }) => {
    const arr = T === 'int' ? Int32Array : Uint32Array;
    const init = iota(64).map((t) => (t % 2 === 0 ? t : t + 1));
    return {
      from: 'reference',
      source: cu`
__global__ void swapIfEqual(${T}* v, ${T}* olds)
{
    ${T} t = threadIdx.x;
    olds[t] = atomicCAS(&v[t], t, 100u + t);
}
`,
      kernel: 'swapIfEqual',
      launch: { grid: dim3(1), block: dim3(64) },
      args: { v: arr.from(init), olds: new arr(64) },
      expect: { v: iota(64).map((t) => (t % 2 === 0 ? 100 + t : t + 1)), olds: init },
    };
  });

g.test('cas_loop_builds_an_atomic', `${ATOMIC}: an arbitrary atomic (here a multiply) built from an atomicCAS loop`).run(() => ({
  from: 'reference',
  source: cu`
__device__ int atomicMulInt(int* address, int factor)
{
    int old = *address;
    int assumed;
    do {
        assumed = old;
        old = atomicCAS(address, assumed, assumed * factor);
    } while (assumed != old);
    return old;
}

__global__ void product(int* v)
{
    atomicMulInt(&v[0], (threadIdx.x % 3 == 0) ? -1 : 1);
    atomicMulInt(&v[1], threadIdx.x < 10 ? 2 : 1);
}
`,
  kernel: 'product',
  launch: { grid: dim3(1), block: dim3(64) },
  args: { v: Int32Array.from([7, 3]) },
  // 22 of 0 … 63 are multiples of 3: an even number of sign flips.
  expect: { v: [7, 3 * 1024] },
}));

g.test('bitwise', `${ATOMIC}, atomicAnd/atomicOr/atomicXor`)
  .params([
    { fn: 'atomicOr', T: 'unsigned int' },
    { fn: 'atomicAnd', T: 'unsigned int' },
    { fn: 'atomicXor', T: 'unsigned int' },
    { fn: 'atomicOr', T: 'int' },
    { fn: 'atomicAnd', T: 'int' },
    { fn: 'atomicXor', T: 'int' },
  ])
  .run(({ fn, T }) => {
    const operand = (t: number) => (fn === 'atomicAnd' ? ~(1 << t) : fn === 'atomicOr' ? 1 << t : Math.imul(t + 1, 0x9e3779b9));
    const start = fn === 'atomicAnd' ? -1 : 0;
    let v = start;
    for (let t = 0; t < 32; t++) v = fn === 'atomicAnd' ? v & operand(t) : fn === 'atomicOr' ? v | operand(t) : v ^ operand(t);
    const norm = (x: number) => (T === 'int' ? x | 0 : x >>> 0);
    const opText = fn === 'atomicAnd' ? `~(1u << t)` : fn === 'atomicOr' ? `1u << t` : `(t + 1u) * 0x9E3779B9u`;
    return {
      from: 'reference',
      source: cu`
__global__ void bits(${T}* v, ${T}* olds)
{
    unsigned int t = threadIdx.x;
    ${T} operand = (${T})(${opText});
    olds[t] = ${fn}(&v[0], operand);
}
`,
      kernel: 'bits',
      launch: { grid: dim3(1), block: dim3(32) },
      args: T === 'int' ? { v: Int32Array.from([start]), olds: new Int32Array(32) } : { v: Uint32Array.from([start >>> 0]), olds: new Uint32Array(32) },
      expect: {
        v: [norm(v)],
        olds: chain(start, v, (t, o) => (fn === 'atomicAnd' ? o & operand(t) : fn === 'atomicOr' ? o | operand(t) : o ^ operand(t)), norm),
      },
    };
  });

g.test('inc_wraps_at_limit', `${ATOMIC}, atomicInc: ((old >= val) ? 0 : (old + 1))`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void ring(unsigned int* counter, unsigned int* olds)
{
    olds[threadIdx.x] = atomicInc(&counter[0], 9u);
}
`,
  kernel: 'ring',
  launch: { grid: dim3(1), block: dim3(64) },
  args: { counter: new Uint32Array(1), olds: new Uint32Array(64) },
  expect: { counter: [64 % 10], olds: multiset(iota(64).map((k) => k % 10), 'the olds are 0,1,…,9,0,1,… in some order') },
}));

g.test('dec_wraps_at_zero', `${ATOMIC}, atomicDec: (((old == 0) || (old > val)) ? val : (old - 1))`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void countdown(unsigned int* counter, unsigned int* olds, unsigned int* big)
{
    olds[threadIdx.x] = atomicDec(&counter[0], 9u);
    if (threadIdx.x == 0) atomicDec(&big[0], 9u);
}
`,
  kernel: 'countdown',
  launch: { grid: dim3(1), block: dim3(64) },
  args: { counter: new Uint32Array(1), olds: new Uint32Array(64), big: Uint32Array.from([50]) },
  // From 0: 9, 8, …, 0, 9, …: after k steps the value is (−k) mod 10. A value over the limit resets to it.
  expect: { counter: [(10 - (64 % 10)) % 10], olds: multiset(iota(64).map((k) => (10 - (k % 10)) % 10), 'the olds are 0,9,8,…,1,0,9,… in some order'), big: [9] },
}));

g.test('float_add', `${ATOMIC}, atomicAdd(float*, float): the old value, and the sum (exact here, so order-free)`).run(() => {
  const values = iota(256).map((i) => (i % 8) * 0.25);
  const total = values.reduce((a, b) => a + b, 0);
  return {
    from: 'reference',
    source: cu`
__global__ void accumulate(const float* in, float* total, float* olds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    olds[i] = atomicAdd(total, in[i]);
}
`,
    kernel: 'accumulate',
    launch: { grid: dim3(4), block: dim3(64) },
    args: { in: Float32Array.from(values), total: Float32Array.from([1.5]), olds: new Float32Array(256) },
    expect: {
      total: [1.5 + total],
      olds: {
        describe: 'each old is a partial sum: 1.5 plus a multiple of 0.25, below the total',
        check: (olds) => {
          const bad = olds.findIndex((o) => o < 1.5 || o > 1.5 + total || ((o - 1.5) * 4) % 1 !== 0);
          return bad < 0 ? undefined : `olds[${bad}] = ${olds[bad]}`;
        },
      },
    },
    info: { params: { total: { atomic: true }, in: { atomic: false, access: 'read' } } },
  };
});

g.test('shared_memory_histogram', `${ATOMIC}: atomicAdd on __shared__ bins, then on global ones`).run(() => {
  const n = 512;
  const data = Uint32Array.from(iota(n), (i) => (Math.imul(i, 2654435761) >>> 0) % 1000);
  const bins = new Array<number>(8).fill(0);
  for (const v of data) bins[v % 8]!++;
  return {
    from: 'reference',
    source: cu`
__global__ void histogram(const unsigned int* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[8];
    int t = threadIdx.x;
    if (t < 8) local[t] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&local[data[i] % 8], 1u);
    }
    __syncthreads();
    if (t < 8) atomicAdd(&bins[t], local[t]);
}
`,
    kernel: 'histogram',
    launch: { grid: dim3(2), block: dim3(64) },
    args: { data, bins: new Uint32Array(8), n },
    expect: { bins },
  };
});

g.test('atomics_and_plain_access_on_one_buffer', `${ATOMIC}; issue §2: a buffer any atomic touches is atomic throughout, its plain loads and stores too`).run(() => ({
  from: 'reference',
  source: cu`
__global__ void mixed(int* cell, int* out)
{
    int t = threadIdx.x;
    if (t == 0) cell[0] = 5;
    cell[1 + t] = t;
    __syncthreads();
    atomicAdd(&cell[0], 1);
    atomicAdd(&cell[1 + (t + 1) % 64], 100);
    __syncthreads();
    out[t] = cell[0] + cell[1 + t];
}
`,
  kernel: 'mixed',
  launch: { grid: dim3(1), block: dim3(64) },
  args: { cell: new Int32Array(65), out: new Int32Array(64) },
  expect: { out: iota(64).map((t) => 5 + 64 + t + 100), cell: [69, ...iota(64).map((t) => t + 100)] },
  info: { params: { cell: { atomic: true }, out: { atomic: false } } },
}));

g.test('atomic_on_device_global', `${ATOMIC}: atomics on a __device__ variable`).run(() => ({
  from: 'reference',
  source: cu`
__device__ int total = 0;

__global__ void sumInto(const int* in, int* out)
{
    int t = threadIdx.x;
    atomicAdd(&total, in[t]);
    __syncthreads();
    if (t == 0) out[0] = total;
}
`,
  kernel: 'sumInto',
  launch: { grid: dim3(1), block: dim3(64) },
  args: { in: Int32Array.from(iota(64), (t) => t - 20), out: new Int32Array(1) },
  expect: { out: [iota(64).reduce((s, t) => s + t - 20, 0)] },
}));

g.test('compaction_by_returned_index', `${ATOMIC}: atomicAdd's old value as a write position (stream compaction)`).run(() => {
  const input = iota(128).map((i) => (i * 37) % 101);
  const kept = input.filter((v) => v % 3 === 0);
  return {
    from: 'reference',
    source: cu`
__global__ void keepMultiplesOf3(const int* in, int* out, int* count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] % 3 == 0) {
        int pos = atomicAdd(count, 1);
        out[pos] = in[i];
    }
}
`,
    kernel: 'keepMultiplesOf3',
    launch: { grid: dim3(2), block: dim3(64) },
    args: { in: Int32Array.from(input), out: Int32Array.from(iota(128), () => -1), count: new Int32Array(1), n: 128 },
    expect: { count: [kept.length], out: multiset(kept, 'the kept values, in some order') },
  };
});

// ---- errors

const NOT_POINTER = cu`
__global__ void k(int* out)
{
    int x = 0;
    atomicAdd(x, 1);
    out[0] = x;
}
`;
g.test('atomic_needs_an_address', `${ATOMIC}: the first argument is a pointer`).error(() => ({
  source: NOT_POINTER,
  // At the offending argument.
  error: { ...at(NOT_POINTER, 'x, 1'), includes: ['atomicAdd'] },
}));

const ATOMIC_DOUBLE = cu`
__global__ void k(double* sum, const double* v)
{
    atomicAdd(sum, v[threadIdx.x]);
}
`;
g.test('atomic_on_double_outside_subset', 'Issue §2: atomics are on 32-bit integers and float; a double atomicAdd is outside the subset').error(() => ({
  nvccAccepts: true,
  source: ATOMIC_DOUBLE,
  error: { ...at(ATOMIC_DOUBLE, 'atomicAdd'), includes: ['atomicAdd'] },
}));
