/**
 * Timing the SpMV variants: the passes and least traffic of a parameter set for the timings view,
 * and the lab's section of `npm run bench`: 2^22 rows (or fewer where the adapter's largest
 * binding or BENCH_MAX_LOG2 says so) with about 16 nonzeros per row, uniform and power-law, each
 * variant's GB/s over the least traffic and its share of the in-run copy, and the time its format's
 * conversion from CSR takes on the CPU, apart from the kernel's.
 */
import type { BandwidthBaselines, GpuExecutor } from '../../gpu/executor.ts';
import { fmt, pct, ratioCell, table } from '../../bench/format.ts';
import type { LabBench, LabInputs } from '../../workbench/lab.ts';
import { seededRandom } from '../../util/random.ts';
import { isMatrixKind, makeMatrix, makeVector, matrixStats, spmvReference, type Csr, type MatrixKind } from './formats.ts';
import { leastBytes, SPMV_VARIANTS, spmvRun, Y_BINDING, yOf } from './kernel.ts';
import { m } from './messages.ts';

type P = { readonly kind: string; readonly rows: number; readonly workgroupSize: number };

/** The kind timed at a size: the seed's fixed 4 × 4 example is timed as the uniform matrix. */
const timedKind = (p: P): MatrixKind => (isMatrixKind(p.kind) && p.kind !== 'seed' ? p.kind : 'uniform');

/** The last matrices built, so passes and bytes of one size do not build them again. */
const built = new Map<string, { a: Csr; x: Float32Array }>();
function matrixAt(kind: MatrixKind, rows: number, seed: number) {
  const key = `${kind}/${rows}/${seed}`;
  let m = built.get(key);
  if (!m) {
    const rng = seededRandom(seed);
    const a = makeMatrix(kind, rows, rng);
    m = { a, x: makeVector(a.cols, rng) };
    if (built.size >= 2) built.delete(built.keys().next().value!);
    built.set(key, m);
  }
  return m;
}

/** The sweep seeds its inputs with the size (`lab.inputs(p, n)`), so passes use the same matrix. */
const sweepMatrix = (p: P) => matrixAt(timedKind(p), p.rows, p.rows);

export const benchSpmv: LabBench<P> = {
  elements: (p) => p.rows,
  baseline: 'copy',
  at: (p, n) => ({ ...p, kind: timedKind(p), rows: n }),
  passes(variant, p) {
    const { a, x } = sweepMatrix(p);
    if (!(SPMV_VARIANTS as readonly string[]).includes(variant)) throw new RangeError(`No SpMV variant “${variant}”.`);
    return [spmvRun(variant as (typeof SPMV_VARIANTS)[number], a, x, 256)];
  },
  bytes: (p) => leastBytes(sweepMatrix(p).a),
  flops: (p) => 2 * sweepMatrix(p).a.rowPtr[p.rows]!,
  cpu(inputs: LabInputs) {
    const rowPtr = inputs.rowPtr as Uint32Array;
    const col = inputs.colIndex as Uint32Array;
    const val = inputs.values as Float32Array;
    const x = inputs.x as Float32Array;
    let last = 0;
    for (let r = 0; r + 1 < rowPtr.length; r++) {
      let sum = 0;
      for (let j = rowPtr[r]!; j < rowPtr[r + 1]!; j++) sum += val[j]! * x[col[j]!]!;
      last += sum;
    }
    return last;
  },
  get note() {
    return m('note');
  },
  section: spmvSection,
};

async function spmvSection(gpu: GpuExecutor, baselines: BandwidthBaselines, opts: { repeats: number; maxLog2: number }): Promise<string> {
  const log2 = Math.min(22, opts.maxLog2);
  const rows = 2 ** log2;
  const out: string[] = [];
  for (const kind of ['uniform', 'powerlaw'] as const) {
    const { a, x } = matrixAt(kind, rows, 7);
    const s = matrixStats(a);
    const want = spmvReference(a, x);
    const least = leastBytes(a);
    out.push(`\n### ${kind}: 2^${log2} rows, ${s.nonzeros.toLocaleString('en')} nonzeros (mean ${s.mean.toFixed(2)}, longest ${s.longest}, ELL fill ${s.ellFill.toFixed(2)}, hybrid width ${s.hybridWidth} with ${s.hybridCoo.toLocaleString('en')} in COO); least traffic ${least.toLocaleString('en')} B; in-run copy ${fmt(baselines.copyGBps)} GB/s; % of copy: median of rounds beside a copy over the kernel's own buffers`);
    const lines: string[][] = [];
    for (const v of SPMV_VARIANTS) {
      let run;
      // The format's conversion from CSR on the CPU (made once per matrix, before the product), timed apart.
      const t0 = performance.now();
      try {
        run = spmvRun(v, a, x, 256);
      } catch (e) {
        lines.push([v, '—', '—', '—', '—', '—', '—', `refused: ${(e as Error).message}`]);
        continue;
      }
      const convertMs = performance.now() - t0;
      const y = yOf(v, (await gpu.run(run))[0]![Y_BINDING[v]]!, a.rows);
      let ok = y.length === want.length;
      for (let i = 0; ok && i < want.length; i++) ok = Object.is(y[i], want[i]);
      // Alternating rounds with a copy over the kernel's own buffers, counted over the least traffic.
      const t = await gpu.time([run], { repeats: opts.repeats, baseline: { kind: 'copy', bytes: least } });
      const gbps = least / (t.medianMs * 1e6);
      lines.push([v, fmt(t.medianMs, 4), fmt(gbps), pct(t.relative?.ratio ?? Number.NaN), ratioCell(t), fmt(t.relative?.baselineGBps ?? Number.NaN), fmt(convertMs, 1), ok ? 'yes' : 'NO']);
    }
    out.push(table(['variant', 'median ms', 'GB/s over least traffic', '% of copy', 'rounds', 'copy GB/s (rounds)', 'conversion ms (CPU, apart)', 'matches CPU'], lines));
  }
  return out.join('\n');
}
