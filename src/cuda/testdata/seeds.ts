/**
 * The kernels of the five course posts (`../shared/seeds/*.txt`), read from the posts themselves
 * at test time (never copied into this repository): each case names the lines of its program in
 * the post, the launch its post uses (at a size the simulator replays quickly), its inputs and a
 * CPU reference written from the post's description. Where the post's text cannot compile, the
 * case records the smallest fix and the diagnostic that names the problem (see docs/cuda.md).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { KernelArg, LaunchConfig } from '../types.ts';

const CANDIDATES = ['../shared/seeds', '../../shared/seeds', '/work/shared/seeds'];

export function seedsDir(): string {
  const dir = CANDIDATES.map((c) => path.resolve(process.cwd(), c)).find((d) => existsSync(d));
  if (!dir) throw new Error(`the course posts (seeds) were not found in ${CANDIDATES.join(', ')}`);
  return dir;
}

/** Lines `from`..`to` (1-based, inclusive) of the post whose file name starts with `seed`. */
export function seedLines(seed: string, from: number, to: number): string {
  const dir = seedsDir();
  const file = readdirSync(dir).find((f) => f.startsWith(seed));
  if (!file) throw new Error(`no post ${seed} in ${dir}`);
  return readFileSync(path.join(dir, file), 'utf8').split('\n').slice(from - 1, to).join('\n');
}

/** Puts back the line break after each `// comment` that the post printed on one line with code. */
export function restoreLineBreaks(text: string, comments: readonly string[]): string {
  let t = text;
  for (const c of comments) t = t.split(`// ${c}`).join(`// ${c}\n`);
  return t;
}

const dim = (x: number, y = 1, z = 1): { x: number; y: number; z: number } => ({ x, y, z });

/** A deterministic input: the same numbers on every run (xorshift32). */
export function ints(n: number, seed: number, mod: number, offset = 0): Int32Array {
  let s = seed >>> 0 || 1;
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    a[i] = (s % mod) + offset;
  }
  return a;
}

export interface SeedCase {
  /** A name for the test and the docs. */
  readonly id: string;
  readonly post: string;
  readonly seed: string;
  readonly lines: readonly [number, number];
  /** The smallest change that makes the post's text compile, when it needs one, and why. */
  readonly fix?: { readonly apply: (text: string) => string; readonly why: string };
  readonly kernel: string;
  readonly config: LaunchConfig;
  readonly args: () => Record<string, KernelArg>;
  /** The outputs a correct run gives, from a CPU loop. */
  readonly expected: (args: Record<string, KernelArg>) => Record<string, ArrayLike<number>>;
  /** Warnings the translation must give (substrings). */
  readonly warnings?: readonly string[];
  /** The lab the kernel opens in (docs/cuda.md). */
  readonly lab: string;
  /**
   * The same kernel at a block of at most 256 threads, for adapters with WebGPU's default limit
   * (SwiftShader's) when the post's block is larger.
   */
  readonly narrow?: Pick<SeedCase, 'config' | 'args' | 'expected'>;
}

/** Largest block every WebGPU adapter runs (the default `maxComputeInvocationsPerWorkgroup`). */
export const DEFAULT_MAX_THREADS = 256;

const blockSums = (a: ArrayLike<number>, block: number): number[] =>
  Array.from({ length: Math.ceil(a.length / block) }, (_, b) => Array.from(a).slice(b * block, (b + 1) * block).reduce((s, v) => s + v, 0));

const inclusiveScan = (a: ArrayLike<number>): number[] => {
  let s = 0;
  return Array.from(a, (v) => (s += v));
};

const COMMENTS_001 = [
  'set thread ID',
  'convert global data pointer to the local pointer of this block',
  'boundary check',
  'in-place reduction in global memory',
  'synchronize within block',
  'synchronize within threadblock',
  'write result for this block to global mem',
  'convert tid into local array index',
];

/** top-k of seed 002: the 20 largest distinct values, largest first, INT_MIN where fewer. */
function topDistinct(values: Iterable<number>, k: number): number[] {
  const s = [...new Set(values)].sort((a, b) => b - a).slice(0, k);
  while (s.length < k) s.push(-2147483648);
  return s;
}

export const SEED_CASES: readonly SeedCase[] = [
  {
    id: 'reduce: global memory (000)', post: '000', seed: '000', lines: [21, 202], kernel: 'global_reduce_kernel', lab: 'reduce',
    config: { grid: dim(4), block: dim(64) },
    args: () => ({ d_out: new Float32Array(4), d_in: Float32Array.from(ints(256, 7, 100)) }),
    expected: (a) => ({ d_out: blockSums(a.d_in as Float32Array, 64) }),
  },
  {
    id: 'reduce: shared memory, extern __shared__ (000)', post: '000', seed: '000', lines: [21, 202], kernel: 'shmem_reduce_kernel', lab: 'reduce',
    config: { grid: dim(4), block: dim(64), sharedBytes: 64 * 4 },
    args: () => ({ d_out: new Float32Array(4), d_in: Float32Array.from(ints(256, 8, 100)) }),
    expected: (a) => ({ d_out: blockSums(a.d_in as Float32Array, 64) }),
  },
  {
    id: 'scan: global memory, sizeof(pointer) bound (000)', post: '000', seed: '000', lines: [212, 301], kernel: 'global_scan', lab: 'scan',
    config: { grid: dim(1), block: dim(8) },
    args: () => ({ d_out: new Float32Array(8), d_in: Float32Array.from([0, 1, 2, 3, 4, 5, 6, 7]) }),
    expected: (a) => ({ d_out: inclusiveScan(a.d_in as Float32Array) }),
    warnings: ['sizeof(d_in) is the size of the pointer', 'sizeof(sdata) is 32 bytes, not the 8 elements'],
  },
  {
    id: 'scan: shared memory, sizeof(array) bound (000)', post: '000', seed: '000', lines: [212, 301], kernel: 'shared_scan', lab: 'scan',
    config: { grid: dim(1), block: dim(8) },
    args: () => ({ d_out: new Float32Array(8), d_in: Float32Array.from([3, 1, 4, 1, 5, 9, 2, 6]) }),
    expected: (a) => ({ d_out: inclusiveScan(a.d_in as Float32Array) }),
    warnings: ['sizeof(sdata) is 32 bytes'],
  },
  {
    id: 'divergence: neighbored pairs, less divergence (001)', post: '001', seed: '001', lines: [36, 36], kernel: 'reduceNeighboredLess', lab: 'reduce',
    fix: { apply: (t) => restoreLineBreaks(t, COMMENTS_001), why: 'the post printed the kernel on one line, so each // comment hides the code after it; the line breaks after the comments are put back' },
    ...atBlock(512, (b) => ({
      config: { grid: dim(2), block: dim(b) },
      args: () => ({ g_idata: ints(2 * b, 11, 256), g_odata: new Int32Array(2), n: 2 * b }),
      expected: (a) => ({ g_odata: blockSums(a.g_idata as Int32Array, b) }),
    })),
  },
  {
    id: 'divergence: interleaved pairs (001)', post: '001', seed: '001', lines: [55, 55], kernel: 'reduceInterleaved', lab: 'reduce',
    fix: { apply: (t) => restoreLineBreaks(t.replace('/// Interleaved Pair Implementation with less divergence', '/// Interleaved Pair Implementation with less divergence\n'), COMMENTS_001), why: 'one line in the post: the line breaks after the comments are put back' },
    ...atBlock(512, (b) => ({
      config: { grid: dim(2), block: dim(b) },
      args: () => ({ g_idata: ints(2 * b, 12, 256), g_odata: new Int32Array(2), n: 2 * b }),
      expected: (a) => ({ g_odata: blockSums(a.g_idata as Int32Array, b) }),
    })),
  },
  {
    id: 'top-k, first pass (002)', post: '002', seed: '002', lines: [7, 187], kernel: 'top_k', lab: 'topk',
    config: { grid: dim(2), block: dim(256) },
    args: () => ({ input: ints(1024, 21, 5000), length: 1024, output: new Int32Array(40), k: 20 }),
    expected: (a) => {
      const input = a.input as Int32Array;
      const out: number[] = [];
      for (let b = 0; b < 2; b++) {
        const mine: number[] = [];
        for (let t = 0; t < 256; t++) for (let i = t + 256 * b; i < input.length; i += 512) mine.push(input[i]!);
        out.push(...topDistinct(mine, 20));
      }
      return { output: out };
    },
  },
  {
    id: 'matrix add, 2-D indexing (003)', post: '003', seed: '003', lines: [594, 689], kernel: 'matrix_addition', lab: 'basics',
    ...atBlock(1024, (b) => {
      const side = Math.sqrt(b);
      return {
        config: { grid: dim(Math.ceil(40 / side), Math.ceil(20 / side)), block: dim(side, side) },
        args: () => ({ A: ints(40 * 20, 31, 1000), B: ints(40 * 20, 32, 1000), C: new Int32Array(800), height: 20, width: 40 }),
        expected: (a) => ({ C: Array.from(a.A as Int32Array, (v, i) => v + (a.B as Int32Array)[i]!) }),
      };
    }),
  },
  {
    id: 'tiled matrix multiply in shared memory (003)', post: '003', seed: '003', lines: [693, 831], kernel: 'matrix_addition', lab: 'matmul',
    config: { grid: dim(1, 1), block: dim(16, 16) },
    args: () => ({ A: ints(2047 * 16, 41, 4), B: ints(16 * 2047, 42, 4), C: new Int32Array(256), height: 16, width: 16 }),
    expected: (a) => {
      const A = a.A as Int32Array;
      const B = a.B as Int32Array;
      const C: number[] = [];
      for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) {
        let s = 0;
        for (let k = 0; k < 2047; k++) s += B[y * 2047 + k]! * A[k * 16 + x]!;
        C.push(s);
      }
      return { C };
    },
  },
  {
    id: 'histogram, global atomics (003)', post: '003', seed: '003', lines: [835, 888], kernel: 'histo_kernel', lab: 'histogram',
    config: { grid: dim(2), block: dim(256) },
    args: () => ({ buffer: Uint8Array.from(ints(1024, 51, 40, 90)), size: 1024, histo: new Uint32Array(7) }),
    expected: (a) => ({ histo: histogram(a.buffer as Uint8Array) }),
    warnings: ["'long' is 64 bits in CUDA but computed in 32 bits here"],
  },
  {
    id: 'histogram, privatized in shared memory (003)', post: '003', seed: '003', lines: [892, 957], kernel: 'histo_kernel', lab: 'histogram',
    config: { grid: dim(2), block: dim(256) },
    args: () => ({ buffer: Uint8Array.from(ints(1024, 52, 40, 90)), size: 1024, histo: new Uint32Array(7) }),
    expected: (a) => ({ histo: histogram(a.buffer as Uint8Array) }),
  },
  {
    id: 'convolution 2-D with ghost cells (003)', post: '003', seed: '003', lines: [961, 1042], kernel: 'convolution_2D_basic_kernel', lab: 'convolution',
    config: { grid: dim(2, 2), block: dim(16, 16) },
    args: () => ({ in: Uint32Array.from(ints(24 * 20, 61, 10)), mask: Uint32Array.from(ints(25, 62, 3)), out: new Uint32Array(24 * 20), maskwidth: 5, w: 24, h: 20 }),
    expected: (a) => ({ out: conv2d(a.in as Uint32Array, a.mask as Uint32Array, 5, 24, 20, 5) }),
  },
  {
    id: 'convolution 2-D tiled with halo, mask row stride fixed (003)', post: '003', seed: '003', lines: [1046, 1134], kernel: 'convolution_2D_basic_kernel', lab: 'convolution',
    fix: {
      apply: (t) => t.replace('mask[i * width + j]', 'mask[i * maskwidth + j]').replace('if (row_o < height && col_o < width)', 'if (ty < O_TILE_WIDTH && tx < O_TILE_WIDTH && row_o < height && col_o < width)'),
      why: "two bugs: the post indexes the 5×5 mask with the image's width ('mask[i * width + j]'), reading past the mask (the simulator reports the read as out of bounds), and the threads outside the 12×12 output tile (ty or tx ≥ 12) still write their zero 'value' into the next tile's outputs, a race between blocks that the order of blocks decides. The fix indexes the mask by 'maskwidth' and lets only the tile's threads write",
    },
    config: { grid: dim(2, 2), block: dim(16, 16) },
    args: () => ({ in: Uint32Array.from(ints(24 * 20, 63, 10)), mask: Uint32Array.from(ints(25, 64, 3)), out: new Uint32Array(24 * 20), maskwidth: 5, width: 24, height: 20 }),
    expected: (a) => ({ out: conv2d(a.in as Uint32Array, a.mask as Uint32Array, 5, 24, 20, 5) }),
  },
  {
    id: 'row sums, better reduction (003)', post: '003', seed: '003', lines: [1138, 1225], kernel: 'rowSum', lab: 'rowsum',
    ...atBlock(512, (b) => ({
      config: { grid: dim(2), block: dim(b) },
      args: () => ({ input: ints(4 * b, 71, 100), output: new Int32Array(2), width: 1024 }),
      expected: (a) => ({ output: blockSums(a.input as Int32Array, 2 * b) }),
    })),
  },
  {
    id: 'scan: work-efficient (Brent–Kung), barrier added before the output (003)', post: '003', seed: '003', lines: [1229, 1348], kernel: 'work_efficient_scan_kernel', lab: 'scan',
    fix: { apply: (t) => t.replace('    if (start + blockDim.x + tx < width * width)', '    __syncthreads();\n    if (start + blockDim.x + tx < width * width)'), why: 'the post writes the output right after the last down-sweep step with no __syncthreads(), so a thread can copy an element another warp has not finished: the simulator reports the race on XY. The fix adds the barrier' },
    ...atBlock(512, (b) => ({
      config: { grid: dim(1), block: dim(b) },
      args: () => ({ inputMatrix: ints(2 * b, 81, 10), output: new Int32Array(2 * b), width: 32 }),
      expected: (a) => ({ output: inclusiveScan(a.inputMatrix as Int32Array) }),
    })),
  },
  {
    id: 'vector add, grid-stride loop (004)', post: '004', seed: '004', lines: [34, 80], kernel: 'add', lab: 'basics',
    config: { grid: dim(2), block: dim(256) },
    args: () => ({ x: Float32Array.from(ints(1000, 91, 100)), y: Float32Array.from(ints(1000, 92, 100)), z: new Float32Array(1000), n: 1000 }),
    expected: (a) => ({ z: Array.from(a.x as Float32Array, (v, i) => v + (a.y as Float32Array)[i]!) }),
  },
  {
    id: 'reduction, unoptimized tid % (2*stride) (004)', post: '004', seed: '004', lines: [95, 162], kernel: 'ReductionSum', lab: 'reduce',
    ...atBlock(512, (b) => ({
      config: { grid: dim(4), block: dim(b) },
      args: () => ({ d_a: Float32Array.from(ints(4 * b, 101, 10)), d_partial_sum: new Float32Array(4) }),
      expected: (a) => ({ d_partial_sum: blockSums(a.d_a as Float32Array, b) }),
    })),
  },
];

/** The post's launch (`block` threads), and the same at 256 threads for the narrow adapters. */
function atBlock(block: number, make: (b: number) => Pick<SeedCase, 'config' | 'args' | 'expected'>): Pick<SeedCase, 'config' | 'args' | 'expected' | 'narrow'> {
  return { ...make(block), narrow: make(DEFAULT_MAX_THREADS) };
}

function histogram(buffer: Uint8Array): number[] {
  const h = [0, 0, 0, 0, 0, 0, 0];
  for (const c of buffer) {
    const p = c - 97;
    if (p >= 0 && p < 26) h[Math.floor(p / 4)]!++;
  }
  return h;
}

function conv2d(input: Uint32Array, mask: Uint32Array, mw: number, w: number, h: number, stride: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) {
    let s = 0;
    for (let j = 0; j < mw; j++) for (let k = 0; k < mw; k++) {
      const rr = r - (mw >> 1) + j;
      const cc = c - (mw >> 1) + k;
      if (rr >= 0 && rr < h && cc >= 0 && cc < w) s += input[rr * w + cc]! * mask[j * stride + k]!;
    }
    out.push(s >>> 0);
  }
  return out;
}
