import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three projects:
 * - `unit`: pure tests (parser, checker, simulator, labs, lessons, views' logic), files in parallel,
 *   one worker per core, not isolated: a worker runs file after file in one module graph, so the
 *   front end, simulator and labs are imported once per worker instead of once per file (most of
 *   a small file's cost);
 * - `unit-isolated`: the unit files that replace a module (`vi.mock`), each in a module graph of
 *   its own, as a replaced module must not reach, or be missed by, another file;
 * - `gpu`: the files that drive Dawn (`*.gpu.test.ts`: they create a Node GPU through
 *   `src/gpu/node.ts`, directly or through `src/sim/conformance/harness.ts`). Dawn on SwiftShader
 *   is slow and one device at a time, so these run one file after another, in one worker, sharing
 *   one executor (a pipeline compiled by one file is not compiled again by the next).
 * `npx vitest run` runs the unit project, then the gpu project (vitest runs a one-worker project
 * after the others); `npm test` runs each in a lane of its own beside the e2e suite (scripts/test-all.mjs).
 * The end-to-end suite is apart (`vitest.e2e.config.ts`, run by `e2e/run.mjs`).
 * The pure tests: `npx vitest run --project 'unit*'`.
 */
const GPU = ['src/**/*.gpu.test.ts', 'scripts/**/*.gpu.test.ts'];
const UNIT = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'server/**/*.test.ts'];
/** Unit files that replace a module with `vi.mock` (scripts/vitest-projects.test.ts keeps this complete). */
export const MOCKING = ['src/cuda/host/executor.test.ts'];

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
          include: UNIT,
          exclude: [...configDefaults.exclude, ...GPU, ...MOCKING],
          // One worker per core (vitest's default leaves one core out: one worker on 2 cores).
          maxWorkers: availableParallelism(),
          isolate: false,
        },
      },
      {
        extends: true,
        // Beside the unit project, in the same pool of workers.
        test: { name: 'unit-isolated', include: MOCKING, maxWorkers: availableParallelism() },
      },
      {
        extends: true,
        test: {
          name: 'gpu',
          include: GPU,
          fileParallelism: false,
          maxWorkers: 1,
          // One process for all of them, not isolated: the files share one GPU executor
          // (src/gpu/node.ts, sharedNodeGpu) and its compiled pipelines, and the front end,
          // simulator and labs are imported once instead of once per file.
          isolate: false,
          // Dawn waits for the GPU by polling: keep that from spinning a core (src/gpu/dawnPolling.ts).
          setupFiles: ['src/gpu/dawnPolling.setup.ts'],
          // A GPU test takes seconds alone; on a machine shared with other work (load average 20 to
          // 40 on 2 cores) the slowest took over 120 s. A hang is still stopped by npm test.
          testTimeout: 600_000,
        },
      },
    ],
  },
});
