/**
 * Issue 29: sliced ELL with long rows cut into pieces (shaders/spmv/sell.wgsl, src/labs/spmv/sell.ts)
 * on the bench's two matrices (2^22 rows, about 16 nonzeros per row, uniform and power-law, seed
 * 7), beside the lab's best variants timed in the same run (hybrid, csr-adaptive). Each kernel is
 * checked against the CPU first (rows kept whole bit for bit; cut rows, summed in pieces through
 * atomics, within 1e-4 relative), then timed in alternating rounds beside a copy over its own
 * buffers, counted over the least traffic (values and column indices once, x once per nonzero, y
 * once). The conversion from CSR is a CPU step made once per matrix before the product; its time
 * is printed apart and is not in the kernel's. The ablation rows change one line of the kernel
 * (outputs then wrong; the timing is the point): every gather of x masked to its first 16 Ki words
 * (held by the L1s) or to one word, to show what the gathers cost; on the power-law matrix also the
 * cut rows' compare-exchange adds made plain stores. Each options' sliced ELL is timed with the
 * lab's kernel and with its loop not pipelined (each step's loads, then its gathers). Prints
 * figures; never fails on time.
 *
 * Environment: TUNING_LOG2 (rows, default 22), TUNING_REPEATS (rounds, default 10), TUNING_ONLY
 * (a regular expression over the row's label), TUNING_TWICE=1 (each SELL row timed twice in a
 * row), TUNING_ABLATE=0 (no ablation rows), TUNING_ABLATE_AT (the power-law ablation's
 * "limit,window,step", default 256,16384,8).
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

/** [limit, window, step, workgroup size]; a window of ALL sorts every piece of the matrix at once. */
type Config = readonly [number, number, number, number];
const ALL = 2 ** 30;
const CONFIGS: Readonly<Record<'uniform' | 'powerlaw', readonly Config[]>> = {
  uniform: [
    [32, 4096, 4, 256],
    [32, 4096, 8, 256],
    [32, 16384, 8, 256],
  ],
  powerlaw: [
    [128, 16384, 4, 256],
    [128, 16384, 8, 256],
    [256, 16384, 8, 256],
    [512, 16384, 8, 256],
    [256, 4096, 8, 256],
    [256, 16384, 16, 256],
  ],
};
/**
 * sell.wgsl with its steps not pipelined, as it was before issue 29's third round: each step's
 * loads, then its gathers, then its sums (the lane waits on two memory trips a step).
 */
function unpipelined(code: string): string {
  const PIPELINED = / {4}\/\/ Slots past the slice's end[\s\S]*?\n {6}v = vn;\n {4}}\n/;
  if (!PIPELINED.test(code)) throw new Error('spmv-sell: sell.wgsl\'s pipelined loop is no longer where the experiment expects it');
  return code.replace(PIPELINED, `    for (var e = first; e < end; e += STEP * LANES) {
      var c: array<u32, STEP>;
      var v: array<f32, STEP>;
      for (var k = 0u; k < STEP; k++) {
        let i = e + k * LANES;
        let j = min(i, end - 1u);
        c[k] = select(0u, col[j], i < end);
        v[k] = select(0.0, val[j], i < end);
      }
      var g: array<f32, STEP>;
      for (var k = 0u; k < STEP; k++) {
        g[k] = x[c[k]];
      }
      for (var k = 0u; k < STEP; k++) {
        sum += v[k] * g[k];
      }
    }
`);
}

/** The kernels timed at each options: the lab's, and the same without the next step's loads in flight during the gathers. */
const KERNELS: readonly (readonly [string, ((code: string) => string) | undefined])[] = [
  ['sell', undefined],
  ['sell unpipelined', unpipelined],
];
/** The options of the power-law ablation rows (TUNING_ABLATE_AT="limit,window,step" picks others). */
const ABLATE_AT: Config = [...(process.env.TUNING_ABLATE_AT ?? '256,16384,8').split(',').map(Number), 256] as unknown as Config;

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
    const opts: SellOptions = { limit, window, step };
    const shown = window === ALL ? 'all' : `${window}`;
    let sell: ReturnType<typeof toSell> | undefined;
    let convMs = 0;
    for (const [name, code] of KERNELS) {
      const label = `${name} limit${limit} window${shown} step${step} wg${wg}`;
      if (!ONLY.test(label)) continue;
      if (!sell) {
        const t0 = performance.now();
        sell = toSell(a, opts);
        convMs = performance.now() - t0;
      }
      const lab = sellRun(sell, a.rows, x, step, wg);
      const run = code === undefined ? lab : { ...lab, code: code(lab.code) };
      const y = new Float32Array(((await gpu.run(run))[0]![5] as Uint32Array).slice(0, a.rows).buffer);
      const verdict = check(y, want, a, limit);
      // TUNING_TWICE=1: the same kernel timed again right after (runs a and b), for the "twice within 3 %".
      for (const take of process.env.TUNING_TWICE === '1' ? [`${name} (run a)`, `${name} (run b)`] : [name]) {
        lines.push(await timed(take, run, a, verdict, [`${limit}`, shown, `${step}`, `${wg}`, `${sell.fill.toFixed(3)}`, fmt(convMs, 1)]));
      }
    }
  }
  if (ONLY.test('ablation') && process.env.TUNING_ABLATE !== '0') {
    const [limit, window, step] = kind === 'uniform' ? [32, 4096, 4] : ABLATE_AT;
    const run = sellRun(toSell(a, { limit, window, step }), a.rows, x, step, 256);
    const cuts: [string, string, string][] = [
      ['gathers x[c & 0x3fff] (x held by the L1s)', 'g[k] = x[c[k]];', 'g[k] = x[c[k] & 0x3fffu];'],
      ['gathers x[0] (one word)', 'g[k] = x[c[k]];', 'g[k] = x[c[k] & 0u];'],
      ['cut rows stored, no compare-exchange', 'add_to_y(key & ~CUT, sum);', 'atomicStore(&y[key & ~CUT], bitcast<u32>(sum));'],
    ];
    for (const [what, from, to] of kind === 'uniform' ? cuts.slice(0, 2) : cuts) {
      const code = run.code.replace(from, to);
      if (code === run.code) throw new Error(`sell.wgsl no longer holds \`${from}\` as the ablation expects`);
      lines.push(await timed(`ablation: ${what}`, { ...run, code }, a, 'ablation: not checked', [`${limit}`, `${window === ALL ? 'all' : window}`, `${step}`, '256', '—', '—']));
    }
  }
  console.log(table(['kernel', 'limit', 'window', 'step', 'wg', 'fill', 'CPU conversion ms (not in the time)', 'median ms', 'GB/s over least traffic', '% of copy', 'rounds', 'matches CPU'], lines));
}
