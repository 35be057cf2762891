#!/usr/bin/env node
// CPU seconds of e2e test files, one file at a time, each counted over every process its run starts
// (vitest, `vite preview`, Chromium's browser, GPU process and renderers), read from /proc. CPU
// time, unlike wall time, barely moves with the load of a shared machine, so a change to a test
// can be measured before and after on a busy machine.
//   node scripts/e2e-cpu.mjs e2e/i18n.e2e.ts e2e/stage.e2e.ts …
//   node scripts/e2e-cpu.mjs                  the whole suite, two files at a time as npm test runs it
// Builds the test build once (unless E2E_PREBUILT is set), then runs each file alone with
// `node e2e/run.mjs <file>` (one worker, so one shared Chromium), and prints per file: its wall
// seconds, its CPU seconds, whether it passed, and the CPU of the fixed cost every run pays (Node,
// vitest, the server, Chromium's start) when `--baseline` is given (an empty run).
// E2E_CPU_LOGS=<folder> keeps each run's output (vitest's verbose report, each test's time) there.
// Linux only (/proc). Processes are read twice a second; the last half second of each is missed.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readStat } from './proc-stat.mjs';

const args = process.argv.slice(2);
const baseline = args.includes('--baseline');
const files = args.filter((a) => a !== '--baseline');

/** What a process is: Chromium's renderer, GPU process, browser or other helper, or a Node process. */
function kindOf(pid) {
  try {
    // Chromium's children rewrite their command line as one string, its words apart by spaces.
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    if (/chrom/i.test(cmd[0])) return `chromium ${cmd.find((a) => a.startsWith('--type='))?.slice(7) || 'browser'}`;
    return /node$/.test(cmd[0]) ? 'node' : (cmd[0].split('/').pop() ?? '');
  } catch {
    return 'other';
  }
}

/** Runs a command in a process group of its own; resolves to its status, wall and CPU seconds. */
function measure(cmd, cmdArgs, env) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, cmdArgs, { env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    /** `pid:start` → CPU seconds at the last reading, for processes under the child. */
    const mine = new Map();
    /** `pid:start` → what the process is (see kindOf). */
    const kinds = new Map();
    const sample = () => {
      const stats = new Map();
      for (const name of readdirSync('/proc')) if (/^\d+$/.test(name)) {
        const s = readStat(name);
        if (s) stats.set(Number(name), s);
      }
      for (const [pid, s] of stats) {
        const key = `${pid}:${s.start}`;
        if (!kinds.has(key)) {
          // A process belongs to the run if the child is among its ancestors, or if it was seen
          // before (Chromium's zygote outlives its parent and is adopted by init).
          let p = pid;
          for (let hops = 0; p > 1 && p !== child.pid && hops < 64; hops++) p = stats.get(p)?.ppid ?? 0;
          if (p !== child.pid) continue;
        }
        // Read again each time: a renderer forked from Chromium's zygote renames itself after a
        // while; an exited process (a zombie) has no command line left, and keeps the last kind.
        const kind = kindOf(pid);
        if (kind || !kinds.has(key)) kinds.set(key, kind || 'other');
        mine.set(key, s.cpu);
      }
    };
    sample();
    const timer = setInterval(sample, 500);
    child.once('exit', (code) => {
      sample();
      clearInterval(timer);
      let cpu = 0;
      const byKind = {};
      for (const [key, v] of mine) {
        cpu += v;
        byKind[kinds.get(key)] = (byKind[kinds.get(key)] ?? 0) + v;
      }
      resolve({ code, wall: (Date.now() - started) / 1000, cpu, byKind, output });
    });
  });
}

const env = { E2E_WORKERS: '1' };
if (!process.env.E2E_PREBUILT) {
  const build = spawnSync('npx', ['vite', 'build', '--mode', 'test', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
env.E2E_PREBUILT = '1';

const rows = [];
let empty;
if (baseline) {
  // An empty test file: what every run pays before its first test.
  empty = join('e2e', `cpu-baseline-${process.pid}.e2e.ts`);
  writeFileSync(empty, "import { it } from 'vitest';\nimport { useBrowser } from './browser.ts';\nuseBrowser();\nit('starts', () => {});\n");
  files.unshift(empty);
}
// No file named: the whole production-build suite, as `npm run test:e2e` runs it (E2E_WORKERS files at a time).
const runs = files.length > 0 ? files : [undefined];
if (files.length === 0) delete env.E2E_WORKERS;
for (const file of runs) {
  const r = await measure('node', ['e2e/run.mjs', ...(file ? [file] : []), '--reporter=verbose'], env);
  if (process.env.E2E_CPU_LOGS) writeFileSync(join(process.env.E2E_CPU_LOGS, `${(file ?? 'all').replace(/\W+/g, '-')}.log`), r.output);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  const name = file === undefined ? '(every e2e file)' : file === empty ? '(empty run)' : file;
  rows.push({ name, ...r });
  console.log(`${name.padEnd(36)} wall ${r.wall.toFixed(0).padStart(4)} s  CPU ${r.cpu.toFixed(1).padStart(6)} s  ${r.code === 0 ? 'passed' : `FAILED (${r.code})`}  load ${load}`);
  console.log(`    ${Object.entries(r.byKind).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
  if (r.code !== 0) console.log(r.output.split('\n').slice(-60).join('\n'));
}
if (empty) rmSync(empty);
const total = rows.reduce((s, r) => s + r.cpu, 0);
console.log(`total CPU ${total.toFixed(1)} s over ${rows.length} runs`);
