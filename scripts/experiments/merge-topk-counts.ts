/**
 * `node scripts/run-ts.mjs scripts/experiments/merge-topk-counts.ts`: what the merge and top-k kernels do per
 * element, counted by the simulator (not timed): warp instructions, barriers, workgroup-memory
 * wavefronts (requests plus bank-conflict replays), global 32-byte sectors and atomics. For the
 * kernels whose GPU time was not measured, these say where the work goes.
 *  - merge: the merge pass of fast, stream and wide on the bench's data (A evens, B odds), 2^16 outputs;
 *  - top-k: one pass-1 workgroup's share at the bench's 2^26 (65,536 values: 1024 workgroups), and
 *    pass 2 over 1024 lists of k = 20, for fast (distinct and all) and radix.
 */
import { simulate, type SimResult } from '../../src/sim/index.ts';
import { mergeLab } from '../../src/labs/merge/index.ts';
import { topkRun, workgroupOf, type TopkVariant } from '../../src/labs/topk/kernel.ts';
import { readRadixTrace } from '../../src/labs/topk/trace.ts';

function row(label: string, elements: number, r: SimResult, extra = ''): string {
  const m = r.metrics;
  const per = (x: number) => (x / elements).toFixed(3);
  const wavefronts = m.sharedRequests + m.sharedBankConflicts;
  return `| ${label} | ${elements} | ${per(m.warpInstructions)} | ${m.barriers} | ${per(wavefronts)} | ${(m.sharedBankConflicts / Math.max(1, m.sharedRequests)).toFixed(2)} | ${per(m.globalTransactions)} | ${per(m.atomics)} | ${extra} |`;
}

console.log('| kernel | elements | warp instr. / element | barriers (whole dispatch) | shared wavefronts / element | conflict replays / request | global sectors / element | atomics / element | notes |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');

const total = 2 ** 16;
for (const variant of ['fast', 'stream', 'wide'] as const) {
  const p = { m: total / 2, n: total / 2, input: 'random', type: 'i32' };
  const pass = mergeLab.bench.passes(variant, p)[1]!;
  const r = simulate(pass, { warpSize: 32, trace: 'summary' });
  if (r.diagnostics.length) throw new Error(`${variant}: ${JSON.stringify(r.diagnostics)}`);
  console.log(row(`merge ${variant} (merge pass)`, total, r, `${JSON.stringify(pass.workgroups)} workgroups`));
}

/** The bench's values (a scramble over the whole i32 range). */
const scramble = (count: number) => Int32Array.from({ length: count }, (_, i) => Math.imul(i, 0x9e3779b1) ^ (i >>> 7));

const share = scramble(65536);
const lists = scramble(1024 * 20);
for (const [variant, distinct] of [['fast', true], ['fast', false], ['radix', false]] as [TopkVariant, boolean][]) {
  for (const [what, values] of [['pass 1, one workgroup', share], ['pass 2, 1024 lists', lists]] as const) {
    const run = topkRun(variant, values, 1, { k: 20, distinct });
    const r = simulate(run, { warpSize: 32, trace: variant === 'radix' ? 'full' : 'summary', traceWorkgroups: [0] });
    if (r.diagnostics.length) throw new Error(`${variant}: ${JSON.stringify(r.diagnostics)}`);
    let note = `${workgroupOf(variant, 20)} invocations`;
    if (variant === 'radix') {
      const v = readRadixTrace(r.trace!);
      note += `; ${v.rounds.length - 1} rounds, ${v.floors.length - 1} cuts, pool sizes ${v.rounds.map((x) => x.size).join(' ')}`;
    }
    console.log(row(`top-k ${variant}${distinct ? ' distinct' : ''} (${what})`, values.length, r, note));
  }
}
