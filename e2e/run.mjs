#!/usr/bin/env node
// End-to-end tests in real headless Chromium with real WebGPU (SwiftShader where there is no GPU).
//   node e2e/run.mjs [vitest args…]        builds the app in test mode and serves it with
//                                          `vite preview` (the shipped CSP headers), runs e2e/*.e2e.ts and src/labs/*/e2e/*.e2e.ts
//   node e2e/run.mjs --dev [vitest args…]  serves the sources with the `vite` dev server (React
//                                          StrictMode, HMR), runs e2e/*.dev.ts
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ensureSystem } from '../scripts/ensure-system.mjs';

const dev = process.argv[2] === '--dev';
const rest = process.argv.slice(dev ? 3 : 2);

// The project's own Vite and Vitest, started with this Node (`npx` would start npm first to find them).
const VITE = fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

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

if (!dev && !process.env.E2E_PREBUILT) {
  // Test mode: the same production build, plus the read-only test hooks (window.__warpscope).
  // `npm test` makes it beforehand, beside the production build, and sets E2E_PREBUILT.
  const build = spawnSync(process.execPath, [VITE, 'build', '--mode', 'test', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = await freePort();
const serverArgs = dev
  ? // Exactly what `npm run dev` serves (development mode, no test hooks), on a free port.
    [VITE, '--host', '127.0.0.1', '--port', String(port), '--strictPort']
  : [VITE, 'preview', '--mode', 'test', '--host', '127.0.0.1', '--port', String(port), '--strictPort'];
const server = spawn(process.execPath, serverArgs, { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
const stop = () => {
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
};
process.on('exit', stop);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`vite ${dev ? 'dev' : 'preview'} did not start within 30 s`)), 30_000);
  server.stdout.on('data', (d) => {
    if (String(d).includes(String(port))) {
      clearTimeout(timer);
      resolve();
    }
  });
  server.once('exit', (code) => reject(new Error(`vite ${dev ? 'dev' : 'preview'} exited with ${code}`)));
});

const args = [VITEST, 'run', '--config', 'vitest.e2e.config.ts', ...rest];
const tests = spawn(process.execPath, args, {
  stdio: 'inherit',
  env: {
    ...process.env,
    CHROMIUM_PATH: chromium,
    E2E_BASE_URL: `http://127.0.0.1:${port}`,
    E2E_SERVER: dev ? 'dev' : 'preview',
  },
});
// Stopped from outside: stop the tests too, then the server (on exit).
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.removeAllListeners(signal);
  process.on(signal, () => {
    tests.kill(signal);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}
const status = await new Promise((resolve) => tests.once('exit', (code) => resolve(code ?? 1)));
stop();
process.exit(status);
