/**
 * The CSR adaptive SpMV kernel (shaders/spmv/csr-adaptive.wgsl) over its settings, beside the
 * in-run best of the earlier variants (hybrid on the uniform matrix, merge path on the power-law
 * one), on the bench's two matrices (2^22 rows, about 16 nonzeros per row, uniform and power-law,
 * seed 7). Settings: scalar loads (the lab's variant) or the vec4-load experiment
 * (shaders/spmv/csr-adaptive-vec4.wgsl), workgroup size, lanes per short row (group), passes of
 * short rows per work unit, the long-row threshold and the chunk size of the row bins. Each
 * configuration is checked against the CPU reference first, then timed in alternating rounds
 * beside a copy over its own buffers, counted over the least traffic (values and column indices
 * once, x once per nonzero, y once). The row bins are a CPU analysis made once per matrix and
 * setting, before the product; the kernel's time does not include it, and its CPU time is printed
 * beside. Prints figures; never fails on time.
 *
 * Bundled by scripts/gpu-bundle.sh as app/spmv-adaptive.mjs. Environment: TUNING_LOG2 (rows,
 * default 22), TUNING_REPEATS (rounds, default 10), TUNING_ONLY (a regular expression over the
 * configuration's label, e.g. "vec4 wg256 g4"; default all), WARPSCOPE_DAWN_FLAGS
 * (src/gpu/node.ts; an experiment only).
 */
import { createNodeGpu } from '../../src/gpu/node.ts';
import { fmt, pct, ratioCell, table } from '../../src/bench/format.ts';
import { seededRandom } from '../../src/util/random.ts';
import { adaptiveGroup, makeMatrix, makeVector, matrixStats, nonzeros, rowBins, spmvReference, type Csr } from '../../src/labs/spmv/formats.ts';
import { adaptiveRun, leastBytes, spmvRun, Y_BINDING, yOf, type SpmvVariant } from '../../src/labs/spmv/kernel.ts';
import type { KernelRun } from '../../src/kernel/types.ts';

const LOG2 = Number(process.env.TUNING_LOG2 ?? 22);
const REPEATS = Number(process.env.TUNING_REPEATS ?? 10);
const ONLY = new RegExp(process.env.TUNING_ONLY ?? '.');

/** [loads, workgroup size, group, passes, long after (nonzeros), chunk (nonzeros)]. */
type Config = readonly ['scalar' | 'vec4', number, number, number, number, number];
// Session 5's call 4 (docs/runs/2026-11-22-h100-session5-call4-spmv-adaptive-tuning.txt) timed the scalar
// kernel over all these settings: groups of 2 and 4 were best, passes and chunk size moved the time
// by 2 % at most. This sweep keeps the best scalar settings and times the vec4-load experiment
// (shaders/spmv/csr-adaptive-vec4.wgsl) around them.
const CONFIGS: Readonly<Record<'uniform' | 'powerlaw', { readonly peer: SpmvVariant; readonly configs: readonly Config[] }>> = {
  // Uniform rows hold 0…32 nonzeros: with a threshold of 32 no row is long, so only the short path runs.
  uniform: {
    peer: 'hybrid',
    configs: [
      ['scalar', 256, 4, 2, 32, 1024], // the lab's default
      ['scalar', 256, 4, 1, 32, 1024],
      ['scalar', 256, 2, 1, 32, 1024],
      ['vec4', 256, 4, 2, 32, 1024],
      ['vec4', 256, 4, 1, 32, 1024],
      ['vec4', 256, 2, 2, 32, 1024],
      ['vec4', 256, 2, 1, 32, 1024],
      ['vec4', 256, 8, 1, 32, 1024],
      ['vec4', 256, 1, 1, 32, 1024],
      ['vec4', 128, 4, 1, 32, 1024],
      ['vec4', 128, 2, 1, 32, 1024],
    ],
  },
  powerlaw: {
    peer: 'csr-merge',
    configs: [
      ['scalar', 256, 4, 2, 32, 1024], // the lab's default
      ['scalar', 256, 2, 2, 32, 1024],
      ['vec4', 256, 4, 2, 32, 1024],
      ['vec4', 256, 4, 1, 32, 1024],
      ['vec4', 256, 2, 2, 32, 1024],
      ['vec4', 256, 2, 1, 32, 1024],
      ['vec4', 256, 2, 2, 16, 1024],
      ['vec4', 256, 4, 2, 64, 1024],
      ['vec4', 256, 8, 2, 64, 1024],
    ],
  },
};

const gpu = await createNodeGpu();
const adapter = gpu.adapter!;
const flags = process.env.WARPSCOPE_DAWN_FLAGS ? ` · EXPERIMENT: Dawn flags ${process.env.WARPSCOPE_DAWN_FLAGS}` : '';
console.log(`# SpMV CSR adaptive tuning on ${adapter.name}, 2^${LOG2} rows, ${REPEATS} rounds beside a copy over the kernel's own buffers${flags}`);

/**
 * Ablations on the uniform matrix, to tell what bounds the kernel: the same kernel with every
 * gather's index masked to the first `mask` + 1 words of x (16 Ki words = 64 KiB, which the L1s
 * hold; or one word), so the gathers stop costing L2 sectors while loads, instructions and
 * stores stay. Their y is wrong by design and not checked; they are experiments, not results.
 */
const ABLATIONS: readonly (readonly ['scalar' | 'vec4', number])[] = [
  ['scalar', 0x3fff],
  ['scalar', 0],
  ['vec4', 0x3fff],
];
const gatherScalar = /x\[(c[0-3])\]/g;
const gatherVec4 = /x\[(c\.[xyzw])\]/g;

async function measure(label: string, run: KernelRun, a: Csr, want: Float32Array | undefined, variant: SpmvVariant, extra: readonly string[]): Promise<string[]> {
  const least = leastBytes(a);
  const y = yOf(variant, (await gpu.run(run))[0]![Y_BINDING[variant]]!, a.rows);
  let bad = -1;
  if (want) for (let i = 0; i < want.length && bad < 0; i++) if (!Object.is(y[i], want[i])) bad = i;
  const t = await gpu.time([run], { repeats: REPEATS, baseline: { kind: 'copy', bytes: least } });
  return [
    label,
    ...extra,
    fmt(t.medianMs, 4),
    fmt(least / (t.medianMs * 1e6)),
    pct(t.relative?.ratio ?? Number.NaN),
    ratioCell(t),
    !want ? 'ablation: not checked' : bad < 0 ? 'yes' : `NO (row ${bad}: ${y[bad]} for ${want[bad]})`,
  ];
}

for (const kind of ['uniform', 'powerlaw'] as const) {
  const rng = seededRandom(7);
  const a = makeMatrix(kind, 2 ** LOG2, rng);
  const x = makeVector(a.cols, rng);
  const want = spmvReference(a, x);
  const s = matrixStats(a);
  console.log(
    `\n## ${kind}: ${nonzeros(a).toLocaleString('en')} nonzeros, mean ${s.mean.toFixed(2)}, longest ${s.longest}, default group ${adaptiveGroup(a)}; least traffic ${leastBytes(a).toLocaleString('en')} B`,
  );
  const { peer, configs } = CONFIGS[kind];
  const lines: string[][] = [];
  if (ONLY.test(peer)) lines.push(await measure(peer, spmvRun(peer, a, x, 256), a, want, peer, ['—', '—', '—', '—', '—', '—', '—', '—']));
  for (const [loads, wg, group, passes, longAfter, chunk] of configs) {
    const label = `${loads} wg${wg} g${group} p${passes} long>${longAfter} chunk${chunk}`;
    if (!ONLY.test(label)) continue;
    const t0 = performance.now();
    const bins = rowBins(a, longAfter, chunk);
    const analysisMs = performance.now() - t0;
    const run = adaptiveRun(a, x, wg, { group, passes, bins, vec4: loads === 'vec4' });
    lines.push(
      await measure('csr-adaptive', run, a, want, 'csr-adaptive', [
        loads,
        `${wg}`,
        `${group}`,
        `${passes}`,
        `${longAfter}`,
        `${chunk}`,
        `${bins.longRows.toLocaleString('en')} rows, ${((100 * bins.longNonzeros) / Math.max(1, nonzeros(a))).toFixed(1)} % of nonzeros, ${(bins.chunks.length / 4).toLocaleString('en')} chunks`,
        fmt(analysisMs, 1),
      ]),
    );
  }
  if (kind === 'uniform') {
    for (const [loads, mask] of ABLATIONS) {
      const label = `ablation ${loads} wg256 g4 p1, gathers x[c & ${mask}]`;
      if (!ONLY.test(label)) continue;
      const run = adaptiveRun(a, x, 256, { group: 4, passes: 1, vec4: loads === 'vec4' });
      const pattern = loads === 'vec4' ? gatherVec4 : gatherScalar;
      const code = run.code.replace(pattern, `x[$1 & ${mask}u]`);
      if (code === run.code) throw new Error(`the ${loads} kernel no longer gathers x[c…] as this ablation expects`);
      lines.push(await measure(`ablation: gathers x[c & ${mask}]`, { ...run, code }, a, undefined, 'csr-adaptive', [loads, '256', '4', '1', '—', '—', '—', '—']));
    }
  }
  console.log(
    table(['kernel', 'loads', 'wg', 'group', 'passes', 'long after', 'chunk', 'long rows', 'CPU analysis ms (not in the time)', 'median ms', 'GB/s over least traffic', '% of copy', 'rounds', 'matches CPU'], lines),
  );
}
