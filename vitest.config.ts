import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two projects, run side by side by `npx vitest run`:
 * - `unit`: pure tests (parser, checker, simulator, labs, lessons, views' logic), files in parallel;
 * - `gpu`: the files that drive Dawn (`*.gpu.test.ts`: they create a Node GPU through
 *   `src/gpu/node.ts`, directly or through `src/sim/conformance/harness.ts`). Dawn on SwiftShader
 *   is slow and one device at a time, so these run one file after another, in one worker, beside
 *   the unit project.
 * The end-to-end suite is apart (`vitest.e2e.config.ts`, run by `e2e/run.mjs`).
 * One project: `npx vitest run --project unit`.
 */
const GPU = ['src/**/*.gpu.test.ts', 'scripts/**/*.gpu.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...GPU],
        },
      },
      {
        extends: true,
        test: {
          name: 'gpu',
          include: GPU,
          fileParallelism: false,
          maxWorkers: 1,
        },
      },
    ],
  },
});
