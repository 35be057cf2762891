// The posts' whole programs with their launches on a real GPU's WebGPU (Dawn in Node on the GPU
// host's Vulkan driver), against what the same source built with `nvcc -arch=sm_90` printed on
// that GPU: the runs a browser on SwiftShader cannot make (blocks of 512 and 1024 threads).
// Self-contained once bundled, for a host with no Node and no network (scripts/cuda-programs-h100.sh
// packs it); the seeds and the references are read from DATA_DIR, results written to OUT_DIR.
//   node main.mjs DATA_DIR OUT_DIR [label…]     (labels: a seed's name, or 000-reduce-argv-1)
// Prints one line per program (exit code, stdout equal, rounds, host / device / whole ms) and
// appends each program's raw stdout and stderr to OUT_DIR/programs.txt in the references' format.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileCuda } from '../src/cuda/index.ts';
import { deviceOfAdapter, runProgramOnDevice } from '../src/cuda/host/gpuProgram.ts';
import { comparable, parseReference, sameButDevice } from '../src/cuda/host/oracle/compare.ts';
import { createNodeGpu } from '../src/gpu/node.ts';

const [dataDir, outDir, ...wanted] = process.argv.slice(2);
if (!dataDir || !outDir) {
  console.error('usage: node main.mjs DATA_DIR OUT_DIR [label…]');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
/**
 * Label → program and arguments; the order is the order of importance (the first are the ones no
 * other run confirms). 000-reduce never prints its result, so its stdout would match the H100's
 * even if every launch failed: `check` adds one line before the line it names, printing the GPU's
 * sum beside the CPU's; that line (it starts with `[check]`) is left out of the comparison.
 */
const CHECK = '[check]';
const JOBS: Record<string, { program: string; args: string[]; check?: { before: string; line: string } }> = {
  '000-reduce-argv-1': { program: '000-reduce', args: ['1'], check: { before: '    printf("average time elapsed', line: `    printf("${CHECK} sum on the GPU %f, on the CPU %f\\n", h_out, sum);\n` } },
  '003-row-sum': { program: '003-row-sum', args: [] },
  '004-reduce-unoptimized': { program: '004-reduce-unoptimized', args: [] },
  '003-scan-2d': { program: '003-scan-2d', args: [] },
  '000-scan': { program: '000-scan', args: [] },
  '003-histogram-shared': { program: '003-histogram-shared', args: [] },
  '000-reduce': { program: '000-reduce', args: [] },
  '003-matrix-add': { program: '003-matrix-add', args: [] },
};
const labels = wanted.length ? wanted : Object.keys(JOBS);
const files = { 'error.cuh': readFileSync(join(dataDir, 'seeds', 'error.cuh'), 'utf8') };
const clock = { now: () => 1764115200, cpuMicros: () => 0 };
const budgetMs = Number(process.env.PROGRAM_BUDGET_MS ?? 120_000);

const gpu = await createNodeGpu();
const ctx = await gpu.ready();
const device = deviceOfAdapter(ctx.summary.name, ctx.device.limits);
console.log(`adapter: ${ctx.summary.name}; max threads per block ${device.maxThreadsPerBlock}, shared ${device.sharedMemPerBlock} B`);
console.log('label | exit gpu/H100 | stdout equal (timing figures and device name aside) | rounds | launches | host ms | device ms | whole ms');
for (const label of labels) {
  const job = JOBS[label];
  if (!job) {
    console.log(`${label} | unknown label`);
    continue;
  }
  const printed = readFileSync(join(dataDir, 'seeds', `${job.program}.cu`), 'utf8');
  const source = job.check ? printed.replace(job.check.before, job.check.line + job.check.before) : printed;
  const compiled = compileCuda(source, { fileName: `${job.program}.cu`, files });
  if (!compiled.ok) {
    console.log(`${label} | does not compile: ${compiled.diagnostics[0]?.message}`);
    continue;
  }
  const ref = parseReference(readFileSync(join(dataDir, 'runs', `${label}.txt`), 'utf8'));
  const t0 = performance.now();
  const r = await runProgramOnDevice(compiled.program, gpu, { args: job.args, clock, files, device, timeoutMs: 60_000, signal: AbortSignal.timeout(budgetMs) });
  const whole = performance.now() - t0;
  const stdout = r.stdout.split(/(?<=\n)/).filter((l) => !l.startsWith(CHECK)).join('');
  const { got, want } = comparable(stdout, ref);
  const equal = got === want ? 'yes' : job.program === '000-reduce' && sameButDevice(stdout, ref) ? 'yes (device line aside)' : 'NO';
  const failed = r.launches.filter((l) => l.error).length;
  console.log(`${label} | ${r.exitCode}/${ref.exit} | ${equal} | ${r.rounds} | ${r.launches.length}${failed ? ` (${failed} failed)` : ''} | ${r.hostMs.toFixed(0)} | ${r.deviceMs.toFixed(0)} | ${whole.toFixed(0)}`);
  if (r.stderr) console.log(`  stderr: ${r.stderr.slice(0, 600).replace(/\n/g, '\n  ')}`);
  for (const l of r.stdout.split('\n')) if (l.startsWith(CHECK)) console.log(`  ${l}`);
  const body = r.stdout.length <= 1 << 20 ? r.stdout : `(stdout of ${r.stdout.length} bytes; sha256 without timing lines: ${createHash('sha256').update(r.stdout.split(/(?<=\n)/).filter((l) => !/time|Time|elapsed/.test(l)).join('')).digest('hex')})\n`;
  appendFileSync(
    join(outDir, 'programs.txt'),
    `=== ${label}\nprogram: ${job.program}.cu ${job.args.join(' ')}${job.check ? ` (with the ${CHECK} line added before line ${printed.split('\n').findIndex((l) => l.startsWith(job.check!.before)) + 1})` : ''}\nexecutor: WebGPU (Dawn in Node) on ${ctx.summary.name}\nexit: ${r.exitCode}\nstderr: ${r.stderr.length} bytes\n${r.stderr}stdout: ${r.stdout.length} bytes\n${body}`,
  );
}
gpu.destroy();
process.exit(0);
