/**
 * `npm run bench:spmv-tuning`: the merge-path SpMV kernel (shaders/spmv/csr-merge.wgsl) at several
 * workgroup sizes and items per invocation (the WGSL's `ITEMS` constant rewritten, the tile
 * override set to match), with the tile's ends found by one subgroup's 16-way search or by two
 * invocations' binary searches, on the bench's two matrices (2^22 rows, about 16 nonzeros per row,
 * uniform and power-law, seed 7). Each configuration is checked against the CPU reference first,
 * then timed in alternating rounds beside a copy over its own buffers, counted over the least
 * traffic (values and column indices once, x once per nonzero, y once). Prints figures; never
 * fails on time.
 *
 * Environment: TUNING_LOG2 (rows, default 22), TUNING_REPEATS (rounds, default 10),
 * TUNING_ONLY (a regular expression over "wg/items/search", e.g. "256/7/subgroup"; default all).
 */
import { createNodeGpu } from '../src/gpu/node.ts';
import { fmt, pct, ratioCell, table } from '../src/bench/format.ts';
import { seededRandom } from '../src/util/random.ts';
import { makeMatrix, makeVector, matrixStats, nonzeros, spmvReference } from '../src/labs/spmv/formats.ts';
import { leastBytes, MERGE_ITEMS_PER_INVOCATION, spmvRun, Y_BINDING, yOf } from '../src/labs/spmv/kernel.ts';

const LOG2 = Number(process.env.TUNING_LOG2 ?? 22);
const REPEATS = Number(process.env.TUNING_REPEATS ?? 10);
const ONLY = new RegExp(process.env.TUNING_ONLY ?? '.');
/** [workgroup size, items per invocation, search the tile's ends with a subgroup (else binary)]. */
const CONFIGS: readonly (readonly [number, number, boolean])[] = [
  [256, 7, false],
  [256, 12, false],
  [256, 5, true],
  [256, 7, true],
  [256, 9, true],
  [256, 12, true],
  [128, 7, true],
  [128, 14, true],
  [128, 24, true],
];

const gpu = await createNodeGpu();
const adapter = gpu.adapter!;
console.log(`# SpMV merge-path tuning on ${adapter.name}, 2^${LOG2} rows, ${REPEATS} rounds beside a copy over the kernel's own buffers`);
const itemsLine = /^const ITEMS: u32 = \d+;$/m;

for (const kind of ['uniform', 'powerlaw'] as const) {
  const rng = seededRandom(7);
  const a = makeMatrix(kind, 2 ** LOG2, rng);
  const x = makeVector(a.cols, rng);
  const want = spmvReference(a, x);
  const least = leastBytes(a);
  const s = matrixStats(a);
  console.log(`\n## ${kind}: ${nonzeros(a).toLocaleString('en')} nonzeros, mean ${s.mean.toFixed(2)}, longest ${s.longest}; least traffic ${least.toLocaleString('en')} B`);
  const rows: string[][] = [];
  for (const [wg, items, subgroupSearch] of CONFIGS) {
    const search = subgroupSearch ? 'subgroup' : 'binary';
    if (!ONLY.test(`${wg}/${items}/${search}`)) continue;
    const base = spmvRun('csr-merge', a, x, wg);
    if (!itemsLine.test(base.code)) throw new Error('csr-merge.wgsl no longer declares `const ITEMS: u32 = N;` on a line of its own');
    const tiles = Math.ceil((a.rows + nonzeros(a)) / (wg * items));
    const run = {
      ...base,
      code: items === MERGE_ITEMS_PER_INVOCATION ? base.code : base.code.replace(itemsLine, `const ITEMS: u32 = ${items}u;`),
      workgroups: [Math.min(65_535, tiles)] as const,
      bindings: { 0: { ...base.bindings[0]!, 5: new Uint32Array([a.rows, nonzeros(a), tiles, 0]) } },
      overrides: { WORKGROUP_SIZE: wg, TILE_ITEMS: wg * items, SUBGROUP_SEARCH: subgroupSearch ? 1 : 0 },
    };
    const y = yOf('csr-merge', (await gpu.run(run))[0]![Y_BINDING['csr-merge']]!, a.rows);
    let bad = -1;
    for (let i = 0; i < want.length && bad < 0; i++) if (!Object.is(y[i], want[i])) bad = i;
    const t = await gpu.time([run], { repeats: REPEATS, baseline: { kind: 'copy', bytes: least } });
    rows.push([
      search,
      `${wg}`,
      `${items}`,
      `${wg * items}`,
      fmt(t.medianMs, 4),
      fmt(least / (t.medianMs * 1e6)),
      pct(t.relative?.ratio ?? Number.NaN),
      ratioCell(t),
      bad < 0 ? 'yes' : `NO (row ${bad}: ${y[bad]} for ${want[bad]})`,
    ]);
  }
  console.log(table(['tile search', 'wg', 'items', 'tile', 'median ms', 'GB/s over least traffic', '% of copy', 'rounds', 'matches CPU'], rows));
}
