/**
 * Issue 29: sliced ELL with long rows cut into pieces (shaders/spmv/sell.wgsl, src/labs/spmv/sell.ts)
 * on the bench's two matrices (2^22 rows, about 16 nonzeros per row, uniform and power-law, seed
 * 7), beside the lab's best variants timed in the same run (hybrid, csr-adaptive). Each kernel is
 * checked against the CPU first (rows kept whole bit for bit; cut rows, summed in pieces through
 * atomics, within 1e-4 relative), then timed in alternating rounds beside a copy over its own
 * buffers, counted over the least traffic (values and column indices once, x once per nonzero, y
 * once). The conversion from CSR is a CPU step made once per matrix before the product; its time
 * is printed apart and is not in the kernel's. Each options' sliced ELL is timed with the lab's
 * kernel and with candidates made from it (KERNELS: each piece's row read before its loop, the
 * values loaded with the gathers, two pieces per invocation, the loop not pipelined). The ablation
 * rows edit lines of the lab's kernel (outputs then wrong; the timing is the point): the gathers
 * held by the L1s, removed, made a contiguous read, or alone without the matrix's stream; the
 * pieces' own cost with neither; and on the power-law matrix the segmented scan removed and the cut
 * rows skipped. A second table gives the bytes each ablation streams and the random gathers it
 * makes, with their rates. Prints figures; never fails on time.
 *
 * Environment: TUNING_LOG2 (rows, default 22), TUNING_REPEATS (rounds, default 10), TUNING_ONLY
 * (a regular expression over the row's label), TUNING_TWICE=1 (each SELL row timed twice in a
 * row), TUNING_ABLATE=0 (no ablation rows), TUNING_ABLATE_AT (the power-law ablation's
 * "limit,window,step", default 128,16384,8, the lab's), TUNING_KINDS (the matrices in order, default
 * uniform,powerlaw).
 */
import { createNodeGpu } from '../../src/gpu/node.ts';
import { fmt, pct, ratioCell, table } from '../../src/bench/format.ts';
import { seededRandom } from '../../src/util/random.ts';
import { makeMatrix, makeVector, matrixStats, nonzeros, spmvReference, type Csr } from '../../src/labs/spmv/formats.ts';
import { leastBytes, spmvRun, Y_BINDING, yOf, type SpmvVariant } from '../../src/labs/spmv/kernel.ts';
import { sellRun, sellSource, toSell, type SellOptions } from '../../src/labs/spmv/sell.ts';
import { foldWorkgroups } from '../../src/kernel/types.ts';
import type { KernelRun } from '../../src/kernel/types.ts';

const LOG2 = Number(process.env.TUNING_LOG2 ?? 22);
const REPEATS = Number(process.env.TUNING_REPEATS ?? 10);
const ONLY = new RegExp(process.env.TUNING_ONLY ?? '.');

/** [limit, window, step, workgroup size]; a window of ALL sorts every piece of the matrix at once. */
type Config = readonly [number, number, number, number];
const ALL = 2 ** 30;
const CONFIGS: Readonly<Record<'uniform' | 'powerlaw', readonly Config[]>> = {
  uniform: [[32, 4096, 8, 256]],
  powerlaw: [
    [128, 16384, 8, 256],
    [128, 16384, 8, 128],
    [128, 16384, 16, 256],
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

/**
 * sell.wgsl with each piece's row (owner[p]) read before its loop, in the same memory trip as the
 * slice's offsets, instead of after it: a one-step piece then waits on three memory trips (offsets,
 * first loads, gathers) instead of four.
 */
function ownerEarly(code: string): string {
  const LATE = /\n {4}key = owner\[p\];\n {2}}\n/;
  const OPEN = '  if (p < params.pieces) {\n';
  if (!LATE.test(code) || !code.includes(OPEN)) throw new Error("spmv-sell: sell.wgsl's owner read is no longer where the experiment expects it");
  return code.replace(LATE, '\n  }\n').replace(OPEN, `${OPEN}    key = owner[p];\n`);
}

/**
 * sell.wgsl with only the column indices loaded a step ahead: each step's values are loaded in the
 * same trip as its gathers (they are not needed before the products), so a lane holds four arrays
 * of STEP words instead of five and its first trip loads only columns.
 */
function valLate(code: string): string {
  const edits: readonly (readonly [string, string])[] = [
    ['      v[k] = select(0.0, val[min(i, last)], i < end);\n    }\n    for (var e', '    }\n    for (var e'],
    ['      var vn: array<f32, STEP>;\n', ''],
    ['        vn[k] = select(0.0, val[min(i, last)], i < end);', '        v[k] = select(0.0, val[min(e + k * LANES, last)], e + k * LANES < end);'],
    ['      v = vn;\n', ''],
  ];
  return edits.reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`spmv-sell: sell.wgsl no longer holds \`${from.trim()}\` where the experiment expects it`);
    return text.replace(from, to);
  }, code);
}

/**
 * sell.wgsl with two pieces per invocation: a subgroup of `live` lanes takes 2·live consecutive
 * pieces (two slices when live is 32), and lane l sums piece l and piece live + l side by side in
 * one loop, so the two pieces' memory trips (offsets and rows, first loads, gathers) overlap and a
 * short piece's fixed trips are shared by two. The bindings, the padding rules and the segmented
 * scan are sell.wgsl's own text (the scan made a function, run once for each piece's sums); the
 * dispatch needs half the workgroups.
 */
function pair(code: string): string {
  const head = code.slice(0, code.indexOf('@compute'));
  const claim = /\n( {2}let live = subgroupAdd\(1u\);[\s\S]*?workgroupBarrier\(\);\n)/.exec(code)?.[1];
  const scan = /\n( {2}\/\/ Segmented inclusive scan[\s\S]*)\n}\s*$/.exec(code)?.[1];
  if (!head || !claim || !scan) throw new Error("spmv-sell: sell.wgsl's claim or scan is no longer where the experiment expects it");
  const both = (line: string) => [line.replace(/@/g, 'A').replace(/#/g, 'a'), line.replace(/@/g, 'B').replace(/#/g, 'b')].join('\n');
  return `${head}fn scan_and_store(key: u32, total: f32, sid: u32, live: u32) {
  var sum = total;
${scan}
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(subgroup_invocation_id) sid: u32) {
${claim}  let pA = ((wid.x + wid.y * groups.x) * WORKGROUP_SIZE + slot * live) * 2u + sid;
  let pB = pA + live;
  // A piece past the end has an empty range (first = end = 0).
${both('  var key@ = NO_KEY;\n  var sum@ = 0.0;\n  var first@ = 0u;\n  var end@ = 0u;\n  if (p@ < params.pieces) {\n    key@ = owner[p@];\n    first@ = start[p@ / LANES] + p@ % LANES;\n    end@ = start[p@ / LANES + 1u];\n  }\n  let last@ = max(end@, 1u) - 1u;\n  var c#: array<u32, STEP>;\n  var v#: array<f32, STEP>;\n  var e# = first@;')}
  for (var k = 0u; k < STEP; k++) {
${both('    c#[k] = select(0u, col[min(first@ + k * LANES, last@)], first@ + k * LANES < end@);\n    v#[k] = select(0.0, val[min(first@ + k * LANES, last@)], first@ + k * LANES < end@);')}
  }
  loop {
    if (ea >= endA && eb >= endB) {
      break;
    }
    var ga: array<f32, STEP>;
    var gb: array<f32, STEP>;
    for (var k = 0u; k < STEP; k++) {
      ga[k] = x[ca[k]];
      gb[k] = x[cb[k]];
    }
${both('    var c#n: array<u32, STEP>;\n    var v#n: array<f32, STEP>;')}
    for (var k = 0u; k < STEP; k++) {
${both('      let i# = e# + (STEP + k) * LANES;\n      c#n[k] = select(0u, col[min(i#, last@)], i# < end@);\n      v#n[k] = select(0.0, val[min(i#, last@)], i# < end@);')}
    }
    for (var k = 0u; k < STEP; k++) {
      sumA += va[k] * ga[k];
      sumB += vb[k] * gb[k];
    }
${both('    c# = c#n;\n    v# = v#n;')}
    ea += STEP * LANES;
    eb += STEP * LANES;
  }
  scan_and_store(keyA, sumA, sid, live);
  scan_and_store(keyB, sumB, sid, live);
}
`;
}

/**
 * The kernels timed at each options: the lab's, and candidates made from it (code from the lab's
 * code at the options' step, and pieces per invocation). `sell pair` runs half the options' step for
 * each of its two pieces (the same loads and gathers in flight a lane).
 */
const KERNELS: readonly (readonly [string, ((code: string, step: number) => string) | undefined, number])[] = [
  ['sell', undefined, 1],
  ['sell owner-early', ownerEarly, 1],
  ['sell owner-early val-late', (code) => valLate(ownerEarly(code)), 1],
  ['sell pair', (code, step) => sellSource(Math.max(1, step / 2), pair(code)), 2],
  ['sell unpipelined', unpipelined, 1],
];
/** The options of the power-law ablation rows (TUNING_ABLATE_AT="limit,window,step" picks others). */
const ABLATE_AT: Config = [...(process.env.TUNING_ABLATE_AT ?? '128,16384,8').split(',').map(Number), 256] as unknown as Config;

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

/** One line edit of the kernel, what it streams (bytes) and how many random gathers it makes. */
interface Ablation {
  readonly what: string;
  readonly edits: readonly (readonly [string, string])[];
  readonly bytes: number;
  readonly gathers: number;
}
const ablations: string[] = [];

const KINDS = (process.env.TUNING_KINDS ?? 'uniform,powerlaw').split(',') as ('uniform' | 'powerlaw')[];
for (const kind of KINDS) {
  if (!(kind in CONFIGS)) throw new Error(`TUNING_KINDS: no matrix kind ${kind}; use uniform and powerlaw`);
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
    for (const [name, code, per] of KERNELS) {
      const label = `${name} limit${limit} window${shown} step${step} wg${wg}`;
      if (!ONLY.test(label)) continue;
      if (!sell) {
        const t0 = performance.now();
        sell = toSell(a, opts);
        convMs = performance.now() - t0;
      }
      const lab = sellRun(sell, a.rows, x, step, wg);
      const run = code === undefined ? lab : { ...lab, code: code(lab.code, step), workgroups: foldWorkgroups(Math.max(1, Math.ceil(sell.pieces / (wg * per)))) };
      const y = new Float32Array(((await gpu.run(run))[0]![5] as Uint32Array).slice(0, a.rows).buffer);
      const verdict = check(y, want, a, limit);
      // TUNING_TWICE=1: the same kernel timed again right after (runs a and b), for the "twice within 3 %".
      for (const take of process.env.TUNING_TWICE === '1' ? [`${name} (run a)`, `${name} (run b)`] : [name]) {
        lines.push(await timed(take, run, a, verdict, [`${limit}`, shown, `${step}`, `${wg}`, `${sell.fill.toFixed(3)}`, fmt(convMs, 1)]));
      }
    }
  }
  if (ONLY.test('ablation') && process.env.TUNING_ABLATE !== '0') {
    const [limit, window, step] = kind === 'uniform' ? [32, 4096, 8] : ABLATE_AT;
    const sell = toSell(a, { limit, window, step });
    const run = sellRun(sell, a.rows, x, step, 256);
    const slots = sell.start[sell.start.length - 1]!;
    // Bytes each row streams from memory (columns, values, each piece's row, the slices' offsets, y,
    // x once) and the random x gathers it makes (each one 32-byte sector from the L2 unless held by the L1).
    const fixed = 4 * (sell.pieces + sell.start.length + a.rows);
    const xOnce = 4 * a.cols;
    const mask = `${a.cols - 1}u`;
    const hashed = `((e + k * LANES) * 2654435761u) >> ${32 - Math.log2(a.cols)}u`;
    const cuts: readonly Ablation[] = [
      { what: 'gathers x[c & 0x3fff] (x held by the L1s)', edits: [['g[k] = x[c[k]];', 'g[k] = x[c[k] & 0x3fffu];']], bytes: 8 * slots + fixed, gathers: 0 },
      { what: 'gathers x[c >> 24] = x[0] (columns and values streamed and used, no gather)', edits: [['g[k] = x[c[k]];', 'g[k] = x[c[k] >> 24u];']], bytes: 8 * slots + fixed, gathers: 0 },
      { what: 'x read in the slots\' order, x[(slot + (c >> 24)) & mask] (a contiguous read in place of the gather)', edits: [['g[k] = x[c[k]];', `g[k] = x[(e + k * LANES + (c[k] >> 24u)) & ${mask}];`]], bytes: 8 * slots + fixed + 4 * slots, gathers: 0 },
      { what: 'gathers at hashed columns, columns and values not read (the gathers alone)', edits: [['g[k] = x[c[k]];', `g[k] = x[${hashed}];`], ['sum += v[k] * g[k];', 'sum += g[k];']], bytes: fixed + xOnce, gathers: slots },
      { what: 'gathers at hashed columns, columns and values streamed but not used', edits: [['g[k] = x[c[k]];', `g[k] = x[(${hashed}) ^ (c[k] >> 24u)];`]], bytes: 8 * slots + fixed + xOnce, gathers: slots },
      { what: 'no stream, no gather (x[0], values not read: the pieces\' own cost)', edits: [['g[k] = x[c[k]];', 'g[k] = x[c[k] & 0u];'], ['sum += v[k] * g[k];', 'sum += g[k];']], bytes: fixed, gathers: 0 },
      { what: 'no segmented scan (every piece stores its own sum)', edits: [['for (var offset = 1u; offset < live;', 'for (var offset = live; offset < live;'], ['if (key != NO_KEY && (sid + 1u == live || keyAfter != key)) {', 'if (key != NO_KEY) {'], ['add_to_y(key & ~CUT, sum);', 'atomicStore(&y[key & ~CUT], bitcast<u32>(sum));']], bytes: 8 * slots + fixed + xOnce, gathers: slots },
      { what: 'cut rows\' pieces skipped (the long rows\' share)', edits: [['let end = start[s + 1u];', 'let end = select(start[s + 1u], 0u, (owner[p] & CUT) != 0u);']], bytes: Number.NaN, gathers: Number.NaN },
    ];
    const all: Ablation = { what: 'none (the kernel as timed above)', edits: [], bytes: 8 * slots + fixed + xOnce, gathers: slots };
    const moved: string[][] = [];
    for (const cut of [all, ...(kind === 'uniform' ? cuts.slice(0, 5) : cuts)]) {
      let code = run.code;
      for (const [from, to] of cut.edits) {
        const next = code.replace(from, to);
        if (next === code) throw new Error(`sell.wgsl no longer holds \`${from}\` as the ablation expects`);
        code = next;
      }
      const row = await timed(`ablation: ${cut.what}`, { ...run, code }, a, cut.edits.length ? 'ablation: not checked' : 'not checked here', [`${limit}`, `${window === ALL ? 'all' : window}`, `${step}`, '256', sell.fill.toFixed(3), '—']);
      lines.push(row);
      const ms = Number(row[7]);
      moved.push([cut.what, Number.isNaN(cut.bytes) ? '—' : fmt(cut.bytes / 1e6, 1), Number.isNaN(cut.bytes) ? '—' : fmt(cut.bytes / (ms * 1e6)), Number.isNaN(cut.gathers) ? '—' : fmt(cut.gathers / 1e6, 1), Number.isNaN(cut.gathers) || !cut.gathers ? '—' : fmt(cut.gathers / (ms * 1e6), 1)]);
    }
    ablations.push(`### ${kind}: what each ablation row moves (slots ${slots.toLocaleString('en')}, pieces ${sell.pieces.toLocaleString('en')})\n${table(['ablation', 'MB streamed', 'GB/s of them', 'random gathers (M)', 'G gathers/s'], moved)}`);
  }
  console.log(table(['kernel', 'limit', 'window', 'step', 'wg', 'fill', 'CPU conversion ms (not in the time)', 'median ms', 'GB/s over least traffic', '% of copy', 'rounds', 'matches CPU'], lines));
}
if (ablations.length) console.log(`\n${ablations.join('\n\n')}`);
