import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { chromium, launchOptions } from './chromium.ts';
import { goInApp } from './pages.ts';

export { QUIET_FLAGS, WEBGPU_FLAGS } from './chromium.ts';

export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:4173';

export async function launch({ webgpu = true }: { webgpu?: boolean } = {}): Promise<Browser> {
  return chromium.launch(launchOptions({ webgpu }));
}

/** The dev-server suite (StrictMode, HMR) or the production-build suite: see e2e/run.mjs. */
export const SERVER: 'dev' | 'preview' = process.env.E2E_SERVER === 'dev' ? 'dev' : 'preview';

/** A console error that reports a Content-Security-Policy or Trusted Types violation. */
const isPolicyViolation = (text: string) => /Content Security Policy|Trusted ?Type|CSP violation/i.test(text);

/**
 * Records on `errors` what a page reports as broken: uncaught errors, Content-Security-Policy and
 * Trusted Types violations (securitypolicyviolation events and the browser's own report), and
 * with `console: true` every console error.
 */
export async function watchErrors(page: Page, errors: Pick<string[], 'push'>, { console: withConsole = false }: { console?: boolean } = {}): Promise<void> {
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const text = m.text();
    if (withConsole || isPolicyViolation(text)) errors.push(`console.error: ${text}`);
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

const blocking = new WeakSet<Browser>();

/**
 * Makes the contexts `browser` opens block service workers unless the caller asks for them
 * (`serviceWorkers: 'allow'`). The app's service worker precaches the whole build (every chunk,
 * about 170 files) as soon as a page registers it, and each new context is a first visit, so every
 * context downloaded and stored the whole app again: about a CPU second a context, some hundred
 * times a run, for nothing its test looks at. The offline suite (e2e/offline.e2e.ts), which tests
 * the service worker itself, allows it. `browser.newPage()` opens its context through this too.
 */
function withoutServiceWorkerByDefault(browser: Browser): void {
  if (blocking.has(browser)) return;
  blocking.add(browser);
  const open = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => open({ serviceWorkers: 'block', ...options });
}

/**
 * This worker's connection to its shared browser (e2e/browsers.setup.ts), made by the first
 * `describe` of its first file and kept for the files after it: the e2e project runs a worker's
 * files in one module graph (`isolate: false`, vitest.e2e.config.ts), so this module's state
 * outlives a file, and so does the worker's app page (`useAppPage`).
 */
let workerBrowser: Promise<Browser> | undefined;

/**
 * A browser for the enclosing `describe`, connected before its tests. With WebGPU (the default) it
 * is this worker's browser, started once for all its files by e2e/browsers.setup.ts and connected
 * to once (`workerBrowser`); the contexts the `describe` opened are closed after its tests. Without
 * WebGPU, or when no shared browser was started, one launched for this `describe` alone and closed
 * after it.
 */
export function useBrowser(options: { webgpu?: boolean } = {}): () => Browser {
  let browser: Browser | undefined;
  let own = false;
  let opened = new Set<BrowserContext>();
  beforeAll(async () => {
    const webgpu = options.webgpu ?? true;
    const endpoints = webgpu ? inject('browserEndpoints') : undefined;
    if (endpoints && endpoints.length > 0) {
      const worker = Math.max(1, Number(process.env.VITEST_POOL_ID) || 1);
      workerBrowser ??= chromium.connect(endpoints[(worker - 1) % endpoints.length]!);
      browser = await workerBrowser;
    } else {
      browser = await launch({ webgpu });
      own = true;
    }
    opened = new Set(browser.contexts());
    withoutServiceWorkerByDefault(browser);
  });
  // A test's contexts are closed when it ends, so its pages stop running (animations, timers,
  // workers) while later tests of the file run: the file's shared browser otherwise kept every page
  // it had opened alive until the file ended. Contexts opened before the test (in beforeAll) stay.
  let before = new Set<BrowserContext>();
  beforeEach(() => {
    before = new Set(browser?.contexts() ?? []);
  });
  afterEach(async () => {
    await Promise.all((browser?.contexts() ?? []).filter((c) => !before.has(c)).map((c) => c.close()));
  });
  afterAll(async () => {
    if (own) {
      await browser?.close();
      return;
    }
    // The worker's connection stays; the contexts this describe opened go, the worker's app page's
    // context excepted.
    const keep = await workerPage?.then((w) => w?.page.context()).catch(() => undefined);
    await Promise.all((browser?.contexts() ?? []).filter((c) => !opened.has(c) && c !== keep).map((c) => c.close()));
  });
  return () => {
    if (!browser) throw new Error('the browser is not launched yet (use it inside a test)');
    return browser;
  };
}

/**
 * Forgets what the app keeps in the browser's storage, as a new browser context starts without it:
 * localStorage, sessionStorage and every IndexedDB store's records (drafts too big for
 * localStorage). The databases are emptied, not deleted: the app keeps its connection open, which
 * would hold a deletion back.
 */
async function forgetStorage(page: Page): Promise<void> {
  await page.evaluate(async () => {
    localStorage.clear();
    sessionStorage.clear();
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error ?? new Error(`IndexedDB ${name} could not be opened`));
      });
      const stores = [...db.objectStoreNames];
      if (stores.length > 0) {
        await new Promise<void>((resolve, reject) => {
          const t = db.transaction(stores, 'readwrite');
          for (const s of stores) t.objectStore(s).clear();
          t.oncomplete = () => resolve();
          t.onerror = () => reject(t.error ?? new Error(`IndexedDB ${name} could not be cleared`));
        });
      }
      db.close();
    }
  });
}

/**
 * Saves a screenshot of `page` under test-results/screens/<name>.png when E2E_SCREENS=1, for a
 * person to look at; otherwise takes none (nothing in the suite reads them, and each costs the
 * renderer a frame and an encoding).
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.E2E_SCREENS !== '1') return;
  mkdirSync('test-results/screens', { recursive: true });
  await page.screenshot({ path: `test-results/screens/${name}.png`, ...options });
}

/** What a test's first visit is made under: the window's size and the motion preference. */
export interface Visit {
  width?: number;
  height?: number;
  reducedMotion?: 'reduce' | 'no-preference';
}

/** A page for `useAppPage`, its reports sent to whichever describe uses it now (`sink`). */
interface AppPage {
  page: Page;
  sink: (e: string) => void;
  crashed: boolean;
}

/** This worker's app page (see `workerBrowser`), shared by its files' `useAppPage`. */
let workerPage: Promise<AppPage | undefined> | undefined;

async function openAppPage(browser: Browser): Promise<AppPage> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const app: AppPage = { page: await context.newPage(), sink: () => undefined, crashed: false };
  app.page.on('crash', () => (app.crashed = true));
  await watchErrors(app.page, { push: (...e: string[]) => (e.forEach((x) => app.sink(x)), e.length) }, { console: true });
  return app;
}

/**
 * One page for the enclosing `describe`'s tests, ready before them, in which each test opens its
 * path as a first visit shows it (`open`): the app leaves for its start page in English, forgets
 * what it keeps in the browser's storage (drafts, exercises, lesson progress, language;
 * `forgetStorage`), takes the size and motion preference asked for (1400 × 1000 with motion
 * unless `visit` says otherwise) and opens the path inside the app (`goInApp`), instead of loading
 * the app again in a new context. Loading it costs seconds of CPU each time (its code parsed and
 * compiled, its WebGPU device created), which this pays once. On the worker's shared browser the
 * page is the worker's (`workerPage`): opened by its first file that asks for one and used by the
 * files after it, so a worker loads the app once, not once per file. `errors` gathers what the page
 * reports as broken (`watchErrors`) from that `open` on.
 */
export function useAppPage(browser: () => Browser, options: { console?: boolean } = {}): (path: string, visit?: Visit) => Promise<{ page: Page; errors: string[] }> {
  let page: Page | undefined;
  let errors: string[] = [];
  // What the page reports goes to the `errors` of this describe's last `open`; console errors only
  // with `console: true`, the policy's violations always.
  const record = (e: string) => {
    if (options.console || !e.startsWith('console.error: ') || isPolicyViolation(e)) errors.push(e);
  };
  beforeAll(async () => {
    const b = browser();
    if (workerBrowser && b === (await workerBrowser)) {
      // The worker's app page, opened by its first file that asks for one, and opened anew should
      // the last one have closed or crashed.
      const last = await workerPage;
      if (!last || last.page.isClosed() || last.crashed) workerPage = openAppPage(b);
      const shared = (await workerPage)!;
      shared.sink = record;
      page = shared.page;
    } else {
      const own = await openAppPage(b);
      own.sink = record;
      page = own.page;
    }
  });
  return async (path, { width = 1400, height = 1000, reducedMotion = 'no-preference' } = {}) => {
    if (!page) throw new Error('the page is not open yet (use it inside a test)');
    errors = [];
    if (page.url() !== 'about:blank') {
      // No overlay, as on a first visit: the help a test opened is the app's, and stays open across pages.
      const help = page.getByTestId('help-overlay');
      if (await help.isVisible()) {
        await page.keyboard.press('Escape');
        await help.waitFor({ state: 'detached' });
      }
      await goInApp(page, '/?lang=en', BASE_URL);
      // The last page has gone (a lab or lesson keeps its session until it unmounts).
      await page.waitForFunction(() => !document.querySelector('#lab-title, #lesson-title, [data-testid=stage]'));
      // In English, as a first visit here is: the address's `?lang=en` switches back a page a test
      // switched to another language (the header's switch, should it not have).
      if ((await page.evaluate(() => document.documentElement.lang)) !== 'en') await page.getByTestId('language-switch').selectOption('en');
      await page.waitForFunction(() => document.documentElement.lang === 'en' && !document.querySelector('[data-testid=language-switch][aria-busy]'));
      await forgetStorage(page);
      // The start page itself is left for the lessons' list and opened anew, so that it too reads
      // the storage forgotten (it stays mounted while only its address's query changes).
      if (new URL(path, BASE_URL).pathname === '/') {
        await goInApp(page, '/lessons', BASE_URL);
        await page.waitForFunction(() => !document.querySelector('[data-testid=home-hero]'));
        await forgetStorage(page);
      }
    }
    // The size and motion preference are the page's before the path's page mounts (a test may
    // have changed them in the page before).
    const size = page.viewportSize();
    if (size?.width !== width || size.height !== height) await page.setViewportSize({ width, height });
    await page.emulateMedia({ reducedMotion });
    await goInApp(page, path, BASE_URL);
    return { page, errors };
  };
}
