/**
 * Experiments behind the top-k figures in docs/benchmarks.md (issue 29): k = 20 of 2^EXP_LOG2 i32
 * (default 26; smaller to try it on SwiftShader), the bench's data, every figure timed against a
 * read of the kernel's own input in alternating rounds (`GpuExecutor.time`, as `npm run bench`
 * does), median of the per-round ratios.
 *
 *   shipped   radix (the shipped variant): both launches, pass 1 alone, pass 2 alone
 *   ahead     radix-ahead: both launches with 264 to 1056 pass-1 workgroups (2 to 8 per SM of an H100);
 *             pass 1 and pass 2 alone at the shipped count (RADIX_AHEAD_GROUPS)
 *   last      radix-last (one launch: the last workgroup to finish picks the answer) with 264 to 792
 *             workgroups, beside radix-ahead's two launches at the shipped count; radix-last with
 *             nobody picking (the last ticket never matches: pass 1, its tagged lists and the
 *             ticket alone); and a check on repeated dispatches: two inputs dispatched in turn
 *             over one set of state and list buffers, both answers compared with the CPU
 *   alternating  the check on repeated dispatches alone (EXP_ROUNDS of them, default 40)
 *   ablate    radix-ahead at the shipped count with parts cut out or changed: every cut exact (no short
 *             cuts); the loop alone (pass 1 with its floor at the highest i32, so nothing enters
 *             the pool: loads, compares and the round's barriers); pass 2 without the shared
 *             floor (every list value offered, as radix's pass 2 does)
 *
 * Usage: node … topk-experiments.mjs [experiment ...] (default: all). Every whole two-launch
 * figure is first run for real and compared with a CPU top-k ("correct").
 */
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
const ctx = await gpu.ready();
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
  if (variant === 'radix-last') return sameList(first[1] as Int32Array);
  const floor = variant === 'radix-ahead' ? (first[3] as Uint32Array)[0]! : undefined;
  return sameList((await gpu.run(topkRun(variant, lists, 1, { ...opts, ...(floor === undefined ? {} : { floorKey: floor }) })))[0]![1] as Int32Array);
}

function sameList(got: Int32Array, expected: Int32Array = want): string {
  for (let i = 0; i < K; i++) if (got[i] !== expected[i]) return `NO (out[${i}] = ${got[i]}, want ${expected[i]})`;
  return 'yes';
}

/**
 * radix-last dispatched `rounds` times in one pass, alternating between two inputs (the bench's
 * data and its negation) that share the state and list buffers, as repeated dispatches share them
 * in the timings: each dispatch must wait for its own tagged lists, not take the other input's.
 */
async function alternating(rounds: number): Promise<string> {
  const device = ctx.device;
  const other = values.map((v) => ~v);
  const wantOther = new Int32Array(K).fill(LOWEST);
  for (const v of other) if (v > wantOther[K - 1]!) insertValue(wantOther, v, false);
  const runs = [topkRun('radix-last', values, groupsFor(N, K, 'radix-last'), opts), topkRun('radix-last', other, groupsFor(N, K, 'radix-last'), opts)];
  const make = (data: ArrayBufferView, usage: number): GPUBuffer => {
    const b = device.createBuffer({ size: Math.max(16, data.byteLength), usage: usage | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
    device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
    return b;
  };
  const b0 = runs[0]!.bindings[0]!;
  const state = make(b0[3]!, GPUBufferUsage.STORAGE);
  const lists = make(b0[4]!, GPUBufferUsage.STORAGE);
  const module = device.createShaderModule({ code: runs[0]!.code });
  const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main', constants: runs[0]!.overrides as Record<string, number> } });
  const sets = runs.map((r) => {
    const b = r.bindings[0]!;
    const bufs = [make(b[0]!, GPUBufferUsage.STORAGE), make(b[1]!, GPUBufferUsage.STORAGE), make(b[2]!, GPUBufferUsage.UNIFORM), state, lists];
    return { out: bufs[1]!, group: device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: bufs.map((buffer, binding) => ({ binding, resource: { buffer } })) }) };
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  for (let i = 0; i < rounds; i++) {
    pass.setBindGroup(0, sets[i % 2]!.group);
    pass.dispatchWorkgroups(runs[0]!.workgroups[0]);
  }
  pass.end();
  const read = (src: GPUBuffer, size: number): GPUBuffer => {
    const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    enc.copyBufferToBuffer(src, 0, staging, 0, size);
    return staging;
  };
  const stagings = [read(sets[0]!.out, 4 * K), read(sets[1]!.out, 4 * K), read(state, 16)];
  device.queue.submit([enc.finish()]);
  const got = await Promise.all(stagings.map(async (s) => {
    await s.mapAsync(GPUMapMode.READ);
    return new Uint32Array(s.getMappedRange().slice(0));
  }));
  const a = sameList(new Int32Array(got[0]!.buffer), want);
  const b = sameList(new Int32Array(got[1]!.buffer), wantOther);
  const st = [...got[2]!];
  const ok = a === 'yes' && b === 'yes' && st[0] === 0 && st[1] === 0 && st[2] === rounds;
  return `${ok ? 'yes' : 'NO'} (${rounds} dispatches: input a ${a}, input b ${b}; state ${st.join(', ')})`;
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

if (wants('alternating')) console.log(`Repeated dispatches over shared state and lists, two inputs in turn: ${await alternating(Number(process.env.EXP_ROUNDS ?? 40))}`);

if (wants('last')) {
  const rows: string[][] = [];
  rows.push(await figure('radix-ahead, both launches (shipped)', topkPasses('radix-ahead', values, opts), await correct('radix-ahead', groupsFor(N, K, 'radix-ahead'))));
  for (const most of [396, 264, 330, 528, 792]) {
    const chain = topkPasses('radix-last', values, opts, most);
    rows.push(await figure(`radix-last, one launch, ${most} workgroups`, chain, await correct('radix-last', chain[0]!.workgroups[0])));
  }
  const source = TOPK_FILES['radix-last'].wgsl;
  const nobody = source.replace('atomicAdd(&state[1], 1u) == groups.x - 1u', 'atomicAdd(&state[1], 1u) == 0xffffffffu');
  if (nobody === source) throw new Error('topk-experiments: the last-ticket test was not found in radix-last.wgsl');
  rows.push(await figure('radix-last with nobody picking (pass 1, tagged lists, ticket)', topkPasses('radix-last', values, opts).map((r) => ({ ...r, code: nobody })), '—'));
  rows.push(await figure('radix-ahead, pass 1 alone', [topkPasses('radix-ahead', values, opts)[0]!], '—'));
  console.log('\n## last: radix-last, one launch\n');
  console.log(table(HEAD, rows));
  console.log(`\nRepeated dispatches over shared state and lists, two inputs in turn: ${await alternating(40)}`);
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
