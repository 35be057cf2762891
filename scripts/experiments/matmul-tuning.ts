/**
 * The matmul tuning sweep of issue 29: generated register-tiled kernels
 * (scripts/experiments/matmul-kernel-gen.ts) and the shipped ones, each first checked (the whole C
 * against the CPU at small odd shapes, 64 sampled elements at the timed shapes), then timed by
 * `GpuExecutor.time` as `npm run bench` times the matmul ladder (median of the timed passes).
 * Prints figures; never fails on time.
 *
 * Environment: MM_SHAPES (default 4096x4096x4096,1024x1024x1024), MM_ONLY (a regular expression
 * over the case names), MM_REPEATS (default 10), MM_CHECK_ONLY=1 (the small checks alone: for
 * SwiftShader), MM_EMIT=dir (write every generated kernel there and stop), MM_ROUND (1, 2 or 3:
 * which list of generated kernels; default 3), MM_FILES (more kernels with these bindings,
 * `file.wgsl:BMxBN` comma-separated, BM × BN the block of C a workgroup owns).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createNodeGpu } from '../../src/gpu/node.ts';
import { fmt, table } from '../../src/bench/format.ts';
import { seededRandom } from '../../src/util/random.ts';
import type { KernelRun } from '../../src/kernel/types.ts';
import { sampledCheck } from '../../src/labs/matmul/bench.ts';
import { MATMUL_KERNELS, matmulReference, matmulRun, type MatmulShape, type MatmulVariant } from '../../src/labs/matmul/kernel.ts';
import { genKernel, genName, genProblem, genSharedBytes, genThreads, type GenConfig } from './matmul-kernel-gen.ts';

const shapes: MatmulShape[] = (process.env.MM_SHAPES ?? '4096x4096x4096,1024x1024x1024').split(',').map((s) => {
  const [m, n, k] = s.split('x').map(Number);
  return { m: m!, n: n!, k: k! };
});
const only = process.env.MM_ONLY ? new RegExp(process.env.MM_ONLY) : null;
const repeats = Number(process.env.MM_REPEATS ?? 10);

const C = (BM: number, BN: number, BK: number, TM: number, TN: number, buffers: 1 | 2, aMap: 'rows' | 'pairs', extra: Partial<GenConfig> = {}): GenConfig => ({ BM, BN, BK, TM, TN, buffers, aMap, ...extra });
/** Round 1 (device call 1): block shapes, thread tiles, one or two buffers. */
const ROUND1: GenConfig[] = [
  // 128 × 128 blocks.
  C(128, 128, 8, 8, 8, 2, 'rows'),
  C(128, 128, 8, 8, 8, 2, 'pairs'),
  C(128, 128, 8, 8, 8, 2, 'rows', { accArray: true }),
  C(128, 128, 8, 8, 8, 2, 'rows', { accArray: true, kLoop: true }),
  C(128, 128, 8, 8, 16, 2, 'rows', { accArray: true, kLoop: true }),
  C(128, 128, 16, 8, 8, 1, 'rows'),
  C(128, 128, 8, 8, 16, 2, 'rows'),
  C(128, 128, 8, 16, 8, 2, 'rows'),
  C(128, 128, 16, 8, 16, 1, 'rows'),
  C(128, 128, 8, 16, 16, 2, 'rows'),
  // Wider and taller blocks.
  C(128, 256, 8, 8, 16, 1, 'rows'),
  C(256, 128, 8, 16, 8, 1, 'rows'),
  // 64 × 128 and 128 × 64 (more workgroups at 1024³).
  C(128, 64, 8, 8, 8, 2, 'rows'),
  C(64, 128, 8, 8, 8, 2, 'rows'),
  C(128, 64, 16, 8, 8, 1, 'rows'),
  C(64, 128, 16, 8, 8, 1, 'rows'),
  C(128, 64, 16, 8, 4, 1, 'rows'),
  C(64, 128, 16, 4, 8, 1, 'rows'),
  // 64 × 64.
  C(64, 64, 16, 4, 4, 2, 'rows'),
  C(64, 64, 16, 8, 4, 2, 'rows'),
  C(64, 64, 32, 8, 8, 1, 'rows'),
  C(64, 64, 16, 8, 8, 2, 'rows'),
];

/** Round 2 (device call 2): around round 1's best, 256 × 128 × 8 with 16 × 8 per invocation at 4096³ and 64 × 64 × 16 with 8 × 4 at 1024³. */
const ROUND2: GenConfig[] = [
  C(256, 128, 8, 16, 8, 1, 'rows'),
  C(256, 128, 8, 16, 8, 1, 'rows', { accArray: true }),
  C(256, 128, 8, 16, 8, 1, 'rows', { accArray: true, kLoop: true }),
  C(256, 128, 8, 16, 8, 1, 'rows', { nested: true }),
  C(256, 128, 8, 16, 8, 1, 'rows', { wx: 8 }),
  C(256, 128, 8, 16, 8, 1, 'rows', { wx: 4 }),
  C(256, 128, 8, 16, 8, 1, 'rows', { wx: 8, accArray: true, kLoop: true }),
  C(256, 128, 8, 16, 8, 1, 'pairs'),
  C(256, 128, 8, 8, 16, 1, 'rows'),
  C(128, 128, 16, 8, 8, 1, 'rows', { wx: 8 }),
  C(128, 128, 16, 16, 8, 1, 'rows'),
  C(128, 128, 8, 16, 8, 1, 'rows'),
  C(256, 64, 8, 16, 4, 1, 'rows'),
  C(64, 64, 16, 8, 4, 2, 'rows', { accArray: true, kLoop: true }),
  C(64, 64, 16, 8, 4, 2, 'rows', { nested: true }),
  C(64, 64, 16, 8, 4, 1, 'rows'),
  C(64, 64, 16, 8, 4, 2, 'rows', { wx: 4 }),
  C(64, 64, 8, 8, 4, 2, 'rows'),
  C(128, 64, 8, 16, 4, 2, 'rows'),
];

/** Round 3 (device call 3): the best generated kernels beside the shipped one (MM_FILES for its experiments). */
const ROUND3: GenConfig[] = [
  C(256, 128, 8, 16, 8, 1, 'rows'),
  C(256, 128, 8, 16, 8, 1, 'rows', { kLoop: true }),
  C(64, 64, 8, 8, 4, 2, 'rows'),
];

export const CONFIGS: GenConfig[] = process.env.MM_ROUND === '1' ? ROUND1 : process.env.MM_ROUND === '2' ? ROUND2 : ROUND3;

interface Case {
  readonly name: string;
  readonly note: string;
  readonly run: (shape: MatmulShape, a: Float32Array, b: Float32Array) => KernelRun;
}

const genCase = (g: GenConfig): Case => {
  const code = genKernel(g);
  const { n } = genThreads(g);
  return {
    name: genName(g),
    note: `${n} inv., ${genSharedBytes(g)} B`,
    run: (s, a, b) => ({
      code,
      entryPoint: 'main',
      file: `${genName(g)}.wgsl`,
      label: genName(g),
      workgroups: [Math.ceil(s.n / g.BN), Math.ceil(s.m / g.BM)],
      bindings: { 0: { 0: a, 1: b, 2: new Float32Array(s.m * s.n), 3: new Uint32Array([s.m, s.n, s.k, 0]) } },
    }),
  };
};
const shippedCase = (v: MatmulVariant): Case => ({ name: `shipped ${v}`, note: MATMUL_KERNELS[v].file, run: (s, a, b) => matmulRun(v, 'f32', s, 16, a, b) });

const fileCase = (spec: string): Case => {
  const [file, block] = spec.split(':');
  const [bm, bn] = block!.split('x').map(Number);
  const code = readFileSync(file!, 'utf8');
  const name = basename(file!, '.wgsl');
  return {
    name,
    note: `${block} block (file)`,
    run: (s, a, b) => ({
      code,
      entryPoint: 'main',
      file: file!,
      label: name,
      workgroups: [Math.ceil(s.n / bn!), Math.ceil(s.m / bm!)],
      bindings: { 0: { 0: a, 1: b, 2: new Float32Array(s.m * s.n), 3: new Uint32Array([s.m, s.n, s.k, 0]) } },
    }),
  };
};

const cases: Case[] = [
  ...(process.env.MM_FILES ?? '').split(',').filter(Boolean).map(fileCase),
  shippedCase('vec4-2d'),
  shippedCase('fast'),
  shippedCase('tile-16x8'),
  ...CONFIGS.filter((g) => {
    const problem = genProblem(g);
    if (problem) console.log(`skipped ${genName(g)}: ${problem}`);
    return !problem;
  }).map(genCase),
].filter((c) => !only || only.test(c.name));

if (process.env.MM_EMIT) {
  mkdirSync(process.env.MM_EMIT, { recursive: true });
  for (const g of CONFIGS) writeFileSync(`${process.env.MM_EMIT}/${genName(g)}.wgsl`, genKernel(g));
  process.exit(0);
}

const gpu = await createNodeGpu();
console.log(`# Matmul tuning on ${gpu.adapter!.name} (${new Date().toISOString()}), ${repeats} timed passes, median; flags: ${process.env.WARPSCOPE_DAWN_FLAGS ?? 'none'}`);

const randomOperand = (length: number, seed: number, ints: boolean) => {
  const rng = seededRandom(seed);
  return Float32Array.from({ length }, () => (ints ? Math.floor(rng() * 9) - 4 : rng() * 2 - 1));
};

// Small odd shapes, whole C against the CPU (small whole numbers: exact).
const checkShapes: MatmulShape[] = [
  { m: 37, n: 20, k: 20 },
  { m: 130, n: 132, k: 36 },
  { m: 257, n: 68, k: 52 },
];
const broken = new Set<string>();
for (const c of cases) {
  for (const s of checkShapes) {
    const a = randomOperand(s.m * s.k, s.m, true);
    const b = randomOperand(s.k * s.n, s.n, true);
    const want = matmulReference('f32', s, a, b);
    const got = (await gpu.run(c.run(s, a, b)))[0]![2]! as Float32Array;
    const bad = want.findIndex((w, i) => w !== got[i]);
    if (bad >= 0) {
      broken.add(c.name);
      console.log(`WRONG ${c.name} at ${s.m}×${s.n}×${s.k}: C[${Math.floor(bad / s.n)}][${bad % s.n}] = ${got[bad]}, want ${want[bad]}`);
      break;
    }
  }
}
console.log(`checked ${cases.length} kernels at ${checkShapes.length} small shapes: ${broken.size} wrong`);
if (process.env.MM_CHECK_ONLY === '1') process.exit(broken.size ? 1 : 0);

for (const s of shapes) {
  const rng = seededRandom(s.m + s.n + s.k);
  const a = Float32Array.from({ length: s.m * s.k }, () => rng() * 2 - 1);
  const b = Float32Array.from({ length: s.k * s.n }, () => rng() * 2 - 1);
  const rows: string[][] = [];
  for (const c of cases) {
    if (broken.has(c.name)) continue;
    const run = c.run(s, a, b);
    const out = (await gpu.run(run))[0]![2]! as Float32Array;
    const wrong = sampledCheck(s, a, b, out);
    const t = await gpu.time(run, { repeats });
    const gf = (2 * s.m * s.n * s.k) / (t.medianMs * 1e6);
    rows.push([c.name, c.note, fmt(t.medianMs, 4), fmt(t.minMs, 4), fmt(t.spread, 3), fmt(gf, 1), wrong ? `WRONG ${wrong}` : 'ok']);
  }
  console.log(`\n## ${s.m} × ${s.n} × ${s.k}`);
  console.log(table(['kernel', 'shape', 'median ms', 'min ms', 'max/min', 'GFLOP/s', 'check'], rows));
}
