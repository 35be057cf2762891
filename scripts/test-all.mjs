#!/usr/bin/env node
// `npm test`: typecheck, lint and the production build side by side, unit tests (the pure ones in
// parallel beside the GPU ones on Dawn, one file at a time: vitest.config.ts), e2e tests in
// Chromium with WebGPU against the test build (`vite preview`, shipped CSP), a crawl of every page
// under the dev server (`vite`, React StrictMode) and the start page's JavaScript against its
// budget. The production build is made once: the budget reads it, and so does the e2e test that
// checks a production build has no test hooks (E2E_PRODUCTION_DIST).
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
 * Runs commands at once, each with its output held back and printed whole when it ends (so the
 * log reads stage by stage); resolves to whether each exited 0.
 */
async function together(stages) {
  const runs = stages.map(
    ({ name, cmd, args, env = {} }) =>
      new Promise((resolve) => {
        const chunks = [];
        const child = spawn(cmd, args, { env: { ...process.env, ...env } });
        child.stdout.on('data', (d) => chunks.push(d));
        child.stderr.on('data', (d) => chunks.push(d));
        child.on('error', (e) => chunks.push(Buffer.from(String(e))));
        child.on('close', (code) => {
          console.log(`\n=== ${name}: ${[cmd, ...args].join(' ')}`);
          process.stdout.write(Buffer.concat(chunks));
          resolve(code === 0);
        });
      }),
  );
  return Promise.all(runs);
}

function check(name, ok) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(name);
  }
}

function vitestStage(name, cmd, args, env = {}) {
  mkdirSync('test-results', { recursive: true });
  const out = `test-results/${name}.json`;
  rmSync(out, { force: true });
  const ok = stage(name, cmd, [...args, '--reporter=default', '--reporter=json', `--outputFile=${out}`], env);
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
  if (!ok && (report.numFailedTests ?? 0) === 0 && failures.length === 0) check(`${name} exited non-zero`, false);
}

ensureSystem();
// The production build, as `npm run build` makes it (NODE_ENV=production), into its own folder:
// e2e/run.mjs builds the test build into dist/.
const PRODUCTION = 'test-results/dist-production';
const [typechecked, linted, built] = await together([
  { name: 'typecheck', cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
  { name: 'lint', cmd: 'npx', args: ['eslint', '.'] },
  { name: 'production build', cmd: 'npx', args: ['vite', 'build', '--outDir', PRODUCTION, '--emptyOutDir', '--logLevel', 'warn'], env: { NODE_ENV: 'production' } },
]);
check('typecheck', typechecked);
check('lint', linted);
vitestStage('unit', 'npx', ['vitest', 'run']);
vitestStage('e2e', 'node', ['e2e/run.mjs'], built ? { E2E_PRODUCTION_DIST: PRODUCTION } : {});
// The same app under the `vite` dev server (StrictMode on): the README's first command.
vitestStage('e2e-dev', 'node', ['e2e/run.mjs', '--dev']);
// The start page's initial JavaScript against its budget (200 KB gzip).
check('bundle budget', built && stage('bundle sizes', 'node', ['scripts/bundle-sizes.mjs', '--check', PRODUCTION]));

if (failures.length > 0) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  - ${f}`);
}
console.log(`\nSummary: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
