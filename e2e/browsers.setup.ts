/**
 * Vitest global setup for the e2e suites: one Chromium (with WebGPU) per test worker, started
 * before the first file and closed after the last, instead of one per `describe`. Starting Chromium
 * and its GPU process costs seconds of CPU each time on a machine without a GPU (SwiftShader), and
 * the suites started 45 in a run. A file connects to its worker's browser (`useBrowser` in
 * e2e/browser.ts) and gets contexts of its own, which it closes when it ends: each context has its
 * own storage, cookies, service workers and permissions, so files still start from a clean
 * profile; what they share is the browser process and its GPU process, as tabs do.
 */
import type { TestProject } from 'vitest/node';
import { chromium, launchOptions } from './chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** WebSocket addresses of the shared browsers, one per worker of the project (by VITEST_POOL_ID). */
    browserEndpoints: string[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { config } = project;
  // A project that runs its files one at a time (fileParallelism: false) resolves to one worker.
  const count = Math.max(1, Number(config.maxWorkers) || 1);
  const servers = await Promise.all(Array.from({ length: count }, () => chromium.launchServer(launchOptions())));
  project.provide('browserEndpoints', servers.map((s) => s.wsEndpoint()));
  return async () => {
    await Promise.all(servers.map((s) => s.close()));
  };
}
