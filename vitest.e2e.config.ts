import { defineConfig } from 'vitest/config';

// e2e/run.mjs sets E2E_SERVER: the production-build suite (*.e2e.ts) runs against `vite preview`,
// the dev-server suite (*.dev.ts, StrictMode on) against `vite`. A lab keeps its own e2e tests
// beside it (src/labs/<lab>/e2e/*.e2e.ts), so adding a lab touches only its folders.
//
// The production-build files run E2E_WORKERS at a time (2 unless set): much of a test's time is
// spent waiting (for the GPU process, an animation, a worker), so two files keep the cores busier
// than one. Each worker's files share one Chromium, started before them and closed after them
// (e2e/browsers.setup.ts): a file connects to it and opens contexts of its own, rather than
// starting a browser and its GPU process per `describe`. A worker runs its files in one module
// graph (isolate: false), so its connection to that browser and its app page (useAppPage: the app
// loaded once, each test's page opened inside it) serve all its files, not one file each: opening a
// context and loading the app cost a few CPU seconds per file. A file that changes what the shared
// server serves runs alone, after the others (project `alone`): offline.e2e.ts gives dist/sw.js
// new bytes to stand for a new deployment, which another file's service worker would pick up.
const dev = process.env.E2E_SERVER === 'dev';
const ALONE = ['e2e/offline.e2e.ts'];
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
    globalSetup: ['e2e/browsers.setup.ts'],
    // One module graph per worker (see above): playwright-core and the helpers are imported once
    // per worker, not once per file, and e2e/browser.ts keeps the worker's browser connection and
    // app page for its later files. A file's own module-level values are still its own.
    isolate: false,
    ...(dev
      ? { include: ['e2e/**/*.dev.ts'], fileParallelism: false }
      : {
          projects: [
            {
              extends: true,
              test: { name: 'e2e', include: ['e2e/**/*.e2e.ts', 'src/labs/*/e2e/*.e2e.ts'], exclude: ALONE, maxWorkers: workers },
            },
            // After the e2e project's files (a later group), one worker.
            { extends: true, test: { name: 'alone', include: ALONE, fileParallelism: false, maxWorkers: 1, sequence: { groupOrder: 1 } } },
          ],
        }),
  },
});
