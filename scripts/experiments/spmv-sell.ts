/**
 * Issue 29: sliced ELL with long rows cut into pieces (shaders/spmv/sell.wgsl, src/labs/spmv/sell.ts)
 * on the bench's two matrices (2^22 rows, about 16 nonzeros per row, uniform and power-law, seed
 * 7), beside the lab's best variants timed in the same run (hybrid, csr-adaptive). Each kernel is
 * checked against the CPU first (rows kept whole bit for bit; cut rows, summed in pieces through
 * atomics, within 1e-4 relative), then timed in alternating rounds beside a copy over its own
 * buffers, counted over the least traffic (values and column indices once, x once per nonzero, y
 * once). The conversion from CSR is a CPU step made once per matrix before the product; its time
 * is printed apart and is not in the kernel's. The ablation masks every gather of x to its first
 * 16 Ki words (held by the L1s), to show what the gathers cost. Prints figures; never fails on time.
 *
 * Environment: TUNING_LOG2 (rows, default 22), TUNING_REPEATS (rounds, default 10), TUNING_ONLY
 * (a regular expression over the row's label), TUNING_TWICE=1 (each SELL row timed twice in a
 * row), TUNING_ABLATE=0 (no ablation rows).
 */
import { createNodeGpu } from '../../src/gpu/node.ts';
import { fmt, pct, ratioCell, table } from '../../src/bench/format.ts';
import { seededRandom } from '../../src/util/random.ts';
import { makeMatrix, makeVector, matrixStats, nonzeros, spmvReference, type Csr } from '../../src/labs/spmv/formats.ts';
import { leastBytes, spmvRun, Y_BINDING, yOf, type SpmvVariant } from '../../src/labs/spmv/kernel.ts';
import { sellRun, toSell, type SellOptions } from '../../src/labs/spmv/sell.ts';
import type { KernelRun } from '../../src/kernel/types.ts';

const LOG2 = Number(process.env.TUNING_LOG2 ?? 22);
const REPEATS = Number(process.env.TUNING_REPEATS ?? 10);
const ONLY = new RegExp(process.env.TUNING_ONLY ?? '.');

/** [limit, window, step, workgroup size] */
type Config = readonly [number, number, number, number];
const CONFIGS: Readonly<Record<'uniform' | 'powerlaw', readonly Config[]>> = {
  uniform: [
    [32, 1024, 4, 256],
    [32, 16384, 4, 256],
    [32, 1024, 4, 128],
    [32, 4096, 4, 256],
  ],
  powerlaw: [
    [32, 1024, 4, 256],
    [64, 1024, 4, 256],
    [128, 1024, 4, 256],
    [32, 1024, 8, 256],
  ],
};

const gpu = await createNodeGpu();
console.log(`# SpMV sliced ELL (issue 29) on ${gpu.adapter!.name}, 2^${LOG2} rows, ${REPEATS} rounds beside a copy over the kernel's own buffers`);

function check(y: Float32Array, want: Float32Array, a: Csr, limit: number): string {
  for (let r = 0; r < want.length; r++) {
    const cut = a.rowPtr[r + 1]! - a.rowPtr[r]! > limit;
    const ok = cut ? Math.abs(y[r]! - want[r]!) <= 1e-4 * (1 + Math.abs(want[r]!)) : Object.is(y[r], want[r]);
    if (!ok) return `NO (row ${r}: ${y[r]} for ${want[r]})`;
  }
  return 'yes';
}

async function timed(label: string, run: KernelRun, a: Csr, verdict: string, extra: readonly string[]): Promise<string[]> {
  const least = leastBytes(a);
  const t = await gpu.time([run], { repeats: REPEATS, baseline: { kind: 'copy', bytes: least } });
  return [label, ...extra, fmt(t.medianMs, 4), fmt(least / (t.medianMs * 1e6)), pct(t.relative?.ratio ?? Number.NaN), ratioCell(t), verdict];
}

for (const kind of ['uniform', 'powerlaw'] as const) {
  const rng = seededRandom(7);
  const a = makeMatrix(kind, 2 ** LOG2, rng);
  const x = makeVector(a.cols, rng);
  const want = spmvReference(a, x);
  const s = matrixStats(a);
  console.log(`\n## ${kind}: ${nonzeros(a).toLocaleString('en')} nonzeros, mean ${s.mean.toFixed(2)}, longest ${s.longest}; least traffic ${leastBytes(a).toLocaleString('en')} B`);
  const lines: string[][] = [];
  for (const peer of ['hybrid', 'csr-adaptive'] as SpmvVariant[]) {
    if (!ONLY.test(peer)) continue;
    const t0 = performance.now();
    const run = spmvRun(peer, a, x, 256);
    const convMs = performance.now() - t0;
    const y = yOf(peer, (await gpu.run(run))[0]![Y_BINDING[peer]]!, a.rows);
    lines.push(await timed(peer, run, a, check(y, want, a, Infinity), ['—', '—', '—', '256', '—', `${fmt(convMs, 1)} (run built, incl. any conversion)`]));
  }
  for (const [limit, window, step, wg] of CONFIGS[kind]) {
    const label = `sell limit${limit} window${window} step${step} wg${wg}`;
    if (!ONLY.test(label)) continue;
    const opts: SellOptions = { limit, window, step };
    const t0 = performance.now();
    const sell = toSell(a, opts);
    const convMs = performance.now() - t0;
    const run = sellRun(sell, a.rows, x, step, wg);
    const y = new Float32Array(((await gpu.run(run))[0]![5] as Uint32Array).slice(0, a.rows).buffer);
    const verdict = check(y, want, a, limit);
    // TUNING_TWICE=1: the same kernel timed again right after (runs a and b), for the "twice within 3 %".
    for (const take of process.env.TUNING_TWICE === '1' ? ['sell (run a)', 'sell (run b)'] : ['sell']) {
      lines.push(await timed(take, run, a, verdict, [`${limit}`, `${window}`, `${step}`, `${wg}`, `${sell.fill.toFixed(3)}`, fmt(convMs, 1)]));
    }
  }
  if (kind === 'uniform' && ONLY.test('ablation') && process.env.TUNING_ABLATE !== '0') {
    const opts: SellOptions = { limit: 32, window: 1024, step: 4 };
    const run = sellRun(toSell(a, opts), a.rows, x, 4, 256);
    for (const mask of [0x3fff, 0]) {
      const code = run.code.replace('g[k] = x[c[k]];', `g[k] = x[c[k] & ${mask}u];`);
      if (code === run.code) throw new Error('sell.wgsl no longer gathers `g[k] = x[c[k]];` as the ablation expects');
      lines.push(await timed(`ablation: sell, gathers x[c & ${mask}]`, { ...run, code }, a, 'ablation: not checked', ['32', '1024', '4', '256', '—', '—']));
    }
  }
  console.log(table(['kernel', 'limit', 'window', 'step', 'wg', 'fill', 'CPU conversion ms (not in the time)', 'median ms', 'GB/s over least traffic', '% of copy', 'rounds', 'matches CPU'], lines));
}
