/**
 * Matrix-multiply figures for `npm run bench`: the f32 multiply-add peak of the device (measured,
 * `src/gpu/fma-peak.ts`), then every variant at 1024³, 2048³, 4096³ and 4000 × 3000 × 2000 (M × N × K)
 * in GFLOP/s and as a share of that peak, each checked on 64 sampled elements of C against a CPU
 * dot product; then tf.matMul on TensorFlow.js's WebGPU backend at 4096³ in the same process.
 * Prints figures, never fails on time.
 */
import { measureFmaPeak, type BandwidthBaselines, type GpuExecutor } from '../../gpu/index.ts';
import { fmt, table } from '../../bench/format.ts';
import { medianTfTime, tfFailure, tfOnWebgpu, type TfResult } from '../../bench/tfjs.ts';
import { seededRandom } from '../../util/random.ts';
import { MATMUL_VARIANTS, matmulRun, shapeProblem, type MatmulShape, type MatmulVariant } from './kernel.ts';

/** The ladder of the issue: three squares and a shape that is a multiple of no tile. */
export const LADDER: readonly MatmulShape[] = [
  { m: 1024, n: 1024, k: 1024 },
  { m: 2048, n: 2048, k: 2048 },
  { m: 4096, n: 4096, k: 4096 },
  { m: 4000, n: 3000, k: 2000 },
];

/** The shapes to time when C may have at most 2^maxLog2 elements (smaller ladders for slow adapters). */
export function ladderFor(maxLog2: number): MatmulShape[] {
  const fits = LADDER.filter((s) => s.m * s.n <= 2 ** maxLog2);
  if (fits.length === LADDER.length) return [...fits];
  const side = 2 ** Math.max(4, Math.floor(maxLog2 / 2));
  return [
    { m: side / 2, n: side / 2, k: side / 2 },
    { m: side, n: side, k: side },
    { m: side - side / 16, n: side - side / 4, k: side / 2 },
  ];
}

/** Kernels too slow to be worth timing above this many multiply-adds (the naive one at 4096³ takes seconds). */
const NAIVE_LIMIT = 2048 ** 3;

/** Whether 64 sampled elements of C agree with CPU dot products within the f32 bound. */
export function sampledCheck(shape: MatmulShape, a: Float32Array, b: Float32Array, c: Float32Array): string | null {
  const rng = seededRandom(99);
  const u = 2 ** -24;
  const gamma = (shape.k * u) / (1 - shape.k * u);
  for (let t = 0; t < 64; t++) {
    const r = Math.floor(rng() * shape.m);
    const col = Math.floor(rng() * shape.n);
    let exact = 0;
    let abs = 0;
    for (let i = 0; i < shape.k; i++) {
      const p = a[r * shape.k + i]! * b[i * shape.n + col]!;
      exact += p;
      abs += Math.abs(p);
    }
    const got = c[r * shape.n + col]!;
    if (!(Math.abs(got - exact) <= 2 * gamma * abs)) return `C[${r}][${col}] = ${got}, CPU ${exact}`;
  }
  return null;
}

/** tf.matMul (float32) on TensorFlow.js's WebGPU backend, Dawn installed as `navigator.gpu` in Node. */
async function timeTfMatMul(shape: MatmulShape, repeats: number): Promise<TfResult> {
  try {
    const tf = await tfOnWebgpu();
    const a = tf.randomUniform([shape.m, shape.k], -1, 1, 'float32', 1);
    const b = tf.randomUniform([shape.k, shape.n], -1, 1, 'float32', 2);
    // Warm-up: shader compilation and buffer allocation, untimed.
    for (let i = 0; i < 3; i++) {
      const y = tf.matMul(a, b);
      await y.data();
      y.dispose();
    }
    const timed = await medianTfTime(tf, () => tf.matMul(a, b), repeats, 0);
    a.dispose();
    b.dispose();
    return timed;
  } catch (e) {
    return tfFailure(e);
  }
}

const shapeText = (s: MatmulShape) => `${s.m} × ${s.n} × ${s.k}`;
const gflops = (s: MatmulShape, ms: number) => (2 * s.m * s.n * s.k) / (ms * 1e6);

/** The matrix-multiply section of `npm run bench`, as Markdown. */
export async function matmulSection(gpu: GpuExecutor, baselines: BandwidthBaselines, opts: { repeats: number; maxLog2: number }): Promise<string> {
  const repeats = Math.max(10, opts.repeats);
  const shapes = ladderFor(opts.maxLog2);
  const peak = await measureFmaPeak(gpu, { repeats, ...(shapes[0]!.m < 1024 ? { workgroups: [64, 1] as [number, number], iterations: 256 } : {}) });
  const out: string[] = [];
  out.push(`## Matrix multiply (f32, C = A × B, M × N × K, ${repeats} timed passes, median)`);
  out.push(`FMA peak (src/gpu/fma-peak.ts): ${fmt(peak.gflops, 1)} GFLOP/s; read bandwidth ${fmt(baselines.readGBps)} GB/s (same run).\n`);
  const rows: string[][] = [];
  const best = new Map<string, { variant: string; ms: number }>();
  for (const shape of shapes) {
    const rng = seededRandom(shape.m + shape.n + shape.k);
    const a = Float32Array.from({ length: shape.m * shape.k }, () => rng() * 2 - 1);
    const b = Float32Array.from({ length: shape.k * shape.n }, () => rng() * 2 - 1);
    for (const [v, tile] of MATMUL_VARIANTS.flatMap((x): [MatmulVariant, number][] => (x === 'tiled' ? [[x, 16], [x, 32]] : [[x, 16]]))) {
      const name = v === 'tiled' ? `tiled ${tile}` : v;
      const problem = shapeProblem(v, shape, tile);
      if (problem) {
        rows.push([shapeText(shape), name, '—', '—', '—', '—', problem]);
        continue;
      }
      if (v === 'naive' && shape.m * shape.n * shape.k > NAIVE_LIMIT) {
        rows.push([shapeText(shape), name, '—', '—', '—', '—', 'not timed above 2048³ (seconds per run)']);
        continue;
      }
      const run = matmulRun(v, 'f32', shape, tile, a, b);
      const c = (await gpu.run(run))[0]![2]! as Float32Array;
      const wrong = sampledCheck(shape, a, b, c);
      const t = await gpu.time(run, { repeats });
      const rate = gflops(shape, t.medianMs);
      const key = shapeText(shape);
      if (!best.has(key) || best.get(key)!.ms > t.medianMs) best.set(key, { variant: name, ms: t.medianMs });
      rows.push([shapeText(shape), name, fmt(t.medianMs, 3), fmt(t.minMs, 3), fmt(rate, 1), `${fmt((100 * rate) / peak.gflops, 1)} %`, wrong ? `WRONG: ${wrong}` : 'ok (64 samples)']);
    }
  }
  out.push(table(['M × N × K', 'variant', 'median ms', 'min ms', 'GFLOP/s', '% of FMA peak', 'check'], rows));

  const tfShape = shapes.find((s) => s.m === 4096 && s.n === 4096 && s.k === 4096) ?? shapes[shapes.length - 2]!;
  const tf = await timeTfMatMul(tfShape, repeats);
  const ours = best.get(shapeText(tfShape));
  if (tf.ok && ours) {
    out.push(
      `\ntf.matMul at ${shapeText(tfShape)}: ${fmt(tf.medianMs, 3)} ms = ${fmt(gflops(tfShape, tf.medianMs), 1)} GFLOP/s (${tf.source}); ` +
        `our best (${ours.variant}) ${fmt(ours.ms, 3)} ms: ${fmt(tf.medianMs / ours.ms, 2)}× the speed of tf.matMul.`,
    );
  } else out.push(`\ntf.matMul at ${shapeText(tfShape)}: ${tf.ok ? 'no variant of ours timed there' : tf.reason}`);
  out.push('cuBLAS: run scripts/peers/matmul_cublas.py on the same machine (torch.matmul, TF32 off, CUDA events after warm-up).');
  return out.join('\n');
}
