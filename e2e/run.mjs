#!/usr/bin/env node
// End-to-end tests in real headless Chromium with real WebGPU (SwiftShader where there is no GPU):
// finds or installs Chromium, builds the app, serves it on loopback, runs e2e/*.e2e.ts.
//   node e2e/run.mjs [vitest args…]
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { ensureSystem } from '../scripts/ensure-system.mjs';

const chromium = ensureSystem();
console.log(`e2e: Chromium at ${chromium}`);

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const port = await freePort();
const server = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
const stop = () => {
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
};
process.on('exit', stop);
await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('vite preview did not start within 30 s')), 30_000);
  server.stdout.on('data', (d) => {
    if (String(d).includes(String(port))) {
      clearTimeout(timer);
      resolve();
    }
  });
  server.once('exit', (code) => reject(new Error(`vite preview exited with ${code}`)));
});

const args = ['vitest', 'run', '--config', 'vitest.e2e.config.ts', ...process.argv.slice(2)];
const result = spawnSync('npx', args, {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium, E2E_BASE_URL: `http://127.0.0.1:${port}` },
});
stop();
process.exit(result.status ?? 1);
