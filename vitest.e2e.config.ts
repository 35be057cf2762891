import { defineConfig } from 'vitest/config';

// e2e/run.mjs sets E2E_SERVER: the production-build suite (*.e2e.ts) runs against `vite preview`,
// the dev-server suite (*.dev.ts, StrictMode on) against `vite`. A lab keeps its own e2e tests
// beside it (src/labs/<lab>/e2e/*.e2e.ts), so adding a lab touches only its folders.
const dev = process.env.E2E_SERVER === 'dev';

export default defineConfig({
  test: {
    include: dev ? ['e2e/**/*.dev.ts'] : ['e2e/**/*.e2e.ts', 'src/labs/*/e2e/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
