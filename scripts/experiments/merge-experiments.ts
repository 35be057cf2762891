/**
 * Experiments behind the merge figures in docs/benchmarks.md (issue 19): where the time of a merge
 * of two sorted 2^25-element arrays goes (EXP_LOG2=26 outputs; smaller to try it on SwiftShader),
 * each figure the whole chain (partition pass, then merge pass) timed against a copy of its own
 * buffers in alternating rounds (`GpuExecutor.time`, as `npm run bench` does).
 *
 *   shape     the wide merge with 32 to 256 invocations × 7 to 47 outputs each (every tile within
 *             16 KiB of workgroup memory), beside the stream and fast variants, on the bench's
 *             data (evens in A, odds in B: the path zigzags all the way)
 *   data      stream and three wide shapes on random sorted keys, disjoint ranges (all of A below
 *             all of B) and one repeated key (every tile all A, then all B)
 *   ablate    the shipped wide (256 × 15, binary-search partition) with parts cut out (outputs then
 *             wrong; the timing is the point): no search (each invocation starts at min(t0, la)),
 *             no search and no merge (the tile is staged and stored back: the kernel's data
 *             movement alone); the merge pass alone; its partition pass alone; and the 33-way
 *             partition (partition-wide.wgsl, shipped before) in its place and alone
 *
 *   vec4      the vec4 variant (issue 29: the wide tile with vec4 loads and stores) at several
 *             shapes, beside the shipped wide chain; with 4- and 8-way partition passes; its parts
 *             alone (each partition pass, the merge pass, the tile staged and stored only, the
 *             merge pass without its search)
 *
 *   drain     the vec4 chain with its partition pass's search replaced by k / 2 (zigzag data):
 *             what the search costs apart from the second dispatch and the drain before it; and
 *             the vec4 merge pass with its fixed-count loops written out
 *
 *   prefetch  an experiment kernel, not a lab variant (scripts/experiments/merge-wide-prefetch.wgsl):
 *             wide with workgroups walking over tiles and the next tile's words loaded into
 *             registers during the current tile's merge, at three shapes and grids of
 *             EXP_PREFETCH_GRIDS workgroups (default 1056,2112,4224: 8, 16, 32 per SM)
 *
 *   sampled   issue 29, round 4: the partition's search in two stages (merge-partition-sampled.wgsl,
 *             spliced into partition-kary.wgsl: a first pass copies every STRIDE-th key of A and B
 *             into a small array; the search reads that array first, from L2, then finishes over A
 *             and B in a window of STRIDE), before the vec4 merge pass with its loops written out;
 *             as STRIDE:WAYS pairs EXP_SAMPLED (default 256:2,256:4,256:8,128:2: the window searched
 *             with 1, 3 or 7 probes a round), the passes alone, and the binary-search chain beside
 *             it. EXP_TWICE=1 prints the table twice (runs a, b; b the chains only).
 *   safety    issue 29, round 4: a few rows to run again under WARPSCOPE_DAWN_FLAGS (what Dawn's
 *             zero-filled workgroup memory and bounds clamps cost; never product figures): the vec4
 *             merge pass alone (loops written out), its tile staged and stored only, the binary and
 *             sampled chains.
 *   (round 4 also timed a `walk` section, the vec4 merge pass with workgroups walking over tiles
 *   and the next tile's loads in flight during the merge; it was slower and is in git at e07e2a0.)
 *
 * Usage: node … merge-experiments.mjs [experiment ...] (default: all). Prints figures only.
 * Every whole-kernel figure is checked against a CPU merge ("correct").
 */
import { createNodeGpu } from '../../src/gpu/node.ts';
import { fmt, gbps, pct, ratioCell, table } from '../../src/bench/format.ts';
import { MERGE_SHAPES, VEC4_SHAPE, mergePasses, partitionKaryRun, partitionRun, partitionWideRun, splitsOf, typedSource, vec4Run, wideRun, wideSource, MERGE_FILES, type MergeData, type MergeShape } from '../../src/labs/merge/kernel.ts';
import { mergeReference } from '../../src/labs/merge/reference.ts';
import { seededRandom } from '../../src/util/random.ts';
import type { KernelRun } from '../../src/kernel/types.ts';
import PREFETCH_WGSL from './merge-wide-prefetch.wgsl?raw';
import SAMPLED_PARTS from './merge-partition-sampled.wgsl?raw';

const chosen = new Set(process.argv.slice(2));
const wants = (name: string): boolean => chosen.size === 0 || chosen.has(name);
const LOG2 = Number(process.env.EXP_LOG2 ?? 26);
const TOTAL = 2 ** LOG2;
const M = TOTAL / 2;
/** Each input word read once, each output word written once. */
const BYTES = 4 * 2 * TOTAL;

const gpu = await createNodeGpu();
const adapter = gpu.adapter!;
console.log(`# Merge experiments on ${adapter.name}, 2^${LOG2} outputs (two sorted 2^${LOG2 - 1}-element i32 arrays)`);
if (process.env.WARPSCOPE_DAWN_FLAGS) console.log(`EXPERIMENT, not a product figure: Dawn flags ${process.env.WARPSCOPE_DAWN_FLAGS}`);

type DataKind = 'zigzag' | 'random' | 'disjoint' | 'one-key';

function makeData(kind: DataKind): MergeData {
  const a = new Int32Array(M);
  const b = new Int32Array(TOTAL - M);
  const r = seededRandom(7);
  if (kind === 'zigzag') {
    for (let i = 0; i < a.length; i++) a[i] = 2 * i;
    for (let j = 0; j < b.length; j++) b[j] = 2 * j + 1;
  } else if (kind === 'random') {
    // Sorted by construction: steps of 0 to 7, so equal keys occur within and across the arrays.
    for (let i = 1; i < a.length; i++) a[i] = a[i - 1]! + Math.floor(r() * 8);
    for (let j = 1; j < b.length; j++) b[j] = b[j - 1]! + Math.floor(r() * 8);
  } else if (kind === 'disjoint') {
    for (let i = 0; i < a.length; i++) a[i] = i;
    for (let j = 0; j < b.length; j++) b[j] = a.length + j;
  } else {
    a.fill(42);
    b.fill(42);
  }
  return { a, b, m: a.length, n: b.length };
}

let current: { kind: DataKind; data: MergeData; want: Int32Array } | undefined;
/** One input (and its CPU merge) at a time: each holds 2^LOG2 words twice. */
function input(kind: DataKind) {
  if (current?.kind !== kind) {
    current = undefined;
    const data = makeData(kind);
    current = { kind, data, want: mergeReference(data.a, data.m, data.b, data.n) as Int32Array };
  }
  return current;
}

/** The wide chain of one shape (the shipped binary-search partition, then the merge pass), optionally with an ablated merge-pass source. */
function wideChain(data: MergeData, shape: MergeShape, source?: string): KernelRun[] {
  return [partitionRun(data, undefined, 'wide', shape), wideRun(data, splitsOf(data, 'wide', shape), source, shape)];
}

/** Runs the chain for real (partition on the GPU, then the merge over those splits) and compares. */
async function correct(chain: readonly KernelRun[], want: Int32Array): Promise<string> {
  const [partition, merge] = chain;
  if (!partition || !merge) return '—';
  const splits = (await gpu.run(partition))[0]![2] as Uint32Array;
  const got = (await gpu.run({ ...merge, bindings: { 0: { ...merge.bindings[0], 4: splits } } }))[0]![2] as Int32Array;
  for (let k = 0; k < want.length; k++) if (got[k] !== want[k]) return `NO (C[${k}] = ${got[k]}, want ${want[k]})`;
  return 'yes';
}

async function figure(label: string[], chain: readonly KernelRun[], want: Int32Array | undefined, checked?: string): Promise<string[]> {
  const ok = checked ?? (want ? await correct(chain, want) : '—');
  const t = await gpu.time(chain, { repeats: 10, baseline: { kind: 'copy', bytes: BYTES } });
  const groups = chain[chain.length - 1]!.workgroups;
  return [...label, groups.join(' × '), ok, fmt(t.medianMs, 4), fmt(gbps(BYTES, t.medianMs)), pct(t.relative?.ratio ?? Number.NaN), ratioCell(t)];
}

const HEAD = ['merge workgroups', 'correct', 'median ms', 'GB/s', '% of copy', 'rounds'];
const shapeLabel = (s: MergeShape) => `wide ${s.workgroupSize} × ${s.items} (tile ${s.workgroupSize * s.items})`;

/** Every shape timed; tiles of at most 4096 words (16 KiB). */
const SHAPES: MergeShape[] = [
  // One warp per workgroup: its barriers cost next to nothing, but an SM holds at most 32 workgroups.
  { workgroupSize: 32, items: 31 },
  { workgroupSize: 32, items: 47 },
  { workgroupSize: 64, items: 15 },
  { workgroupSize: 64, items: 23 },
  { workgroupSize: 64, items: 31 },
  { workgroupSize: 64, items: 47 },
  { workgroupSize: 128, items: 7 },
  { workgroupSize: 128, items: 11 },
  { workgroupSize: 128, items: 15 },
  { workgroupSize: 128, items: 23 },
  { workgroupSize: 128, items: 31 },
  { workgroupSize: 256, items: 7 },
  { workgroupSize: 256, items: 11 },
  { workgroupSize: 256, items: 15 },
  { workgroupSize: 192, items: 21 },
];

if (wants('shape')) {
  const { data, want } = input('zigzag');
  const rows: string[][] = [];
  rows.push(await figure(['stream 128 × 11 (reference)'], mergePasses('stream', data), want));
  rows.push(await figure(['fast 128 × 8 (reference)'], mergePasses('fast', data), want));
  for (const shape of SHAPES) rows.push(await figure([shapeLabel(shape)], wideChain(data, shape), want));
  console.log('\n## shape: invocations × outputs per invocation, zigzag data (the bench’s)\n');
  console.log(table(['kernel', ...HEAD], rows));
}

if (wants('data')) {
  const rows: string[][] = [];
  for (const kind of ['random', 'disjoint', 'one-key'] as DataKind[]) {
    const { data, want } = input(kind);
    rows.push(await figure([kind, 'stream 128 × 11'], mergePasses('stream', data), want));
    for (const shape of [{ workgroupSize: 64, items: 23 }, { workgroupSize: 128, items: 15 }, { workgroupSize: 256, items: 15 }]) rows.push(await figure([kind, shapeLabel(shape)], wideChain(data, shape), want));
  }
  console.log('\n## data: input kinds (the path’s shape moves the workgroup-memory bank conflicts)\n');
  console.log(table(['data', 'kernel', ...HEAD], rows));
}

if (wants('ablate')) {
  const shape: MergeShape = MERGE_SHAPES.wide;
  const src = wideSource(shape.items);
  const replace = (from: string, to: string, s: string): string => {
    if (!s.includes(from)) throw new Error(`merge-experiments: ${MERGE_FILES.wide.file} no longer contains ${JSON.stringify(from)}`);
    return s.replace(from, to);
  };
  const noSearch = replace('var i = co_rank_tile(t0, la, count - la);', 'var i = min(t0, la);', src);
  const MERGE_LOOP = / {2}var av = tile\[min\(i, TILE - 1u\)\];[\s\S]*?bv = select\(next, bv, take_a\);\n {2}}\n/;
  if (!MERGE_LOOP.test(noSearch)) throw new Error(`merge-experiments: ${MERGE_FILES.wide.file}'s merge loop is no longer where the ablation expects it`);
  // The staged words read back in order instead of merged (i and j kept alive through a test no
  // input passes, so the loop's loads stay).
  const skeleton = noSearch.replace(MERGE_LOOP, '  for (var r = 0u; r < ITEMS; r++) {\n    v[r] = tile[min(t0 + r, TILE - 1u)];\n  }\n  if (i + j == 0xffffffffu) {\n    v[0] = T();\n  }\n');
  const { data, want } = input('zigzag');
  const whole = wideChain(data, shape);
  const rows: string[][] = [];
  rows.push(await figure(['whole (binary-search partition + merge)'], whole, want));
  // The same tiles split by the 33-way pass (one workgroup of 32 per boundary), shipped before.
  const way33 = partitionWideRun(data, undefined, shape);
  rows.push(await figure(['whole, 33-way partition instead'], [way33, whole[1]!], want));
  rows.push(await figure(['no search in the tile'], wideChain(data, shape, noSearch), undefined));
  rows.push(await figure(['no search, no merge (stage and store only)'], wideChain(data, shape, skeleton), undefined));
  rows.push(await figure(['merge pass alone (splits from the CPU)'], [whole[1]!], undefined));
  rows.push(await figure(['binary-search partition pass alone'], [whole[0]!], undefined));
  rows.push(await figure(['33-way partition pass alone'], [way33], undefined));
  console.log(`\n## ablate: ${shapeLabel(shape)} with parts cut out (only the whole kernel is checked; % of copy counts the whole merge’s bytes)\n`);
  console.log(table(['kernel', ...HEAD], rows));
}

if (wants('vec4')) {
  const { data, want } = input('zigzag');
  const vec4Chain = (shape: MergeShape, source?: string, ways = 2): KernelRun[] => [
    ways === 2 ? partitionRun(data, undefined, 'wide', shape) : partitionKaryRun(data, ways, 'wide', shape),
    vec4Run(data, splitsOf(data, 'wide', shape), source ?? (shape.items === VEC4_SHAPE.items ? undefined : wideSource(shape.items, MERGE_FILES.vec4.wgsl)), shape),
  ];
  const rows: string[][] = [];
  const wide = wideChain(data, MERGE_SHAPES.wide);
  // The first row an experiment prints after it starts can come out slow (docs/benchmarks.md): a warm-up row, not quoted.
  rows.push(await figure(['warm-up: wide 256 × 15 (not quoted)'], wide, want));
  rows.push(await figure(['wide 256 × 15 (shipped, binary partition)'], wide, want));
  for (const shape of [{ workgroupSize: 256, items: 15 }, { workgroupSize: 256, items: 11 }, { workgroupSize: 128, items: 31 }, { workgroupSize: 192, items: 19 }]) {
    rows.push(await figure([`vec4 ${shape.workgroupSize} × ${shape.items} (binary partition)`], vec4Chain(shape), want));
  }
  const shape = VEC4_SHAPE;
  const whole = vec4Chain(shape);
  for (const ways of [4, 8]) rows.push(await figure([`vec4 256 × 15, ${ways}-way partition`], vec4Chain(shape, undefined, ways), want));
  rows.push(await figure(['vec4 merge pass alone (splits from the CPU)'], [whole[1]!], undefined));
  rows.push(await figure(['wide merge pass alone (splits from the CPU)'], [wide[1]!], undefined));
  rows.push(await figure(['binary partition pass alone'], [whole[0]!], undefined));
  for (const ways of [4, 8]) rows.push(await figure([`${ways}-way partition pass alone`], [partitionKaryRun(data, ways, 'wide', shape)], undefined));
  // The tile staged as vec4s and stored back (no search, no merge): the pass's data movement alone.
  const src = MERGE_FILES.vec4.wgsl;
  const MERGE_PART = / {2}let t0 = min\(lid \* ITEMS, count\);[\s\S]*?\n {2}workgroupBarrier\(\);\n {2}\/\/ Each invocation/;
  if (!MERGE_PART.test(src)) throw new Error(`merge-experiments: ${MERGE_FILES.vec4.file}'s search and merge are no longer where the ablation expects them`);
  const skeleton = src.replace(MERGE_PART, '  var v: array<T, ITEMS>;\n  for (var r = 0u; r < ITEMS; r++) {\n    v[r] = word(min(lid * ITEMS + r, 4u * SLOTS - 1u));\n  }\n  workgroupBarrier();\n  // Each invocation');
  rows.push(await figure(['vec4 stage and store only (merge pass)'], [vec4Chain(shape, skeleton)[1]!], undefined));
  const noSearch = src.replace('var i = co_rank_tile(t0, sa, la, sb, lb);', 'var i = min(t0, la);');
  if (noSearch === src) throw new Error(`merge-experiments: ${MERGE_FILES.vec4.file} no longer searches as the ablation expects`);
  rows.push(await figure(['vec4 merge pass, no search in the tile'], [vec4Chain(shape, noSearch)[1]!], undefined));
  console.log('\n## vec4: the wide tile with vec4 loads and stores, and k-way partition passes (only whole chains are checked)\n');
  console.log(table(['kernel', ...HEAD], rows));
}

/** `for (var r = 0u; r < NAME; r++) { … }` for each NAME given, replaced by its body once per r with `let r = …u;`. */
function unrollFixedLoops(code: string, counts: Readonly<Record<string, number>>): string {
  let out = code;
  for (const [name, count] of Object.entries(counts)) {
    const head = `for (var r = 0u; r < ${name}; r++) {`;
    for (let at = out.indexOf(head); at >= 0; at = out.indexOf(head)) {
      let depth = 1;
      let end = at + head.length;
      for (; depth > 0; end++) depth += out[end] === '{' ? 1 : out[end] === '}' ? -1 : 0;
      const body = out.slice(at + head.length, end - 1);
      const copies = Array.from({ length: count }, (_, r) => `{\n    let r = ${r}u;${body}}`).join(' ');
      out = out.slice(0, at) + copies + out.slice(end);
    }
  }
  if (out === code) throw new Error('merge-experiments: no fixed-count loop to write out');
  return out;
}

if (wants('drain')) {
  // Issue 29, round 3: how much of the partition pass is its search and how much the pass itself
  // (a second dispatch, and the drain between the two): the pass with its search replaced by
  // k / 2 (right for the zigzag data's m = n up to one; the chain's output is not checked).
  const { data, want } = input('zigzag');
  const shape = VEC4_SHAPE;
  const binary = partitionRun(data, undefined, 'wide', shape);
  const searchLine = 'splits[g] = co_rank(min(g * TILE, params.m + params.n));';
  if (!binary.code.includes(searchLine)) throw new Error(`merge-experiments: ${MERGE_FILES.partition.file} no longer holds ${JSON.stringify(searchLine)}`);
  const noSearch = { ...binary, code: binary.code.replace(searchLine, 'splits[g] = min(g * TILE, params.m + params.n) / 2u;') };
  const merge = vec4Run(data, splitsOf(data, 'wide', shape), undefined, shape);
  // The same merge pass with its fixed-count loops written out (r a constant in each copy), in case
  // the driver keeps the register array `v` in memory when the loops stay loops.
  const unrolled = { ...merge, code: unrollFixedLoops(merge.code, { ITEMS: shape.items, LOADS: Math.floor((shape.items + 4) / 4) }) };
  const rows: string[][] = [];
  rows.push(await figure(['warm-up: vec4 256 × 15 chain (not quoted)'], [binary, merge], want));
  rows.push(await figure(['vec4 256 × 15 chain (binary partition + merge)'], [binary, merge], want));
  rows.push(await figure(['vec4 chain, partition without its search (k / 2)'], [noSearch, merge], undefined));
  rows.push(await figure(['vec4 merge pass alone (splits from the CPU)'], [merge], undefined));
  rows.push(await figure(['binary partition pass alone'], [binary], undefined));
  rows.push(await figure(['partition pass without its search, alone'], [noSearch], undefined));
  rows.push(await figure(['vec4 chain, merge loops written out'], [binary, unrolled], want));
  rows.push(await figure(['vec4 merge pass alone, loops written out'], [unrolled], undefined));
  console.log('\n## drain: the partition pass’s search apart from the pass itself (vec4 256 × 15; only the whole chain is checked)\n');
  console.log(table(['kernel', ...HEAD], rows));
}

if (wants('prefetch')) {
  const grids = (process.env.EXP_PREFETCH_GRIDS ?? '1056,2112,4224').split(',').map(Number);
  const { data, want } = input('zigzag');
  const rows: string[][] = [];
  for (const shape of [{ workgroupSize: 128, items: 15 }, { workgroupSize: 128, items: 11 }, { workgroupSize: 64, items: 23 }]) {
    const [partition, merge] = wideChain(data, shape);
    const tiles = Math.ceil(TOTAL / (shape.workgroupSize * shape.items));
    const source = typedSource(wideSource(shape.items, PREFETCH_WGSL), 'i32');
    for (const grid of grids) {
      const walk = { ...merge!, code: source, label: 'merge.wide-prefetch', workgroups: [Math.min(grid, tiles)] as const };
      rows.push(await figure([`${shapeLabel(shape)}, ${Math.min(grid, tiles)} workgroups walking`], [partition!, walk], want));
    }
  }
  console.log('\n## prefetch: wide with the next tile’s loads in flight during the merge (an experiment kernel)\n');
  console.log(table(['kernel', ...HEAD], rows));
}

/** partition-kary.wgsl (WAYS = `ways`) with the sampled partition's parts spliced in: the samples binding, the coarse stage, the `sample` entry point. */
function sampledSource(ways: number): string {
  const part = (name: string): string => {
    const at = SAMPLED_PARTS.indexOf(`// @splice ${name}`);
    if (at < 0) throw new Error(`merge-experiments: merge-partition-sampled.wgsl has no \`// @splice ${name}\` part`);
    const from = SAMPLED_PARTS.indexOf('\n', at) + 1;
    const next = SAMPLED_PARTS.indexOf('// @splice', from);
    return SAMPLED_PARTS.slice(from, next < 0 ? undefined : next);
  };
  const splice = (code: string, after: string, text: string): string => {
    if (!code.includes(after)) throw new Error(`merge-experiments: ${MERGE_FILES['partition-kary'].file} no longer holds ${JSON.stringify(after)}`);
    return code.replace(after, after + text);
  };
  let code = partitionKaryRun({ a: new Int32Array(1), b: new Int32Array(1), m: 1, n: 1 }, ways, 'wide').code;
  code = splice(code, '  boundaries: u32, // tiles + 1\n', '  a_samples: u32, // ceil(m / STRIDE): where B\'s samples start in `samples`\n');
  code = splice(code, '@group(0) @binding(3) var<uniform> params: Params;\n', '@group(0) @binding(4) var<storage, read_write> samples: array<T>;\n// Keys between two samples.\noverride STRIDE: u32 = 256;\n');
  code = splice(code, '  var hi = min(k, params.m);\n', part('coarse'));
  return `${code}\n${part('sample')}`;
}

/** The sampled partition's two passes for tiles of `shape`: the sample pass, and the search over its samples (computed here on the CPU, for timing). */
function sampledPasses(data: MergeData, shape: MergeShape, stride: number, fineWays = 2): { sample: KernelRun; partition: KernelRun; samplesOf: () => Int32Array } {
  const tile = shape.workgroupSize * shape.items;
  if (tile % stride !== 0) throw new RangeError(`merge-experiments: the sampled partition needs tiles that are multiples of its stride (${tile} % ${stride} ≠ 0)`);
  const { m, n } = data;
  const total = m + n;
  const aSamples = Math.ceil(m / stride);
  const count = aSamples + Math.floor(n / stride);
  const boundaries = Math.ceil(total / tile) + 1;
  const params = new Uint32Array([m, n, boundaries, aSamples]);
  const samplesOf = (): Int32Array => {
    const out = new Int32Array(Math.max(1, count));
    for (let q = 0; q < aSamples; q++) out[q] = data.a[q * stride]!;
    for (let p = 1; aSamples + p - 1 < count; p++) out[aSamples + p - 1] = data.b[p * stride - 1]!;
    return out;
  };
  const code = sampledSource(fineWays);
  const file = 'scripts/experiments/merge-partition-sampled.wgsl';
  const splits = new Uint32Array(boundaries);
  const overrides = { WORKGROUP_SIZE: 64, TILE: tile, STRIDE: stride };
  const sample: KernelRun = {
    code, entryPoint: 'sample', file, label: 'merge.sample',
    workgroups: [Math.max(1, Math.ceil(count / 256))],
    bindings: { 0: { 0: data.a, 1: data.b, 2: splits, 3: params, 4: new Int32Array(Math.max(1, count)) } },
    overrides,
  };
  const partition: KernelRun = {
    code, entryPoint: 'main', file, label: 'merge.partition-sampled',
    workgroups: [Math.ceil(boundaries / 64)],
    bindings: { 0: { 0: data.a, 1: data.b, 2: splits, 3: params, 4: samplesOf() } },
    overrides,
  };
  return { sample, partition, samplesOf };
}

/** The sampled chain run for real (samples, then splits from them, then the merge over those splits): the splits and the output against the CPU's. */
async function correctSampled(data: MergeData, shape: MergeShape, stride: number, merge: KernelRun, want: Int32Array | undefined, fineWays = 2): Promise<string> {
  const { sample, partition, samplesOf } = sampledPasses(data, shape, stride, fineWays);
  const samples = (await gpu.run(sample))[0]![4] as Int32Array;
  const cpuSamples = samplesOf();
  for (let s = 0; s < cpuSamples.length; s++) if (samples[s] !== cpuSamples[s]) return `NO (sample ${s} = ${samples[s]}, want ${cpuSamples[s]})`;
  const splits = (await gpu.run({ ...partition, bindings: { 0: { ...partition.bindings[0], 4: samples } } }))[0]![2] as Uint32Array;
  const wantSplits = splitsOf(data, 'wide', shape);
  for (let g = 0; g < wantSplits.length; g++) if (splits[g] !== wantSplits[g]) return `NO (split ${g} = ${splits[g]}, want ${wantSplits[g]})`;
  if (!want) return 'splits yes';
  const got = (await gpu.run({ ...merge, bindings: { 0: { ...merge.bindings[0], 4: splits } } }))[0]![2] as Int32Array;
  for (let k = 0; k < want.length; k++) if (got[k] !== want[k]) return `NO (C[${k}] = ${got[k]}, want ${want[k]})`;
  return 'yes';
}

/** The vec4 merge pass (256 × 15) with its fixed-count loops written out, over the CPU's splits; from `source` (vec4.wgsl by default). */
function unrolledMerge(data: MergeData, source?: string): KernelRun {
  const shape = VEC4_SHAPE;
  const run = vec4Run(data, splitsOf(data, 'wide', shape), source, shape);
  return { ...run, code: unrollFixedLoops(run.code, { ITEMS: shape.items, LOADS: Math.floor((shape.items + 4) / 4) }) };
}

if (wants('sampled')) {
  // Each variant is STRIDE:WAYS.
  const variants = (process.env.EXP_SAMPLED ?? '256:2,256:4,256:8,128:2').split(',').map((v) => v.split(':').map(Number) as [number, number]);
  const shape = VEC4_SHAPE;
  // Correctness first, on every input kind (and, at small sizes, on uneven m and n): the splits
  // from the samples against the CPU's co-ranks, and the whole chain's output against a CPU merge.
  const checks: string[][] = [];
  for (const kind of (LOG2 <= 16 ? ['zigzag', 'random', 'disjoint', 'one-key'] : ['random', 'zigzag']) as DataKind[]) {
    const { data, want } = input(kind);
    for (const [stride, ways] of variants) checks.push([kind, `m = ${data.m}, n = ${data.n}`, `${stride}:${ways}`, await correctSampled(data, shape, stride, unrolledMerge(data), want, ways)]);
  }
  if (LOG2 <= 16) {
    const r = seededRandom(11);
    for (const [m, n] of [[1, TOTAL - 1], [TOTAL - 5, 5], [3 * TOTAL / 4 + 3, TOTAL / 4 - 3], [777, 2 * 3840 + 1], [0, 300], [300, 0]] as const) {
      const a = new Int32Array(Math.max(1, m));
      const b = new Int32Array(Math.max(1, n));
      for (let i = 1; i < m; i++) a[i] = a[i - 1]! + Math.floor(r() * 4);
      for (let j = 1; j < n; j++) b[j] = b[j - 1]! + Math.floor(r() * 4);
      const data = { a, b, m, n };
      const want = mergeReference(a, m, b, n) as Int32Array;
      for (const [stride, ways] of variants) checks.push(['random, uneven', `m = ${m}, n = ${n}`, `${stride}:${ways}`, await correctSampled(data, shape, stride, unrolledMerge(data), want, ways)]);
    }
  }
  console.log('\n## sampled: correctness of the sampled partition (splits against the CPU’s co-ranks, then the whole chain’s output)\n');
  console.log(table(['data', 'sizes', 'stride:ways', 'correct'], checks));
  const { data, want } = input('zigzag');
  const binary = partitionRun(data, undefined, 'wide', shape);
  const merge = unrolledMerge(data);
  const passes = variants.map(([stride, ways]) => ({ stride, ways, ...sampledPasses(data, shape, stride, ways) }));
  const runOnce = async (full: boolean): Promise<string[][]> => {
    const rows: string[][] = [];
    rows.push(await figure(['warm-up: vec4 chain, binary partition (not quoted)'], [binary, merge], want));
    rows.push(await figure(['vec4 chain, binary partition (round 3’s best)'], [binary, merge], want));
    for (const { stride, ways, sample, partition } of passes) {
      rows.push(await figure([`vec4 chain, sampled partition, stride ${stride}, window ${ways}-way`], [sample, partition, merge], undefined, await correctSampled(data, shape, stride, merge, want, ways)));
    }
    if (!full) return rows;
    rows.push(await figure(['wide chain (the lab’s shipped variant)'], mergePasses('wide', data), want));
    rows.push(await figure(['vec4 merge pass alone (splits from the CPU)'], [merge], undefined));
    rows.push(await figure(['binary partition pass alone'], [binary], undefined));
    for (const [v, { stride, ways, sample, partition }] of passes.entries()) {
      rows.push(await figure([`sample pass + sampled search, stride ${stride}, window ${ways}-way`], [sample, partition], undefined));
      if (v > 0) continue;
      rows.push(await figure([`sampled search alone, stride ${stride}, window ${ways}-way`], [partition], undefined));
      rows.push(await figure([`sample pass alone, stride ${stride}`], [sample], undefined));
    }
    return rows;
  };
  for (const run of process.env.EXP_TWICE ? ['a', 'b'] : ['']) {
    const rows = await runOnce(run !== 'b');
    console.log(`\n## sampled${run ? `, run ${run}${run === 'b' ? ', the chains only' : ''}` : ''}: the partition searched from samples, then the vec4 merge pass with its loops written out (256 × 15, zigzag data)\n`);
    console.log(table(['kernel', ...HEAD], rows));
  }
}

if (wants('safety')) {
  const shape = VEC4_SHAPE;
  const { data, want } = input('zigzag');
  const binary = partitionRun(data, undefined, 'wide', shape);
  const { sample, partition } = sampledPasses(data, shape, 256);
  const merge = unrolledMerge(data);
  const MERGE_PART = / {2}let t0 = min\(lid \* ITEMS, count\);[\s\S]*?\n {2}workgroupBarrier\(\);\n {2}\/\/ Each invocation/;
  if (!MERGE_PART.test(MERGE_FILES.vec4.wgsl)) throw new Error(`merge-experiments: ${MERGE_FILES.vec4.file}'s search and merge are no longer where the ablation expects them`);
  const skeleton = unrolledMerge(data, MERGE_FILES.vec4.wgsl.replace(MERGE_PART, '  var v: array<T, ITEMS>;\n  for (var r = 0u; r < ITEMS; r++) {\n    v[r] = word(min(lid * ITEMS + r, 4u * SLOTS - 1u));\n  }\n  workgroupBarrier();\n  // Each invocation'));
  const rows: string[][] = [];
  rows.push(await figure(['warm-up: vec4 merge pass alone (not quoted)'], [merge], undefined));
  rows.push(await figure(['vec4 merge pass alone (loops written out)'], [merge], undefined));
  rows.push(await figure(['vec4 tile staged and stored only'], [skeleton], undefined));
  rows.push(await figure(['vec4 chain, binary partition'], [binary, merge], want));
  rows.push(await figure(['vec4 chain, sampled partition (stride 256)'], [sample, partition, merge], undefined, await correctSampled(data, shape, 256, merge, want)));
  console.log(`\n## safety: ${process.env.WARPSCOPE_DAWN_FLAGS ? `with Dawn flags ${process.env.WARPSCOPE_DAWN_FLAGS} (an experiment)` : 'Dawn as shipped'} (256 × 15, zigzag data)\n`);
  console.log(table(['kernel', ...HEAD], rows));
}
