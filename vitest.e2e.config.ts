import { defineConfig } from 'vitest/config';

// e2e/run.mjs sets E2E_SERVER: the production-build suite (*.e2e.ts) runs against `vite preview`,
// the dev-server suite (*.dev.ts, StrictMode on) against `vite`.
const dev = process.env.E2E_SERVER === 'dev';

export default defineConfig({
  test: {
    include: dev ? ['e2e/**/*.dev.ts'] : ['e2e/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
