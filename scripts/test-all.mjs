#!/usr/bin/env node
// `npm test`: everything at once, each stage printed whole when it ends:
// - the production build and the test build (production plus read-only test hooks), then the e2e
//   tests in Chromium with WebGPU against the test build (`vite preview`, shipped CSP; e2e/run.mjs,
//   two files at a time: vitest.e2e.config.ts), the longest stage;
// - beside it, three lanes: the GPU files on Dawn (one at a time: vitest.config.ts) from the start,
//   beside the builds; once the builds are made, a crawl of every page under the dev server
//   (`vite`, React StrictMode) then the pure unit tests (files in parallel); and beside those,
//   typecheck and lint in one process (scripts/typecheck-and-lint.mjs: one TypeScript program for
//   both);
// - last, the start page's JavaScript against its budget.
// Every stage but the GPU files runs at a lower priority (nice 10, yieldTo): the GPU files are one
// thread of work for most of their time, and the others take whatever core time they leave.
// Each build is made once: the budget reads the production build, and so does the e2e test that
// checks a production build has no test hooks (E2E_PRODUCTION_DIST); e2e/run.mjs serves the test
// build made here (E2E_PREBUILT). A stage still running DEADLINE after the start is stopped and
// fails (CI gives the whole job 90 minutes: a hang is reported, not cut off unexplained).
// Runs every stage even when one fails, then prints this machine's speed (referenceLoopMs, at the
// start and the end) and one plain summary line:
//   Summary: N passed, N failed
// Each test counts once; typecheck, lint, the test build and the budget count as one check each.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, existsSync, rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ensureSystem } from './ensure-system.mjs';
import { readStat } from './proc-stat.mjs';

/**
 * The project's own Vite and Vitest, started with this Node: `npx` starts npm first to find them,
 * about a CPU second each time, and a run starts them eight times (two more in each e2e/run.mjs).
 */
const VITE = fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

let passed = 0;
let failed = 0;
const failures = [];
/**
 * When stages still running are stopped, after the start: far beyond a whole run's time even on a
 * busy shared machine (59 minutes at a load average of 20 to 40), so only a hang reaches it.
 */
const DEADLINE = 85 * 60_000;
const runStarted = Date.now();

function stage(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

/**
 * CPU seconds (user + system) of every process a stage starts, from /proc (Linux; null elsewhere),
 * read once a second. The kernel's count of a process's finished children (cutime) misses work
 * that outlives its parent and is adopted elsewhere: Chromium's browser exits without reaping its
 * zygote, whose renderers ran the pages, and that count put the end-to-end stages at half their
 * cost. A process counts for the stage it was first seen under, at its last reading; the last
 * second of each process's life is missed, so short-lived tools read a little low.
 */
/** `pid:start time` → the stage it belongs to and its CPU seconds at the last reading. */
const processes = new Map();
/** The pid each running stage was started as → the stage's name. */
const stageOf = new Map();
let procReadable = existsSync('/proc/self/stat');

function sampleCpu() {
  if (!procReadable || stageOf.size === 0) return;
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    procReadable = false;
    return;
  }
  const stats = new Map();
  for (const pid of pids) {
    const stat = readStat(pid);
    if (stat) stats.set(Number(pid), stat);
  }
  for (const [pid, stat] of stats) {
    const key = `${pid}:${stat.start}`;
    let entry = processes.get(key);
    if (!entry) {
      let stage;
      for (let p = pid, hops = 0; p > 1 && hops < 64 && stage === undefined; hops++) {
        stage = stageOf.get(p);
        p = stats.get(p)?.ppid ?? 0;
      }
      if (stage === undefined) continue;
      entry = { stage, cpu: 0 };
      processes.set(key, entry);
    }
    entry.cpu = stat.cpu;
  }
}
const sampler = setInterval(sampleCpu, 1000);

/** CPU seconds of a stage's processes so far, or null without /proc. */
function stageCpu(name) {
  if (!procReadable) return null;
  let sum = 0;
  for (const entry of processes.values()) if (entry.stage === name) sum += entry.cpu;
  return sum;
}

/** Stages running now, each its own process group, stopped with this script. */
const running = new Set();
const stopAll = (signal) => {
  for (const child of running) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  }
};
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.on(signal, () => {
    stopAll(signal);
    process.exit(code);
  });
}

/**
 * A lower scheduling priority (nice 10) for a stage's process and all it starts, where the system
 * allows it. Every stage but the GPU files yields: those run one file after another on what is
 * mostly one thread, the longest chain that cannot be spread over the cores, and at equal priority
 * a saturated machine gave them under half a core (they ended last, a minute after the rest). The
 * stages that yield run many processes and threads and take what the GPU files leave. (Chromium,
 * where it may, sets its own processes' priorities again: run as root, its renderers go back to 0
 * and its browser and GPU processes to −8, so only the e2e suite's Node processes yield there.)
 */
function yieldTo(child) {
  try {
    setPriority(child.pid, 10);
  } catch {
    /* not allowed here: equal priority, as before */
  }
}

/**
 * Runs a command with its output held back, in a process group of its own (so that a stage past
 * DEADLINE is stopped with everything it started), yielding to the GPU files unless it is them
 * (`ahead`); resolves to its exit status, output, wall
 * and CPU seconds.
 */
function quietly(s) {
  const { name, cmd, args, env = {} } = s;
  return new Promise((resolve) => {
    const chunks = [];
    const started = Date.now();
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, detached: true });
    if (!s.ahead) yieldTo(child);
    running.add(child);
    stageOf.set(child.pid, name);
    sampleCpu();
    let ended = false;
    let timedOut = false;
    const end = (code) => {
      if (ended) return;
      ended = true;
      clearTimeout(limit);
      running.delete(child);
      stageOf.delete(child.pid);
      const cpu = stageCpu(name);
      resolve({ ok: code === 0 && !timedOut, code, timedOut, output: Buffer.concat(chunks), seconds: (Date.now() - started) / 1000, cpu });
    };
    const limit = setTimeout(() => {
      timedOut = true;
      chunks.push(Buffer.from(`\nStopped: still running ${DEADLINE / 60_000} minutes after npm test started.\n`));
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      // A process it started in a group of its own may still hold its output open: give up on it.
      setTimeout(() => end(1), 10_000);
    }, Math.max(0, runStarted + DEADLINE - Date.now()));
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('error', (e) => chunks.push(Buffer.from(String(e))));
    child.on('close', (code) => end(code));
  });
}

/** Prints a finished command's output whole, under its name (so the log reads stage by stage). */
function print({ name, cmd, args }, { output, seconds, cpu }) {
  console.log(`\n=== ${name}: ${[cmd, ...args].join(' ')} (${seconds.toFixed(0)} s${cpu === null ? '' : `, CPU ${cpu.toFixed(0)} s`})`);
  process.stdout.write(output);
}

/** Runs a command, printed whole when it ends; resolves to whether it exited 0. */
async function run(s) {
  return (await runFor(s)).ok;
}

/** Runs a command, printed whole when it ends; resolves to how it ended (ok, code, timedOut). */
async function runFor(s) {
  const r = await quietly(s);
  print(s, r);
  return r;
}

function check(name, ok) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(name);
  }
}

/** A vitest run with a JSON report: its tests count one by one. */
async function vitestStage(name, cmd, args, env = {}, { ahead = false } = {}) {
  mkdirSync('test-results', { recursive: true });
  const out = `test-results/${name}.json`;
  rmSync(out, { force: true });
  const s = { name, cmd, args: [...args, '--reporter=default', '--reporter=json', `--outputFile=${out}`], env, ahead };
  const r = await quietly(s);
  print(s, r);
  if (!existsSync(out)) {
    check(`${name} (no results: ${r.timedOut ? `stopped ${DEADLINE / 60_000} minutes after the start` : 'the runner failed to start'})`, false);
    return;
  }
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  for (const file of report.testResults ?? []) {
    for (const t of file.assertionResults ?? []) if (t.status === 'failed') failures.push(`${name}: ${t.fullName}`);
    // A file that failed to load has no assertions but did fail.
    if ((file.assertionResults ?? []).length === 0 && file.status === 'failed') {
      failed++;
      failures.push(`${name}: ${file.name} failed to load: ${String(file.message).split('\n')[0]}`);
    }
  }
  if (!r.ok && (report.numFailedTests ?? 0) === 0 && !failures.some((f) => f.startsWith(`${name}:`))) check(`${name} exited non-zero`, false);
}

/**
 * This machine's speed now: the CPU milliseconds a fixed loop of arithmetic over a 512 KiB array
 * takes, the median of three. On a shared virtual machine the same work has read from 490 to 820
 * ms within minutes, and every stage's CPU moves with it: printed at the start and the end, it
 * tells a slow run of the same code from slower code.
 */
function referenceLoopMs() {
  const times = [];
  for (let round = 0; round < 3; round++) {
    const start = process.cpuUsage();
    const a = new Float64Array(1 << 16);
    let sum = 0;
    for (let r = 0; r < 3000; r++) {
      for (let i = 0; i < a.length; i++) {
        a[i] = a[(i * 7919) & 0xffff] * 0.5 + i;
        sum += a[i];
      }
    }
    const used = process.cpuUsage(start);
    if (!(sum > 0)) throw new Error('the reference loop computed nothing');
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((x, y) => x - y)[1];
}

ensureSystem();
const referenceAtStart = referenceLoopMs();
// The production build, as `npm run build` makes it (NODE_ENV=production), into its own folder:
// the test build goes into dist/, which e2e/run.mjs serves.
const PRODUCTION = 'test-results/dist-production';
const builtProduction = run({ name: 'production build', cmd: process.execPath, args: [VITE, 'build', '--outDir', PRODUCTION, '--emptyOutDir', '--logLevel', 'warn'], env: { NODE_ENV: 'production' } });
// The test build: the production build plus read-only test hooks (window.__warpscope).
const builtTest = run({ name: 'test build', cmd: process.execPath, args: [VITE, 'build', '--mode', 'test', '--logLevel', 'warn'] });
const builds = Promise.all([builtTest, builtProduction]);
// The e2e suite, the longest chain, starts as soon as the builds it serves and reads are made;
// beside the builds only the GPU files start (one process, mostly one thread), so that the builds
// are not slowed by the other stages and the e2e suite starts as early as it can.
await Promise.all([
  builds.then(([testBuilt, built]) => {
    check('test build', testBuilt);
    if (!testBuilt) return undefined;
    return vitestStage('e2e', 'node', ['e2e/run.mjs'], { E2E_PREBUILT: '1', ...(built ? { E2E_PRODUCTION_DIST: PRODUCTION } : {}) });
  }),
  // Lanes beside it. The GPU files on Dawn (one at a time: vitest.config.ts), the longest chain of
  // work that cannot be spread over the cores, from the start. In the next, once the builds are
  // made, longest first: the crawl of every page under the dev server (`vite`, React StrictMode
  // on: the README's first command), then the pure unit tests (files in parallel).
  vitestStage('gpu', process.execPath, [VITEST, 'run', '--project', 'gpu'], {}, { ahead: true }),
  builds.then(async () => {
    await vitestStage('e2e-dev', 'node', ['e2e/run.mjs', '--dev']);
    await vitestStage('unit', process.execPath, [VITEST, 'run', '--project', 'unit', '--project', 'unit-isolated']);
  }),
  // `npm run typecheck` and `eslint .` in one process sharing one TypeScript program, beside the
  // crawl and the unit tests once the builds are made (run after them, that lane ended a minute
  // after the others): exit status 1 means type errors, 2 lint errors, 3 both
  // (scripts/typecheck-and-lint.mjs).
  builds.then(async () => {
    const r = await runFor({ name: 'typecheck and lint', cmd: 'node', args: ['scripts/typecheck-and-lint.mjs'] });
    const known = !r.timedOut && r.code !== null && r.code >= 0 && r.code <= 3;
    check('typecheck', known && (r.code & 1) === 0);
    check('lint', known && (r.code & 2) === 0);
  }),
]);
// The start page's initial JavaScript against its budget (200 KB gzip).
check('bundle budget', (await builtProduction) && stage('bundle sizes', 'node', ['scripts/bundle-sizes.mjs', '--check', PRODUCTION]));

if (failures.length > 0) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  - ${f}`);
}
clearInterval(sampler);
let cpuAll = procReadable ? 0 : null;
if (cpuAll !== null) for (const entry of processes.values()) cpuAll += entry.cpu;
const cpuNote = cpuAll === null ? '' : `, CPU ${(cpuAll / 60).toFixed(1)} minutes`;
console.log(`\nThis machine's speed: a reference loop took ${referenceAtStart.toFixed(0)} ms of CPU at the start and ${referenceLoopMs().toFixed(0)} ms at the end (more is slower).`);
console.log(`\nSummary: ${passed} passed, ${failed} failed (${((Date.now() - runStarted) / 60_000).toFixed(1)} minutes${cpuNote})`);
process.exit(failed === 0 ? 0 : 1);
