/**
 * Where the slow CUDA twins' time goes (issue #26): the WGSL generated from a lab's CUDA, edited
 * one way at a time, timed beside the lab's hand-written WGSL at the bench size, as
 * `scripts/cuda-twins-bench.ts` times them (each chain against a read of its bytes in alternating
 * rounds; ratio = hand-written share of the read over the variant's). Every variant first runs the
 * twin's first small case and must give the generated kernel's outputs bit for bit ("same").
 *
 *   no-prologue   blockIdx = workgroup, without the folded-grid select and the spare-block return
 *   extract-bits  the packed byte read as extractBits (the translator's form before this change)
 *   a4-once       vec4-2d: the four reads of a4[i] as one `let`
 *   vec4-fma      vec4-2d: the four component updates as one vec4 multiply-add
 *   if-chain      fast, tile-16x8: setLane's one indexed store written back as the if chain
 *                 the translator emitted before componentChain.ts (the generated WGSL before it)
 *   inline-fma    fast, tile-16x8: madd / fma4 calls written out where they are called
 *   u32-offset    fast, tile-16x8: setLane's element offset as a u32 (no i32 conversion)
 *
 * Usage: node … cuda-twin-variants.mjs [lab/variant ...] (default: every twin listed here);
 * EXP_SMALL=1 times the small case (to check the script where no GPU is).
 * Prints figures only; an edit that finds nothing to change is reported, not timed.
 */
import { createNodeGpu } from '../../src/gpu/node.ts';
import type { GpuExecutor, Timing } from '../../src/gpu/executor.ts';
import type { KernelRun } from '../../src/kernel/types.ts';
import { fmt, table } from '../../src/bench/format.ts';
import { median } from '../../src/util/stats.ts';
import { twinGeneratedRuns, type LabTwin, type TwinLimits } from '../../src/cuda/index.ts';
import { LAB_TWINS } from '../../src/labs/cudaTwins.ts';

type Edit = (code: string) => string;

const noPrologue: Edit = (c) =>
  c.replace(/let blockIdx = select\([^;]*\);/g, 'let blockIdx = workgroup;').replace(/\n\s*if \(blockIdx\.x >= gridDim\.x\) \{ return; \}/g, '');
const extractBits: Edit = (c) => c.replace(/\(\((\w+\[[^\]]+\]) >> \(([^;]*?\* 8u)\)\) & 0xffu\)/g, 'extractBits($1, $2, 8u)');
const a4Once: Edit = (c) =>
  c.replace(/const i: i32 = (\d);\n(\s*)acc\[i\]\.x \+= tileA\[a4 \+ i\] \* b\.x;\n\s*acc\[i\]\.y \+= tileA\[a4 \+ i\] \* b\.y;\n\s*acc\[i\]\.z \+= tileA\[a4 \+ i\] \* b\.z;\n\s*acc\[i\]\.w \+= tileA\[a4 \+ i\] \* b\.w;/g,
    'const i: i32 = $1;\n$2let ai = tileA[a4 + i];\n$2acc[i].x += ai * b.x;\n$2acc[i].y += ai * b.y;\n$2acc[i].z += ai * b.z;\n$2acc[i].w += ai * b.w;');
const vec4Fma: Edit = (c) =>
  c.replace(/const i: i32 = (\d);\n(\s*)acc\[i\]\.x \+= tileA\[a4 \+ i\] \* b\.x;\n\s*acc\[i\]\.y \+= tileA\[a4 \+ i\] \* b\.y;\n\s*acc\[i\]\.z \+= tileA\[a4 \+ i\] \* b\.z;\n\s*acc\[i\]\.w \+= tileA\[a4 \+ i\] \* b\.w;/g,
    'const i: i32 = $1;\n$2acc[i] += tileA[a4 + i] * b;');

// `// the 'if' chain on k picks component k (0 … 3: x, y, z, w): one indexed store` + `p[min(k, 3u)] = e;` → the branches.
const ifChain: Edit = (c) =>
  c.replace(/( *)\/\/ the 'if' chain on (\w+) picks component \w+ \(0 … 3: x, y, z, w\): one indexed store\n\s*(\S+)\[min\(\2, 3u\)\] = (.*);/g, (_m, pad: string, k: string, place: string, value: string) =>
    ['x', 'y', 'z', 'w'].map((x, i) => `${i === 0 ? `${pad}if (${k} == 0u) {` : i < 3 ? `${pad}} else if (${k} == ${i}u) {` : `${pad}} else {`}\n${pad}  ${place}.${x} = ${value};`).join('\n') + `\n${pad}}`);
const inlineFma: Edit = (c) =>
  c.replace(/(acc\d+) = fma4\(([\w.]+), (\w+), \1\);/g, '$1 = fma(vec4<f32>($2), $3, $1);').replace(/(acc\[\d+\]) = madd\(([\w.]+), (\w+), \1\);/g, '$1 += $2 * $3;');
const u32Offset: Edit = (c) => c.replace(/fn (setLane_\w+)\(v: i32,/g, 'fn $1(v: u32,').replace(/(setLane_\w+)\(i32\((.*?)\), /g, '$1($2, ');
const MATMUL_FAST: Record<string, Edit> = { 'if-chain': ifChain, 'inline-fma': inlineFma, 'u32-offset': u32Offset, 'inline-fma, u32-offset': (c) => u32Offset(inlineFma(c)), 'no-prologue': noPrologue };

const VARIANTS: Record<string, Record<string, Edit>> = {
  'matmul/fast': MATMUL_FAST,
  'matmul/tile-16x8': MATMUL_FAST,
  'histogram/privatized': { 'no-prologue': noPrologue, 'extract-bits': extractBits },
  'histogram/aggregated': { 'no-prologue': noPrologue, 'extract-bits': extractBits },
  'matmul/column': { 'no-prologue': noPrologue },
  'matmul/vec4-2d': { 'no-prologue': noPrologue, 'a4-once': a4Once, 'vec4-fma': vec4Fma, 'vec4-fma, no-prologue': (c) => noPrologue(vec4Fma(c)) },
};

const share = (t: Timing): number => t.relative?.ratio ?? Number.NaN;
const edited = (runs: readonly KernelRun[], edit: Edit): KernelRun[] => runs.map((r) => ({ ...r, code: edit(r.code) }));

async function same(gpu: GpuExecutor, a: readonly KernelRun[], b: readonly KernelRun[]): Promise<string> {
  for (let k = 0; k < a.length; k++) {
    const x = await gpu.run(a[k]!);
    const y = await gpu.run(b[k]!);
    for (const [g, group] of Object.entries(x)) {
      for (const [binding, data] of Object.entries(group ?? {})) {
        const other = y[Number(g)]?.[Number(binding)];
        const u = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        const v = other ? new Uint8Array(other.buffer, other.byteOffset, other.byteLength) : undefined;
        if (!v || u.length !== v.length || u.some((byte, i) => byte !== v[i])) return `NO (binding ${binding} differs)`;
      }
    }
  }
  return 'yes';
}

const gpu = await createNodeGpu();
const adapter = gpu.adapter ?? (await gpu.ready()).summary;
const limits: TwinLimits = {
  maxBindingBytes: Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize, 4 * 2 ** 26),
  maxInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
};
const picked = process.argv.slice(2);
const rows: string[][] = [];
for (const [key, edits] of Object.entries(VARIANTS)) {
  if (picked.length && !picked.includes(key)) continue;
  const twin = LAB_TWINS.find((t: LabTwin) => `${t.lab}/${t.variant}` === key);
  if (!twin) continue;
  const small = twin.cases(limits)[0]!;
  // EXP_SMALL=1: time the small case instead (a check of this script on SwiftShader, not a figure).
  const c = process.env.EXP_SMALL ? small : twin.bench(limits);
  const hand = c.passes.map((p) => p.wgsl);
  const generated = twinGeneratedRuns(twin, c);
  const bytes = Math.min(c.bytes, limits.maxBindingBytes);
  const time = (chain: readonly KernelRun[]): Promise<Timing> => gpu.time([...chain], { repeats: 10, baseline: { kind: 'read', bytes } });
  const h1 = await time(hand);
  const chains: [string, KernelRun[], string][] = [['generated', generated, 'yes']];
  for (const [name, edit] of Object.entries(edits)) {
    const runs = edited(generated, edit);
    if (runs.every((r, k) => r.code === generated[k]!.code)) {
      rows.push([key, name, '', '', '', 'the edit found nothing to change']);
      continue;
    }
    chains.push([name, runs, await same(gpu, twinGeneratedRuns(twin, small), edited(twinGeneratedRuns(twin, small), edit))]);
  }
  const timed: [string, Timing[], string][] = [];
  for (const [name, runs, ok] of chains) timed.push([name, [await time(runs)], ok]);
  for (let i = chains.length - 1; i >= 0; i--) timed[i]![1].push(await time(chains[i]![1]));
  const h2 = await time(hand);
  const handShare = median([share(h1), share(h2)]);
  rows.push([key, 'hand-written', `${fmt(h1.medianMs, 4)} / ${fmt(h2.medianMs, 4)}`, '1.000', '', '']);
  for (const [name, ts, ok] of timed) {
    rows.push([key, name, ts.map((t) => fmt(t.medianMs, 4)).join(' / '), fmt(handShare / median(ts.map(share)), 3), ts.every((t) => t.steady) ? '' : 'UNSTEADY', ok]);
  }
  console.log(`(${key} done)`);
}
console.log(`adapter: ${adapter.name}\n`);
console.log(table(['twin', 'WGSL', 'ms (1st / 2nd)', '÷ hand-written', 'steady', 'same as generated'], rows));
console.log('\nOrder per twin: hand-written, each chain once, each chain again in reverse order, hand-written; each timed against a read of the bytes it reads in alternating rounds (10 rounds).');
gpu.destroy();
process.exit(0);
