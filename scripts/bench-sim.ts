/**
 * `npm run bench:sim` (node scripts/run-ts.mjs scripts/bench-sim.ts): simulator throughput on the
 * interleaved shared-memory reduction. Prints figures, never fails on time.
 *  1. 2^20 u32, summary trace, compiled once and instantiated for each run: time (median of 5,
 *     wall and CPU: the machine is shared), lane instructions/s, peak memory, and the time as a
 *     multiple of a fixed calibration loop timed next to each run (a same-run baseline: both slow
 *     down together when other jobs share the CPU, so the ratio compares runs on a busy machine).
 *  2. The same kernel and size through wgsl_reflect's WgslExec (one invocation at a time, so its
 *     workgroup memory and barriers do not behave as on a GPU): time ratio, correctness of both.
 *  3. 2^16 u32 with the full trace: time (median of 5) and trace size.
 *  4. Lane instructions per second on three large kernels of the registry (tiled matrix multiply,
 *     Blelloch scan, privatized histogram): shared-memory tiles, a barrier-heavy tree, atomics.
 */
import { WgslExec, WgslParser } from 'wgsl_reflect/wgsl_reflect.module.js';
import type { KernelRun } from '../src/kernel/types.ts';
import { sumU32 } from '../src/labs/reduce/reference.ts';
import { kernelCases } from '../src/labs/all.ts';
import { compile, instantiate, simulate, traceBytes, type Program, type SimResult } from '../src/sim/index.ts';
import KERNEL from '../src/sim/testdata/reduce-interleaved.wgsl?raw';

const WG = 256;

function makeRun(n: number): KernelRun {
  const input = new Uint32Array(n);
  for (let i = 0; i < n; i++) input[i] = (i * 2654435761) >>> 24; // small values: the u32 sum fits
  return {
    code: KERNEL,
    entryPoint: 'main',
    workgroups: [Math.ceil(n / WG)],
    bindings: { 0: { 0: input, 1: new Uint32Array(Math.ceil(n / WG)) } },
    label: 'bench.reduce.interleaved',
  };
}

/** The wrapped u32 sum of the run's input: what the reduction must produce. */
const expectedSum = (run: KernelRun): number => sumU32(run.bindings[0]![0]! as Uint32Array);

const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed + m.arrayBuffers);
};
const timer = setInterval(sample, 5);

const N = 1 << 20;
const run = makeRun(N);
const want = expectedSum(run);

/** Runs `program` on `r`'s bindings: instantiate (copies the inputs) and run. */
function runOnce(program: Program, r: KernelRun, trace: 'full' | 'summary'): SimResult {
  const inst = instantiate(program, r.bindings);
  if (!inst.ok) throw new Error(inst.diagnostics.map((d) => d.message).join('; '));
  return inst.instance.run(r.workgroups, { trace });
}

/**
 * The calibration: a fixed loop shaped like the simulator's lane loops (32-lane Float64Array
 * registers, u32 arithmetic, a compare, a workgroup-memory-like Uint32Array), about 3 × 10^7 lane
 * operations. It never changes, so its time measures the machine at that moment, not the simulator.
 */
const CAL_R = new Float64Array(64 * 32);
const CAL_S = new Uint32Array(256);
function calibrate(): void {
  const R = CAL_R;
  const S = CAL_S;
  let acc = 0;
  for (let it = 0; it < 1_000_000; it++) {
    const d = (it & 31) * 32;
    const a = ((it + 7) & 31) * 32;
    for (let l = 0; l < 32; l++) {
      const x = (R[a + l]! + it + l) >>> 0;
      R[d + l] = x < 0x80000000 ? x : x - 1;
      S[(x + l) & 255] = x;
      acc = (acc + S[(l * 8) & 255]!) >>> 0;
    }
  }
  S[0] = acc; // keeps the reads live
}
/** CPU milliseconds of one calibration loop. */
function calMs(): number {
  const c0 = process.cpuUsage();
  calibrate();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/**
 * Median wall and CPU milliseconds of `k` calls of `f` (after one warm-up call); with `cal`, each
 * call is preceded by the calibration loop, and `ratio` holds CPU(f) / CPU(calibration) per pair.
 */
function timed<T>(k: number, f: () => T, cal = false): { wall: number[]; cpu: number[]; ratio: number[]; cals: number[]; last: T } {
  let last = f();
  if (cal) calMs();
  const wall: number[] = [];
  const cpu: number[] = [];
  const ratio: number[] = [];
  const cals: number[] = [];
  for (let i = 0; i < k; i++) {
    const cm = cal ? calMs() : 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = f();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    if (cal) {
      cals.push(cm);
      ratio.push((c.user + c.system) / 1000 / cm);
    }
    sample();
  }
  for (const xs of [wall, cpu, ratio, cals]) xs.sort((a, b) => a - b);
  return { wall, cpu, ratio, cals, last };
}
const med = (xs: number[]) => xs[xs.length >> 1]!;

const c0 = performance.now();
const compiled = compile(KERNEL, 'main');
const compileMs = performance.now() - c0;
if (!compiled.ok) throw new Error(compiled.diagnostics.map((d) => d.message).join('; '));
const program = compiled.program;
const big = timed(7, () => runOnce(program, run, 'summary'), true);
const result = big.last;
const times = big.wall;
const simMs = med(times);
const simSum = sumU32(result.buffers[0]![1]! as Uint32Array);
const m = result.metrics;
console.log(`simulator: interleaved reduction, 2^20 u32, summary trace, warpSize 32 (compiled once in ${compileMs.toFixed(1)} ms, instantiated per run)`);
console.log(`  time          ${simMs.toFixed(0)} ms (median of 7; min ${times[0]!.toFixed(0)}, max ${times[6]!.toFixed(0)}); CPU ${med(big.cpu).toFixed(0)} ms (median; min ${big.cpu[0]!.toFixed(0)}, max ${big.cpu[6]!.toFixed(0)})`);
// The same-run baseline: docs/benchmarks.md records this ratio with each measurement. A higher
// ratio means a slower simulator even on a busy machine; the same ratio with a slower time means load.
console.log(
  `  same-run      calibration loop ${med(big.cals).toFixed(0)} ms CPU (median; min ${big.cals[0]!.toFixed(0)}); run / calibration ` +
    `${med(big.ratio).toFixed(2)}× (median of 7 pairs; min ${big.ratio[0]!.toFixed(2)}, max ${big.ratio[6]!.toFixed(2)})`,
);
/** The issue's figures for this run: 0.47–0.54 s before compile-once (midpoint taken), 0.25 s the target. */
const BASELINE_MS = 505;
const TARGET_MS = 250;
const cpuMs = med(big.cpu);
console.log(
  `  vs baseline   median ${simMs.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU: ${(simMs / BASELINE_MS).toFixed(2)}× (wall) and ` +
    `${(cpuMs / BASELINE_MS).toFixed(2)}× (CPU) the ${BASELINE_MS} ms baseline; target ${TARGET_MS} ms ${cpuMs <= TARGET_MS ? 'met' : 'missed'} on CPU time` +
    `${simMs <= TARGET_MS ? ' and wall time' : ' (wall time includes waiting for a shared CPU)'}`,
);
console.log(`  result        ${simSum === want ? 'correct' : `WRONG (${simSum} vs ${want})`} (sum ${want})`);
console.log(`  warp instr.   ${m.warpInstructions.toLocaleString('en')}   lane instr. ${m.laneInstructions.toLocaleString('en')}`);
console.log(`  throughput    ${((m.laneInstructions / simMs) * 1000 / 1e6).toFixed(1)} M lane instructions/s, ${((m.warpInstructions / simMs) * 1000 / 1e6).toFixed(2)} M warp instructions/s`);
console.log(`  metrics       divergent ${m.divergentBranches}, barriers ${m.barriers}, shared req ${m.sharedRequests}, bank conflicts ${m.sharedBankConflicts}, global req ${m.globalRequests}, sectors ${m.globalTransactions}`);
console.log(`  peak memory   rss ${mb(peakRss)}, heap+buffers ${mb(peakHeap)}`);

// WgslExec, same kernel and size.
{
  // WgslExec cannot size arrays or @workgroup_size from an override/const, so it gets the same
  // text with WG written out as 256 (the algorithm is unchanged).
  const execCode = KERNEL.replace(/override WG: u32 = 256u;/, '')
    .replace(/array<u32, WG>/, 'array<u32, 256>')
    .replace(/@workgroup_size\(WG\)/, '@workgroup_size(256)')
    .replace(/\bWG\b/g, '256u');
  const ast = new WgslParser().parse(execCode);
  const exec = new WgslExec(ast);
  const out = new Uint32Array(N / WG);
  const t0 = performance.now();
  let error = '';
  try {
    exec.dispatchWorkgroups('main', N / WG, { 0: { 0: run.bindings[0]![0]!, 1: out, } }, {});
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const execMs = performance.now() - t0;
  sample();
  const execSum = sumU32(out);
  console.log(`wgsl_reflect WgslExec: same kernel, 2^20 u32`);
  console.log(`  time          ${execMs.toFixed(0)} ms   → simulator is ${(execMs / simMs).toFixed(1)}× faster`);
  console.log(`  result        ${error ? `error: ${error}` : execSum === want ? 'correct' : `WRONG: sum ${execSum} (expected ${want}); first partial ${out[0]} vs ${sumU32((run.bindings[0]![0]! as Uint32Array).subarray(0, WG))}`}`);
}

// Full trace at 2^16.
{
  const small = makeRun(1 << 16);
  const tm = timed(5, () => runOnce(program, small, 'full'), true);
  const r = tm.last;
  const t = r.trace!;
  console.log(`simulator: 2^16 u32, full trace`);
  console.log(`  time          ${med(tm.wall).toFixed(0)} ms (median of 5; min ${tm.wall[0]!.toFixed(0)}); CPU ${med(tm.cpu).toFixed(0)} ms, ${sumU32(r.buffers[0]![1]! as Uint32Array) === expectedSum(small) ? 'correct' : 'WRONG'}`);
  console.log(`  same-run      run / calibration ${med(tm.ratio).toFixed(2)}× (median of 5 pairs; calibration ${med(tm.cals).toFixed(0)} ms CPU)`);
  console.log(`  trace         ${t.stepCount.toLocaleString('en')} steps, ${t.recordCount.toLocaleString('en')} lane records, ${t.provList.length.toLocaleString('en')} provenance links, ${mb(traceBytes(t))}`);
}
// Three large kernels of the registry: lane instructions per second.
{
  console.log(`simulator: large kernels, summary trace (lane instructions per second, median of 3)`);
  const picks: [string, number][] = [
    ['matmul/tiled f32 TILE=16', 1 << 16],
    ['scan/blelloch u32 inclusive wg=64', 1 << 18],
    ['histogram/privatized 256 byte bins, runs', 1 << 20],
  ];
  for (const [name, n] of picks) {
    const kc = kernelCases.find((c) => c.name === name);
    if (!kc) {
      console.log(`  ${name}: no such case in the registry`);
      continue;
    }
    let seed = 1;
    const r = kc.build(() => ((seed = (seed * 16807) % 2147483647) / 2147483647), n);
    const tm = timed(3, () => simulate(r, { trace: 'summary' }));
    const m = tm.last.metrics;
    const ms = med(tm.wall);
    console.log(
      `  ${kc.name.padEnd(40)} n=2^${Math.log2(n)}  ${ms.toFixed(0).padStart(5)} ms (CPU ${med(tm.cpu).toFixed(0)} ms)  ` +
        `${(m.laneInstructions / 1e6).toFixed(1)} M lane instr.  ${((m.laneInstructions / ms) * 1000 / 1e6).toFixed(1)} M lane instr./s ` +
        `(${((m.laneInstructions / med(tm.cpu)) * 1000 / 1e6).toFixed(1)} M per CPU second)` +
        `${tm.last.diagnostics.length ? `  (${tm.last.diagnostics.length} diagnostics)` : ''}`,
    );
  }
}
clearInterval(timer);
sample();
console.log(`peak memory over the whole bench: rss ${mb(peakRss)}, heap+buffers ${mb(peakHeap)}`);
