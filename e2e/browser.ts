import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Flags that give headless Chromium WebGPU on SwiftShader on machines with no GPU and no network. */
export const WEBGPU_FLAGS = ['--enable-unsafe-webgpu', '--enable-unsafe-swiftshader', '--use-webgpu-adapter=swiftshader'];
export const QUIET_FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:4173';

export async function launch({ webgpu = true }: { webgpu?: boolean } = {}): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH;
  if (!executablePath) throw new Error('CHROMIUM_PATH is not set: run e2e tests through `npm run test:e2e`.');
  return chromium.launch({
    executablePath,
    headless: true,
    args: [...(webgpu ? WEBGPU_FLAGS : ['--disable-gpu']), ...QUIET_FLAGS],
  });
}

/** The dev-server suite (StrictMode, HMR) or the production-build suite: see e2e/run.mjs. */
export const SERVER: 'dev' | 'preview' = process.env.E2E_SERVER === 'dev' ? 'dev' : 'preview';

/**
 * Records on `errors` what a page reports as broken: uncaught errors, Content-Security-Policy and
 * Trusted Types violations (securitypolicyviolation events and the browser's own report), and
 * with `console: true` every console error.
 */
export async function watchErrors(page: Page, errors: string[], { console: withConsole = false }: { console?: boolean } = {}): Promise<void> {
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const text = m.text();
    if (withConsole || /Content Security Policy|Trusted ?Type|CSP violation/i.test(text)) errors.push(`console.error: ${text}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
}

/** Opens a page and records uncaught errors so tests can assert there were none. */
export async function openPage(browser: Browser, path = '/', options: { console?: boolean } = {}): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const errors: string[] = [];
  await watchErrors(page, errors, options);
  await page.goto(new URL(path, BASE_URL).href);
  return { page, errors };
}

/** One browser for the enclosing `describe`: launched before its tests, closed after them. */
export function useBrowser(options: { webgpu?: boolean } = {}): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launch({ webgpu: options.webgpu ?? true });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not launched yet (use it inside a test)');
    return browser;
  };
}
