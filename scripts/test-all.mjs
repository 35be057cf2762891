#!/usr/bin/env node
// `npm test`: typecheck, lint, unit tests (incl. GPU tests on Dawn), e2e tests in Chromium with
// WebGPU against the production build (`vite preview`, shipped CSP), a crawl of every page under
// the dev server (`vite`, React StrictMode) and the start page's JavaScript against its budget.
// Runs every stage even when one fails, then prints one plain summary line:
//   Summary: N passed, N failed
// Each test counts once; typecheck and lint count as one check each.
import { spawnSync } from 'node:child_process';
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

function check(name, ok) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(name);
  }
}

function vitestStage(name, cmd, args) {
  mkdirSync('test-results', { recursive: true });
  const out = `test-results/${name}.json`;
  rmSync(out, { force: true });
  const ok = stage(name, cmd, [...args, '--reporter=default', '--reporter=json', `--outputFile=${out}`]);
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
check('typecheck', stage('typecheck', 'npm', ['run', '--silent', 'typecheck']));
check('lint', stage('lint', 'npx', ['eslint', '.']));
vitestStage('unit', 'npx', ['vitest', 'run']);
vitestStage('e2e', 'node', ['e2e/run.mjs']);
// The same app under the `vite` dev server (StrictMode on): the README's first command.
vitestStage('e2e-dev', 'node', ['e2e/run.mjs', '--dev']);
// The production build, and the start page's initial JavaScript against its budget (200 KB gzip).
check('bundle budget', stage('bundle', 'npx', ['vite', 'build', '--logLevel', 'warn']) && stage('bundle sizes', 'node', ['scripts/bundle-sizes.mjs', '--check']));

if (failures.length > 0) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  - ${f}`);
}
console.log(`\nSummary: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
