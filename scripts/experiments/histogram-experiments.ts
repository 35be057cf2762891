/**
 * Experiments behind the histogram figures in docs/benchmarks.md (issue 16): where the packed
 * variants' time goes, on 2^28 bytes into 256 bins (EXP_LOG2_BYTES to change), each figure timed
 * against a read of the kernel's own input in alternating rounds (`GpuExecutor.time`, as
 * `npm run bench` does).
 *
 *   grid      packed and packed-atomic with 264 to 8192 workgroups, on uniform and one-value bytes
 *   data      packed and packed-atomic at their default grid on every byte distribution
 *   ablate    packed with parts of its work cut out (the counts are then wrong, the timing is the
 *             point): no counting (the bytes only folded into a register), counting without the
 *             flushes between rounds (one at the end, so the counting is not dead code)
 *   batched   variant 8's first version (scripts/experiments/histogram-batched-v1.wgsl: 8 copies, no pipelining,
 *             the 16-equal-bytes test) and what its choices are worth, on uniform and one-value bytes:
 *             its configuration; private copies per workgroup
 *             (1, 2, 4, 8); workgroup size (128 … 1024); vec4s loaded before counting (1, 2, 4, 8);
 *             grid (528 … 4224); copies by warp (the layout before round 2, where the 32 lanes of a
 *             warp on one value share a word); without the 16-equal-bytes test; and no counting at all (the
 *             bytes folded into a register: the loop and loads alone, what the atomics add on top)
 *   round2    variant 8 as now shipped (16 copies, shift and mask, a batch ahead, no 16-equal-bytes
 *             test) and its first version (8 copies interleaved bin by bin) against what might take it past
 *             80 % of a read on uniform bytes, each counted and checked: 16 interleaved copies (the
 *             most 256 bins of 32-bit counters that fit WebGPU's 16 KiB; 2 lanes a word on one value,
 *             at most 2-way bank conflicts on uniform bytes), 32 copies (one bank per lane whatever
 *             the data; 32 KiB, only where the adapter allows it), 512 and 1024 invocations, without
 *             the 16-equal-bytes test, loads issued a batch ahead (software pipelining), a contiguous
 *             chunk per workgroup instead of a grid stride, the word's address from one shift and
 *             mask per byte (byte × COPIES + copy), the last two together, and the loop skeletons
 *             without counting
 *             (EXP_ROUND2_GRID=3 caps every grid: with EXP_LOG2_BYTES=18 each loop then runs, checked)
 *   headline  variant 8 and lanes16 at their defaults on uniform and one-value bytes (4 figures: the
 *             set to run again with WARPSCOPE_DAWN_FLAGS='enable-dawn-features=disable_robustness')
 *   loops     per-warp (variant 5) as shipped and with its 16-byte loop written out (k a constant in
 *             each copy): what Dawn's per-loop iteration counter and the vec4 indexed by the loop
 *             counter cost it, on uniform and one-value bytes
 *   lanes16   the experiment shaders/histogram/lanes16.wgsl (16-bit counters per invocation in a
 *             workgroup of one warp: no bank conflicts whatever the data, a flush per 64 KiB an
 *             invocation reads): its grid, 4 instead of 8 vec4s per batch, no counting, and a grid
 *             of 16 workgroups, whose invocations flush full counters several times (checked)
 *
 * Usage: node … histogram-experiments.mjs [experiment ...] (default: all). Prints figures only.
 */
import { createNodeGpu } from '../../src/gpu/node.ts';
import { fmt, gbps, pct, ratioCell, table } from '../../src/bench/format.ts';
import type { KernelRun } from '../../src/kernel/types.ts';
import { BATCHED_COPIES, BYTE_RANGE, gridOf, LANES16_KERNEL, lanes16Run, type BinRange, HISTOGRAM_KERNELS, histogramReference, histogramRun, LETTER_RANGE, packBytes, type HistogramVariant } from '../../src/labs/histogram/kernel.ts';
import { generateBytes, type Distribution } from '../../src/labs/histogram/data.ts';
import BATCHED_V1_WGSL from './histogram-batched-v1.wgsl?raw';

const chosen = new Set(process.argv.slice(2));
// `headline` repeats figures of `batched` and `lanes16`, so it runs only when named.
const wants = (name: string): boolean => (chosen.size === 0 && name !== 'headline') || chosen.has(name);
const LOG2 = Number(process.env.EXP_LOG2_BYTES ?? 28);
const BINS = 256;
const PACKED: HistogramVariant[] = ['packed', 'packed-atomic'];

const gpu = await createNodeGpu();
const adapter = gpu.adapter!;
console.log(`# Histogram experiments on ${adapter.name}, 2^${LOG2} bytes into ${BINS} bins`);
const n = 2 ** LOG2;

/** Letters count into the seed's 7 bins over 'a' … 'z'; every other distribution into 256 byte bins. */
const binsOf = (dist: Distribution) => (dist === 'letters' || dist === 'alphabet' ? { bins: 7, range: LETTER_RANGE } : { bins: BINS, range: BYTE_RANGE });

const inputs = new Map<Distribution, { words: Uint32Array; want: Uint32Array }>();
function input(dist: Distribution) {
  let got = inputs.get(dist);
  if (!got) {
    const bytes = generateBytes(dist, n, 3);
    got = { words: packBytes(bytes), want: histogramReference(bytes, binsOf(dist).bins, binsOf(dist).range) };
    inputs.clear(); // one input of 256 MiB at a time
    inputs.set(dist, got);
  }
  return got;
}

interface FigureOptions {
  maxGrid?: number;
  source?: string;
  check?: boolean;
  /** Pipeline constants to set beside (or over) the variant's own. */
  overrides?: Record<string, number>;
  /** A kernel that is no lab variant (lanes16.wgsl), built from the same input instead. */
  build?: (words: Uint32Array, n: number, bins: number, range: BinRange) => KernelRun;
}

async function figure(label: string[], dist: Distribution, variant: HistogramVariant, opts: FigureOptions = {}): Promise<string[]> {
  const { words, want } = input(dist);
  const { bins, range } = binsOf(dist);
  const base = opts.build ? opts.build(words, n, bins, range) : histogramRun(variant, words, n, bins, range, opts.source, opts.maxGrid);
  const run = opts.overrides ? { ...base, overrides: { ...base.overrides, ...opts.overrides } } : base;
  let ok = '—';
  if (opts.check !== false) {
    const got = (await gpu.run(run))[0]![1]!;
    ok = want.every((c, b) => got[b] === c) ? 'yes' : 'NO';
  }
  const t = await gpu.time(run, { repeats: 10, baseline: { kind: 'read', bytes: n } });
  return [...label, String(run.workgroups[0]), ok, fmt(t.medianMs, 4), fmt(gbps(n, t.medianMs)), pct(t.relative?.ratio ?? Number.NaN), ratioCell(t)];
}

/** Copies of the first version of variant 8 (scripts/experiments/histogram-batched-v1.wgsl). */
const V1_COPIES = 8;
/**
 * A figure of the first version of variant 8: its source (unless a transform of it is given) and its
 * 8 copies (unless the options set others), on the lab's batched bindings and grid.
 */
const firstVersion = (opts: FigureOptions): FigureOptions => ({
  ...opts,
  source: opts.source ?? BATCHED_V1_WGSL,
  overrides: { COPIES: V1_COPIES, PRIVATE_WORDS: V1_COPIES * BINS, ...opts.overrides },
});

const HEAD = ['workgroups', 'correct', 'median ms', 'GB/s read', '% of read', 'rounds'];
/** Appended to a section's heading when the run sets Dawn flags: its figures are an experiment. */
const flagsNote = process.env.WARPSCOPE_DAWN_FLAGS ? ` (EXPERIMENT: Dawn flags ${process.env.WARPSCOPE_DAWN_FLAGS})` : '';

/** `s` (the first version by default) with every `from` made `to`; throws if `from` is gone, so no ablation times the wrong kernel. */
const editV1 = (from: string, to: string, s = BATCHED_V1_WGSL): string => {
  if (!s.includes(from)) throw new Error(`histogram-experiments: histogram-batched-v1.wgsl no longer contains ${JSON.stringify(from)}`);
  return s.split(from).join(to);
};
/** A first-version source without the 16-equal-bytes test. */
const noSplatV1 = (s: string) => editV1('if (all(v == vec4<u32>(first * 0x01010101u))) {', 'if (false) {', s);
/** A first-version source with its bytes folded into a register instead of counted; an impossible test keeps the fold alive. */
const noCountV1 = (s: string) =>
  editV1(
    '  workgroupBarrier();\n\n  // The merge',
    '  if (folded == 0x9e3779b9u) {\n    atomicAdd(&copies[0], 1u);\n  }\n  workgroupBarrier();\n\n  // The merge',
    editV1('fn count(copy: u32, b: u32, k: u32) {\n', 'var<private> folded: u32;\n\nfn count(copy: u32, b: u32, k: u32) {\n  folded = folded * 31u + b + k;\n  if (copy > 0xffffu) {\n', editV1('    atomicAdd(&copies[bin * COPIES + copy], k);\n  }\n}', '    atomicAdd(&copies[bin * COPIES + copy], k);\n  }\n  }\n}', s)),
  );
/** The overrides for `c` copies of the bins in workgroups of `wg`. */
const copiesOf = (c: number, wg = 256) => ({ WORKGROUP_SIZE: wg, COPIES: c, PRIVATE_WORDS: c * BINS });

if (wants('grid')) {
  const rows: string[][] = [];
  for (const dist of ['uniform', 'one-value'] as Distribution[]) {
    for (const v of PACKED) {
      for (const g of [264, 528, 1056, 1320, 1716, 2112, 3432, 8192]) rows.push(await figure([dist, v], dist, v, { maxGrid: g }));
    }
  }
  console.log(`\n## grid: workgroups launched (default ${gridOf('packed', n)[0]})\n`);
  console.log(table(['data', 'variant', ...HEAD], rows));
}

if (wants('data')) {
  const rows: string[][] = [];
  for (const dist of ['uniform', 'skewed', 'one-value', 'letters'] as Distribution[]) {
    for (const v of [...PACKED, 'per-warp'] as HistogramVariant[]) rows.push(await figure([dist, v], dist, v));
  }
  console.log('\n## data: every distribution (letters into the seed’s 7 bins, the others into 256)\n');
  console.log(table(['data', 'variant', ...HEAD], rows));
}

if (wants('ablate')) {
  const src = HISTOGRAM_KERNELS.packed.wgsl;
  const replace = (from: string, to: string, s = src): string => {
    if (!s.includes(from)) throw new Error(`histogram-experiments: packed.wgsl no longer contains ${JSON.stringify(from)}`);
    return s.replace(from, to);
  };
  const COUNT = `fn count(tx: u32, b: u32) {
  let bin = bin_of(b);`;
  // The bytes folded into a private register instead of counted, kept alive by an impossible test.
  const noCount = replace('}\n\n// vec4 q of the input', '}\n\nvar<private> folded: u32;\n\n// vec4 q of the input', replace(COUNT, `fn count(tx: u32, b: u32) {\n  folded = folded * 31u + b;\n  if (tx > 4096u) {\n  let bin = bin_of(b);`, replace('counters[w] = counters[w] + (1u << ((bin % 4u) * 8u));\n  }', 'counters[w] = counters[w] + (1u << ((bin % 4u) * 8u));\n  }\n  }')));
  const noCountKept = replace('  if (tx < WORDS) {\n    for (var k = 0u;', '  if (folded == 0x9e3779b9u) {\n    atomicAdd(&histo[0], 1u);\n  }\n  if (tx < WORDS) {\n    for (var k = 0u;', noCount);
  // One flush, after the last round, so the counting still has a reader and is not optimised away.
  const noFlush = replace('    workgroupBarrier();\n    if (tx < WORDS) {\n      var even', '    if (r + 1u == rounds) {\n    workgroupBarrier();\n    if (tx < WORDS) {\n      var even', replace('      total += vec4<u32>(even & 0xffffu, odd & 0xffffu, even >> 16u, odd >> 16u);\n    }\n    workgroupBarrier();', '      total += vec4<u32>(even & 0xffffu, odd & 0xffffu, even >> 16u, odd >> 16u);\n    }\n    workgroupBarrier();\n    }'));
  const rows: string[][] = [];
  for (const dist of ['uniform', 'one-value'] as Distribution[]) {
    rows.push(await figure([dist, 'packed, whole'], dist, 'packed'));
    rows.push(await figure([dist, 'no counting (bytes folded into a register), flushes kept'], dist, 'packed', { source: noCountKept, check: false }));
    rows.push(await figure([dist, 'counting, one flush at the end (counts wrap)'], dist, 'packed', { source: noFlush, check: false }));
  }
  console.log('\n## ablate: packed with parts cut out (only the whole kernel’s counts are checked)\n');
  console.log(table(['data', 'kernel', ...HEAD], rows));
}

if (wants('batched')) {
  const src = BATCHED_V1_WGSL;
  const BATCH_BLOCK = /\/\/ batch begin\n[\s\S]*?\/\/ batch end\n/;
  if (!BATCH_BLOCK.test(src)) throw new Error('histogram-experiments: histogram-batched-v1.wgsl lost its “batch begin/end” markers');
  /** The kernel with `k` vec4 loads written out before the counts (BATCH = k). */
  const withBatch = (k: number): string => {
    const loads = Array.from({ length: k }, (_, j) => `    let v${j} = data[q${j === 0 ? '' : ` + ${j}u * stride`}];\n`).join('');
    const counts = Array.from({ length: k }, (_, j) => `    count_vec4(base, v${j});\n`).join('');
    return editV1('const BATCH: u32 = 4u;', `const BATCH: u32 = ${k}u;`, src.replace(BATCH_BLOCK, `// batch begin\n${loads}${counts}    // batch end\n`));
  };
  // The layout before round 2: copy c serves the invocations c × (WORKGROUP_SIZE / COPIES) onwards
  // (whole warps), bin b of copy c at c × BINS + b, so the 32 lanes of a warp on one value queue on one word.
  const byWarp = editV1(
    'total += atomicLoad(&copies[b * COPIES + c]);',
    'total += atomicLoad(&copies[c * BINS + b]);',
    editV1('atomicAdd(&copies[bin * COPIES + copy], k);', 'atomicAdd(&copies[copy + bin], k);', editV1('let base = tx % COPIES; // this invocation\'s copy', 'let base = (tx / (WORKGROUP_SIZE / COPIES)) * BINS;')),
  );
  const rows: string[][] = [];
  for (const dist of ['uniform', 'one-value'] as Distribution[]) {
    const row = (what: string, opts: FigureOptions = {}) => figure([dist, what], dist, 'batched', firstVersion(opts));
    rows.push(await row(`first version: 256 invocations, ${V1_COPIES} copies, 4 vec4s, ${gridOf('batched', n)[0]} workgroups`));
    for (const c of [1, 2, 4]) rows.push(await row(`${c} cop${c === 1 ? 'y' : 'ies'}`, { overrides: copiesOf(c) }));
    rows.push(await row('128 invocations, 4 copies, 2112 workgroups', { overrides: copiesOf(4, 128), maxGrid: 2112 }));
    for (const [wg, grid] of [[512, 528], [1024, 264]] as const) {
      const what = `${wg} invocations, 16 copies, ${grid} workgroups`;
      // WebGPU guarantees 256 invocations a workgroup; the adapter may allow more (an H100 1024).
      if (wg <= adapter.limits.maxComputeInvocationsPerWorkgroup) rows.push(await row(what, { overrides: copiesOf(16, wg), maxGrid: grid }));
      else rows.push([dist, what, `skipped: this adapter allows ${adapter.limits.maxComputeInvocationsPerWorkgroup} invocations a workgroup`, '', '', '', '', '']);
    }
    for (const k of [1, 2, 8]) rows.push(await row(`${k} vec4${k === 1 ? '' : 's'} per batch`, { source: withBatch(k) }));
    for (const g of [528, 2112, 4224]) rows.push(await row(`${g} workgroups`, { maxGrid: g }));
    rows.push(await row('copies by warp (copy c for warp c, bin b at c × 256 + b: the layout before round 2)', { source: byWarp }));
    rows.push(await row('no 16-equal-bytes test', { source: noSplatV1(src) }));
    rows.push(await row('no counting: loads and loop only (bytes folded into a register)', { source: noCountV1(src), check: false }));
  }
  console.log(`\n## batched: variant 8 and its choices${flagsNote}\n`);
  console.log(table(['data', 'kernel', ...HEAD], rows));
}

if (wants('round2')) {
  const src = BATCHED_V1_WGSL;
  const WHOLE = / {2}\/\/ Whole batches[\s\S]*?\/\/ batch end\n {4}q \+= BATCH \* stride;\n {2}}\n/;
  if (!WHOLE.test(src)) throw new Error('histogram-experiments: histogram-batched-v1.wgsl lost its loop of whole batches');
  const loads = (kw: string, names: string) =>
    [0, 1, 2, 3].map((j) => `    ${kw} ${names}${j} = data[q${j === 0 ? '' : ` + ${j}u * stride`}];\n`).join('');
  const counts = (names: string, indent: string) => [0, 1, 2, 3].map((j) => `${indent}count_vec4(base, ${names}${j});\n`).join('');
  // The next batch's four loads issued before the current batch is counted.
  const pipelined = (s: string) =>
    s.replace(
      WHOLE,
      `  // Whole batches, one ahead: batch k + 1 is loaded before batch k is counted.\n  if (q + (BATCH - 1u) * stride < full) {\n${loads('var', 'v').replace(/^/gm, '  ')}    q += BATCH * stride;\n    while (q + (BATCH - 1u) * stride < full) {\n${loads('let', 'n').replace(/^/gm, '  ')}${counts('v', '      ')}${[0, 1, 2, 3].map((j) => `      v${j} = n${j};\n`).join('')}      q += BATCH * stride;\n    }\n${counts('v', '    ')}  }\n`,
    );
  // Workgroup g reads vec4s [g × per, (g + 1) × per) with a stride of its own size, per a multiple of it.
  const contiguous = (s: string) =>
    editV1(
      '  let stride = WORKGROUP_SIZE * nwg.x;\n  var q = gid.x;',
      '  let stride = WORKGROUP_SIZE;\n  let per = ((full + nwg.x - 1u) / nwg.x + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE * WORKGROUP_SIZE;\n  let end = min(full, wid.x * per + per);\n  var q = wid.x * per + tx;',
      editV1('@builtin(num_workgroups) nwg: vec3<u32>)', '@builtin(num_workgroups) nwg: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>)', s.replace(/ \* stride < full\)/g, ' * stride < end)').replace('while (q < full) {', 'while (q < end) {')),
    );
  // Bytes 0 … 255 into 256 bins: word (byte × COPIES) | copy straight from a shift and a mask.
  const shiftAddress = (s: string, copies: number) => {
    const k = Math.log2(copies);
    const mask = `0x${(255 * copies).toString(16)}u`;
    const at = (shift: number) => (shift === 0 ? `w << ${k}u` : shift > k ? `w >> ${shift - k}u` : `w << ${k - shift}u`);
    const body = [0, 8, 16, 24].map((sh) => `  atomicAdd(&copies[((${at(sh)}) & ${mask}) | base], 1u);\n`).join('');
    return editV1(
      '  count(base, w & 0xffu, 1u);\n  count(base, (w >> 8u) & 0xffu, 1u);\n  count(base, (w >> 16u) & 0xffu, 1u);\n  count(base, w >> 24u, 1u);\n',
      body,
      s,
    );
  };
  const limits = adapter.limits;
  const rows: string[][] = [];
  for (const dist of ['uniform', 'one-value'] as Distribution[]) {
    // EXP_ROUND2_GRID caps the workgroups, so that a small input on a small adapter runs every
    // loop (several batches, leftover vec4s) of each candidate before the counts are checked.
    const cap = process.env.EXP_ROUND2_GRID ? Number(process.env.EXP_ROUND2_GRID) : undefined;
    const row = (what: string, opts: FigureOptions = {}) => figure([dist, what], dist, 'batched', firstVersion(cap === undefined ? opts : { ...opts, maxGrid: cap }));
    const skip = (what: string, why: string) => rows.push([dist, what, `skipped: ${why}`, '', '', '', '', '']);
    rows.push(await figure([dist, `shipped: 256 invocations, ${BATCHED_COPIES} copies, shift and mask, a batch ahead, ${gridOf('batched', n)[0]} workgroups`], dist, 'batched', cap === undefined ? {} : { maxGrid: cap }));
    rows.push(await row(`first version: ${V1_COPIES} copies interleaved, 4 vec4s, the 16-equal-bytes test`));
    const c16 = copiesOf(16);
    rows.push(await row('16 copies', { overrides: c16 }));
    if (limits.maxComputeWorkgroupStorageSize >= 32 * BINS * 4) rows.push(await row('32 copies (32 KiB: one bank per lane)', { overrides: copiesOf(32) }));
    else skip('32 copies (32 KiB: one bank per lane)', `this device allows ${limits.maxComputeWorkgroupStorageSize} bytes of workgroup memory`);
    for (const [wg, grid] of [[512, 528], [1024, 264]] as const) {
      const what = `16 copies, ${wg} invocations, ${grid} workgroups`;
      if (wg <= limits.maxComputeInvocationsPerWorkgroup) rows.push(await row(what, { overrides: copiesOf(16, wg), maxGrid: grid }));
      else skip(what, `this adapter allows ${limits.maxComputeInvocationsPerWorkgroup} invocations a workgroup`);
    }
    rows.push(await row('8 copies, no 16-equal-bytes test', { source: noSplatV1(src) }));
    rows.push(await row('16 copies, no 16-equal-bytes test', { source: noSplatV1(src), overrides: c16 }));
    rows.push(await row('16 copies, loads a batch ahead', { source: pipelined(src), overrides: c16 }));
    rows.push(await row('16 copies, a contiguous chunk per workgroup', { source: contiguous(src), overrides: c16 }));
    rows.push(await row('16 copies, address by shift and mask', { source: shiftAddress(src, 16), overrides: c16 }));
    rows.push(await row('16 copies, address by shift and mask, loads a batch ahead', { source: pipelined(shiftAddress(src, 16)), overrides: c16 }));
    rows.push(await row('16 copies, shift and mask, a batch ahead, no 16-equal-bytes test', { source: noSplatV1(pipelined(shiftAddress(src, 16))), overrides: c16 }));
    rows.push(await row('no counting: grid stride (loads and loop only)', { source: noCountV1(src), check: false }));
    rows.push(await row('no counting: loads a batch ahead', { source: noCountV1(pipelined(src)), check: false }));
    rows.push(await row('no counting: a contiguous chunk per workgroup', { source: noCountV1(contiguous(src)), check: false }));
  }
  console.log(`\n## round2: variant 8 (interleaved copies) and what might take it past 80 % of a read${flagsNote}\n`);
  console.log(table(['data', 'kernel', ...HEAD], rows));
}

if (wants('lanes16')) {
  const src = LANES16_KERNEL.wgsl;
  const replace = (from: string, to: string, s = src): string => {
    if (!s.includes(from)) throw new Error(`histogram-experiments: lanes16.wgsl no longer contains ${JSON.stringify(from)}`);
    return s.split(from).join(to);
  };
  const batch4 = replace(
    '      let v4 = data[q + 4u * stride];\n      let v5 = data[q + 5u * stride];\n      let v6 = data[q + 6u * stride];\n      let v7 = data[q + 7u * stride];\n',
    '',
    replace('      count_vec4(tx, v4);\n      count_vec4(tx, v5);\n      count_vec4(tx, v6);\n      count_vec4(tx, v7);\n', '', replace('const BATCH: u32 = 8u;', 'const BATCH: u32 = 4u;')),
  );
  const noCount = replace(
    '    workgroupBarrier();\n    flush(tx);',
    '    if (folded == 0x9e3779b9u) {\n      atomicAdd(&counters[0], 1u);\n    }\n    workgroupBarrier();\n    flush(tx);',
    replace('fn count(tx: u32, b: u32, k: u32) {\n', 'var<private> folded: u32;\n\nfn count(tx: u32, b: u32, k: u32) {\n  folded = folded * 31u + b + k;\n  if (tx > 4096u) {\n', replace('    atomicAdd(&counters[((bin / 2u) * WORKGROUP_SIZE) | tx], k << ((bin % 2u) * 16u));\n  }\n}', '    atomicAdd(&counters[((bin / 2u) * WORKGROUP_SIZE) | tx], k << ((bin % 2u) * 16u));\n  }\n  }\n}')),
  );
  const rows: string[][] = [];
  for (const dist of ['uniform', 'one-value'] as Distribution[]) {
    const row = (what: string, opts: { maxGrid?: number; source?: string; check?: boolean } = {}) =>
      figure([dist, what], dist, 'batched', { check: opts.check !== false, build: (w, len, bins, range) => lanes16Run(w, len, bins, range, opts) });
    rows.push(await row('lanes16: 32 invocations, 8 vec4s a batch, default grid'));
    for (const g of [858, 3432]) rows.push(await row(`${g} workgroups`, { maxGrid: g }));
    rows.push(await row('16 workgroups (every invocation flushes full counters several times)', { maxGrid: 16 }));
    rows.push(await row('4 vec4s a batch', { source: batch4 }));
    rows.push(await row('no counting: loads, loop and flush only (bytes folded into a register)', { source: noCount, check: false }));
  }
  console.log('\n## lanes16: 16-bit counters per invocation, one warp a workgroup (an experiment, not a lab variant)\n');
  console.log(table(['data', 'kernel', ...HEAD], rows));
}

if (wants('headline')) {
  const rows: string[][] = [];
  for (const dist of ['uniform', 'one-value'] as Distribution[]) {
    rows.push(await figure([dist, 'batched (variant 8)'], dist, 'batched'));
    rows.push(await figure([dist, 'lanes16 (experiment)'], dist, 'batched', { build: (w, len, bins, range) => lanes16Run(w, len, bins, range) }));
  }
  console.log(`\n## headline: variant 8 and lanes16 at their defaults${flagsNote}\n`);
  console.log(table(['data', 'kernel', ...HEAD], rows));
}

if (wants('loops')) {
  const src = HISTOGRAM_KERNELS['per-warp'].wgsl;
  const head = '    for (var k = 0u; k < 16u; k++) {\n';
  const start = src.indexOf(head);
  const tail = '\n    }\n    q += stride;';
  const end = src.indexOf(tail, start);
  if (start < 0 || end < 0) throw new Error('histogram-experiments: per-warp.wgsl no longer has its 16-byte loop');
  const body = src.slice(start + head.length, end + 1);
  const copies = Array.from({ length: 16 }, (_, k) => `    {\n      let k = ${k}u;\n${body.replace(/^/gm, '  ')}    }\n`).join('');
  const unrolled = src.slice(0, start) + copies + src.slice(end + tail.length - '    q += stride;'.length);
  const rows: string[][] = [];
  for (const dist of ['uniform', 'one-value'] as Distribution[]) {
    rows.push(await figure([dist, 'per-warp as shipped (a loop of 16 over the vec4)'], dist, 'per-warp'));
    rows.push(await figure([dist, 'per-warp with the 16 bytes written out'], dist, 'per-warp', { source: unrolled }));
  }
  console.log('\n## loops: per-warp with and without its 16-byte loop\n');
  console.log(table(['data', 'kernel', ...HEAD], rows));
}
