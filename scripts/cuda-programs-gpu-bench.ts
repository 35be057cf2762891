// The posts' whole programs with their launches on the GPU (Dawn in Node; SwiftShader where there
// is no GPU), each beside the same program on the simulator: exit code, whether stdout agrees, the
// rounds the host code ran (one more than the launches that reached the GPU), and where the time
// went (host interpreter over all rounds, the GPU's runs with their copies, the whole run).
// Prints figures; never fails on time.
//   node scripts/run-ts.mjs scripts/cuda-programs-gpu-bench.ts [name…]
import { readFileSync, readdirSync } from 'node:fs';
import { compileCuda } from '../src/cuda/index.ts';
import { runHostProgram } from '../src/cuda/host/index.ts';
import { deviceOfAdapter, runProgramOnDevice } from '../src/cuda/host/gpuProgram.ts';
import { createNodeGpu } from '../src/gpu/node.ts';

const SEEDS = new URL('../src/cuda/host/seeds/', import.meta.url);
const files = { 'error.cuh': readFileSync(new URL('error.cuh', SEEDS), 'utf8') };
const clock = { now: () => 1764115200, cpuMicros: () => 0 };
const wanted = process.argv.slice(2);
const names = readdirSync(SEEDS).filter((f) => f.endsWith('.cu')).map((f) => f.replace(/\.cu$/, '')).filter((n) => !wanted.length || wanted.includes(n)).sort();
const skipSim = process.env.SKIP_SIM === '1';

const gpu = await createNodeGpu();
const ctx = await gpu.ready();
const device = deviceOfAdapter(ctx.summary.name, ctx.device.limits);
console.log(`adapter: ${ctx.summary.name}; max threads per block ${device.maxThreadsPerBlock}, shared ${device.sharedMemPerBlock} B`);
console.log('program | exit gpu/sim | stdout equal | rounds | host ms | gpu ms | whole ms | sim whole ms');
for (const name of names) {
  const source = readFileSync(new URL(`${name}.cu`, SEEDS), 'utf8');
  const compiled = compileCuda(source, { fileName: `${name}.cu`, files });
  if (!compiled.ok) {
    console.log(`${name} | does not compile`);
    continue;
  }
  const t0 = performance.now();
  const r = await runProgramOnDevice(compiled.program, gpu, { clock, files, device, timeoutMs: 600_000 });
  const whole = performance.now() - t0;
  let simExit = '-';
  let same = '-';
  let simMs = '-';
  if (!skipSim) {
    const s0 = performance.now();
    const s = runHostProgram(compiled.program, { clock, files });
    simMs = (performance.now() - s0).toFixed(0);
    simExit = String(s.exitCode);
    same = String(s.stdout === r.stdout);
  }
  console.log(`${name} | ${r.exitCode}/${simExit} | ${same} | ${r.rounds} | ${r.hostMs.toFixed(0)} | ${r.deviceMs.toFixed(0)} | ${whole.toFixed(0)} | ${simMs}`);
  if (r.stderr) console.log(`  stderr: ${r.stderr.slice(0, 400).replace(/\n/g, '\n  ')}`);
}
gpu.destroy();
process.exit(0);
