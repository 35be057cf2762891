#!/usr/bin/env node
// `npm test`: typecheck, lint, the production build and the test build side by side; then two
// lanes at once: (1) the unit tests (vitest.config.ts: the pure project, then the GPU files on
// Dawn, one at a time), then a crawl of every page under the dev server (`vite`, React
// StrictMode); (2) the e2e tests in Chromium with WebGPU against the test build (`vite preview`,
// shipped CSP). Last, the start page's JavaScript against its budget. Each build is
// made once: the budget reads the production build, and so does the e2e test that checks a
// production build has no test hooks (E2E_PRODUCTION_DIST); e2e/run.mjs serves the test build
// made here (E2E_PREBUILT).
// Runs every stage even when one fails, then prints one plain summary line:
//   Summary: N passed, N failed
// Each test counts once; typecheck and lint count as one check each.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { ensureSystem } from './ensure-system.mjs';

let passed = 0;
let failed = 0;
const failures = [];

function stage(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

/**
 * CPU seconds (user + system) of this process's finished children and everything they waited for,
 * from /proc (Linux); null elsewhere. Read when a stage's process has exited, the growth since the
 * last reading is that stage's CPU time (two stages ending at the same moment may share it).
 */
function childrenCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // Fields 16 and 17 of stat (cutime, cstime), in clock ticks of 1/100 s on Linux.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}
let cpuRead = childrenCpu();
const cpuTotal = cpuRead;

/** Runs a command with its output held back; resolves to its exit status, output, wall and CPU seconds. */
function quietly({ cmd, args, env = {} }) {
  return new Promise((resolve) => {
    const chunks = [];
    const started = Date.now();
    const child = spawn(cmd, args, { env: { ...process.env, ...env } });
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('error', (e) => chunks.push(Buffer.from(String(e))));
    child.on('close', (code) => {
      const now = childrenCpu();
      const cpu = now === null || cpuRead === null ? null : now - cpuRead;
      cpuRead = now;
      resolve({ ok: code === 0, output: Buffer.concat(chunks), seconds: (Date.now() - started) / 1000, cpu });
    });
  });
}

/** Prints a finished command's output whole, under its name (so the log reads stage by stage). */
function print({ name, cmd, args }, { output, seconds, cpu }) {
  console.log(`\n=== ${name}: ${[cmd, ...args].join(' ')} (${seconds.toFixed(0)} s${cpu === null ? '' : `, CPU ${cpu.toFixed(0)} s`})`);
  process.stdout.write(output);
}

/** Runs commands at once, each printed whole when it ends; resolves to whether each exited 0. */
async function together(stages) {
  return Promise.all(
    stages.map(async (s) => {
      const r = await quietly(s);
      print(s, r);
      return r.ok;
    }),
  );
}

function check(name, ok) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(name);
  }
}

/** A vitest run with a JSON report: its tests count one by one. */
async function vitestStage(name, cmd, args, env = {}) {
  mkdirSync('test-results', { recursive: true });
  const out = `test-results/${name}.json`;
  rmSync(out, { force: true });
  const s = { name, cmd, args: [...args, '--reporter=default', '--reporter=json', `--outputFile=${out}`], env };
  const r = await quietly(s);
  print(s, r);
  if (!existsSync(out)) {
    check(`${name} (no results: the runner failed to start)`, false);
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

ensureSystem();
// The production build, as `npm run build` makes it (NODE_ENV=production), into its own folder:
// e2e/run.mjs builds the test build into dist/.
const PRODUCTION = 'test-results/dist-production';
const started = Date.now();
const [typechecked, linted, built, testBuilt] = await together([
  { name: 'typecheck', cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
  { name: 'lint', cmd: 'npx', args: ['eslint', '.'] },
  { name: 'production build', cmd: 'npx', args: ['vite', 'build', '--outDir', PRODUCTION, '--emptyOutDir', '--logLevel', 'warn'], env: { NODE_ENV: 'production' } },
  // The test build (production plus read-only test hooks) that the e2e suite serves from dist/.
  { name: 'test build', cmd: 'npx', args: ['vite', 'build', '--mode', 'test', '--logLevel', 'warn'] },
]);
check('typecheck', typechecked);
check('lint', linted);
check('test build', testBuilt);
// Two lanes at once, so that both cores stay busy: each stage below mostly keeps one core busy
// (vitest runs one project after another, one file at a time on two cores; the GPU files must run
// one at a time anyway), and the e2e suite, the longest, has a lane to itself.
await Promise.all([
  (async () => {
    await vitestStage('unit', 'npx', ['vitest', 'run', '--project', 'unit']);
    await vitestStage('gpu', 'npx', ['vitest', 'run', '--project', 'gpu']);
    // The same app under the `vite` dev server (StrictMode on): the README's first command.
    await vitestStage('e2e-dev', 'node', ['e2e/run.mjs', '--dev']);
  })(),
  testBuilt
    ? vitestStage('e2e', 'node', ['e2e/run.mjs'], { E2E_PREBUILT: '1', ...(built ? { E2E_PRODUCTION_DIST: PRODUCTION } : {}) })
    : Promise.resolve(),
]);
// The start page's initial JavaScript against its budget (200 KB gzip).
check('bundle budget', built && stage('bundle sizes', 'node', ['scripts/bundle-sizes.mjs', '--check', PRODUCTION]));

if (failures.length > 0) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  - ${f}`);
}
const cpuEnd = childrenCpu();
const cpuNote = cpuEnd === null || cpuTotal === null ? '' : `, CPU ${((cpuEnd - cpuTotal) / 60).toFixed(1)} minutes`;
console.log(`\nSummary: ${passed} passed, ${failed} failed (${((Date.now() - started) / 60_000).toFixed(1)} minutes${cpuNote})`);
process.exit(failed === 0 ? 0 : 1);
