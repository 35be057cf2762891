/**
 * Experiments behind the top-k figures in docs/benchmarks.md (issue 29): k = 20 of 2^EXP_LOG2 i32
 * (default 26; smaller to try it on SwiftShader), the bench's data, every figure timed against a
 * read of the kernel's own input in alternating rounds (`GpuExecutor.time`, as `npm run bench`
 * does), median of the per-round ratios.
 *
 *   shipped   radix (the shipped variant): both launches, pass 1 alone, pass 2 alone
 *   ahead     radix-ahead: both launches with 264 to 1056 pass-1 workgroups (2 to 8 per SM of an H100);
 *             pass 1 and pass 2 alone at the shipped count (RADIX_AHEAD_GROUPS)
 *   ablate    radix-ahead at the shipped count with parts cut out or changed: every cut exact (no short
 *             cuts); the loop alone (pass 1 with its floor at the highest i32, so nothing enters
 *             the pool: loads, compares and the round's barriers); pass 2 without the shared
 *             floor (every list value offered, as radix's pass 2 does)
 *   pick      radix-ahead with pass 2 as shipped now (the radix select on the distance above the
 *             shared floor): both launches with 264 to 792 pass-1 workgroups, pass 1 and pass 2
 *             alone, pass 2 over one vec4 (a one-workgroup launch doing almost nothing: the floor
 *             under pass 2's time); with TOPK_BEFORE=<file> the kernel as it was before (its WGSL
 *             file, pass 2 a pool under a rising floor) timed the same way in the same process
 *
 * Usage: node … topk-experiments.mjs [experiment ...] (default: all). Every whole two-launch
 * figure is first run for real and compared with a CPU top-k ("correct").
 */
import { readFileSync } from 'node:fs';
import { createNodeGpu } from '../../src/gpu/node.ts';
import { fmt, gbps, pct, ratioCell, table } from '../../src/bench/format.ts';
import { groupsFor, radixAheadLists, topkPasses, topkRun, TOPK_FILES, type TopkVariant } from '../../src/labs/topk/kernel.ts';
import { insertValue, LOWEST } from '../../src/labs/topk/reference.ts';
import type { KernelRun } from '../../src/kernel/types.ts';

const chosen = new Set(process.argv.slice(2));
const wants = (name: string): boolean => chosen.size === 0 || chosen.has(name);
const LOG2 = Number(process.env.EXP_LOG2 ?? 26);
const N = 2 ** LOG2;
const K = 20;
const BYTES = 4 * N;

const gpu = await createNodeGpu();
console.log(`# Top-k experiments on ${gpu.adapter!.name}, k = ${K} of 2^${LOG2} i32 (duplicates kept)`);

/** The bench's data (src/labs/topk/index.ts): a deterministic scramble over the whole i32 range. */
const values = new Int32Array(N);
for (let i = 0; i < N; i++) values[i] = Math.imul(i, 0x9e3779b1) ^ (i >>> 7);
const want = new Int32Array(K).fill(LOWEST);
for (let i = 0; i < N; i++) if (values[i]! > want[K - 1]!) insertValue(want, values[i]!, false);
const opts = { k: K, distinct: false };

/** Both launches for real: pass 1 on the device, its lists (and shared floor) into pass 2. */
async function correct(variant: TopkVariant, groups: number): Promise<string> {
  const first = (await gpu.run(topkRun(variant, values, groups, opts)))[0]!;
  const lists = (first[1] as Int32Array).slice(0, groups * K);
  const floor = variant === 'radix-ahead' ? (first[3] as Uint32Array)[0]! : undefined;
  const got = (await gpu.run(topkRun(variant, lists, 1, { ...opts, ...(floor === undefined ? {} : { floorKey: floor }) })))[0]![1] as Int32Array;
  for (let i = 0; i < K; i++) if (got[i] !== want[i]) return `NO (out[${i}] = ${got[i]}, want ${want[i]})`;
  return 'yes';
}

async function figure(label: string, chain: readonly KernelRun[], ok: string): Promise<string[]> {
  const t = await gpu.time(chain, { repeats: 10, baseline: { kind: 'read', bytes: BYTES } });
  return [label, chain.map((r) => String(r.workgroups[0])).join(' + '), ok, fmt(t.medianMs, 4), fmt(gbps(BYTES, t.medianMs)), pct(t.relative?.ratio ?? Number.NaN), ratioCell(t)];
}
const HEAD = ['kernel', 'workgroups', 'correct', 'median ms', 'GB/s (input)', '% of read', 'rounds'];

if (wants('shipped')) {
  const [p1, p2] = topkPasses('radix', values, opts);
  const rows = [
    await figure('radix, both launches', [p1!, p2!], await correct('radix', p1!.workgroups[0])),
    await figure('radix, pass 1 alone', [p1!], '—'),
    await figure('radix, pass 2 alone (stand-in lists)', [p2!], '—'),
  ];
  console.log('\n## shipped: radix\n');
  console.log(table(HEAD, rows));
}

if (wants('ahead')) {
  const rows: string[][] = [];
  for (const most of [1056, 924, 792, 660, 528, 462, 396, 330, 264]) {
    const chain = topkPasses('radix-ahead', values, opts, most);
    rows.push(await figure(`radix-ahead, both launches, ${most} workgroups`, chain, await correct('radix-ahead', chain[0]!.workgroups[0])));
  }
  const [p1, p2] = topkPasses('radix-ahead', values, opts);
  rows.push(await figure('radix-ahead, pass 1 alone', [p1!], '—'));
  rows.push(await figure('radix-ahead, pass 2 alone (pass 1’s lists and floor)', [p2!], '—'));
  console.log('\n## ahead: radix-ahead\n');
  console.log(table(HEAD, rows));
}

if (wants('ablate')) {
  const groups = groupsFor(N, K, 'radix-ahead');
  const source = TOPK_FILES['radix-ahead'].wgsl;
  const exactCuts = source.replace('if (!exact && keeps <= CUT_KEEP) {', 'if (false) {');
  if (exactCuts === source) throw new Error('topk-experiments: the short-cut test was not found in radix-ahead.wgsl');
  const { lists } = radixAheadLists(values, groups, K);
  const rows = [
    await figure('radix-ahead, every cut exact, both launches', topkPasses('radix-ahead', values, opts).map((r) => ({ ...r, code: exactCuts })), '—'),
    await figure('radix-ahead, the loop alone (nothing enters the pool), pass 1', [topkRun('radix-ahead', values, groups, { ...opts, floorKey: 0xffffffff })], '—'),
    await figure('radix-ahead, pass 2 without the shared floor', [topkRun('radix-ahead', lists, 1, { ...opts, floorKey: 0 })], '—'),
  ];
  console.log('\n## ablate: radix-ahead with parts changed (timing only)\n');
  console.log(table(HEAD, rows));
}

if (wants('pick')) {
  const rows: string[][] = [];
  for (const most of [792, 528, 396, 330, 264]) {
    const chain = topkPasses('radix-ahead', values, opts, most);
    rows.push(await figure(`radix-ahead (pick), both launches, ${most} workgroups`, chain, await correct('radix-ahead', chain[0]!.workgroups[0])));
  }
  const [p1, p2] = topkPasses('radix-ahead', values, opts);
  rows.push(await figure('radix-ahead (pick), pass 1 alone', [p1!], '—'));
  rows.push(await figure('radix-ahead (pick), pass 2 alone (pass 1’s lists and floor)', [p2!], '—'));
  rows.push(await figure('radix-ahead (pick), pass 2 over one vec4 (no floor)', [topkRun('radix-ahead', new Int32Array(4), 1, { ...opts, floorKey: 0 })], '—'));
  const before = process.env.TOPK_BEFORE;
  if (before) {
    const code = readFileSync(before, 'utf8');
    if (code.includes('fn pick(')) throw new Error(`topk-experiments: ${before} already has pass 2's pick; give the kernel from before it`);
    const old = topkPasses('radix-ahead', values, opts).map((r) => ({ ...r, code }));
    const groups = old[0]!.workgroups[0];
    // The kernel from before, both launches for real, compared with the CPU.
    const first = (await gpu.run(old[0]!))[0]!;
    const lists = (first[1] as Int32Array).slice(0, groups * K);
    const got = (await gpu.run({ ...topkRun('radix-ahead', lists, 1, { ...opts, floorKey: (first[3] as Uint32Array)[0]! }), code }))[0]![1] as Int32Array;
    const ok = want.every((w, i) => got[i] === w) ? 'yes' : 'NO';
    rows.push(await figure('radix-ahead before (pool), both launches', old, ok));
    rows.push(await figure('radix-ahead before (pool), pass 1 alone', [old[0]!], '—'));
    rows.push(await figure('radix-ahead before (pool), pass 2 alone', [old[1]!], '—'));
  }
  console.log('\n## pick: radix-ahead, pass 2 on the distance above the shared floor\n');
  console.log(table(HEAD, rows));
}
