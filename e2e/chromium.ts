/**
 * How the e2e suites start headless Chromium: with WebGPU on SwiftShader on machines with no GPU
 * and no network. Read by the test files (e2e/browser.ts) and by the browsers the runner starts
 * before them (e2e/browsers.setup.ts); no vitest imports here, so the runner's process can load it.
 */
import { chromium, type LaunchOptions } from 'playwright-core';

/** Flags that give headless Chromium WebGPU on SwiftShader on machines with no GPU and no network. */
export const WEBGPU_FLAGS = ['--enable-unsafe-webgpu', '--enable-unsafe-swiftshader', '--use-webgpu-adapter=swiftshader'];
export const QUIET_FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function launchOptions({ webgpu = true }: { webgpu?: boolean } = {}): LaunchOptions {
  const executablePath = process.env.CHROMIUM_PATH;
  if (!executablePath) throw new Error('CHROMIUM_PATH is not set: run e2e tests through `npm run test:e2e`.');
  return { executablePath, headless: true, args: [...(webgpu ? WEBGPU_FLAGS : ['--disable-gpu']), ...QUIET_FLAGS] };
}

export { chromium };
