import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, useBrowser, watchErrors } from './browser.ts';

/**
 * Under the `vite` dev server (React StrictMode mounts every component twice): every page that
 * links lead to from `/` and `/lessons`, and every lesson page as presenter, embed and projector,
 * renders with no page error and no console error. The list is found by following links, so new
 * labs and lessons are crawled without editing this file.
 */

/** Same-origin in-app addresses linked from the page, as path + query. */
async function linksOf(page: Page): Promise<string[]> {
  const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => (a as HTMLAnchorElement).href));
  const origin = new URL(BASE_URL).origin;
  return hrefs
    .map((h) => new URL(h))
    .filter((u) => u.origin === origin)
    .map((u) => `${u.pathname}${u.search}`);
}

/**
 * How long a page may take to load and show its content: the dev server compiles each module on
 * its first request, and on a clean clone beside the other stages, on a machine shared with other
 * work (load average 60 on 2 cores), lab pages took over 45 s and a load over 30 s. A page that
 * never renders still fails, only later.
 */
const LOAD_MS = 180_000;

/** Waits until the page has rendered content, then a little longer, so late effects run too. */
async function settled(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('main')?.textContent?.trim().length ?? 0) > 40, undefined, { timeout });
  // A page that keeps a request open (the dev server's module graph, a worker's script) never
  // reaches network idle: give it a few seconds, not the default 30, then let late effects run.
  await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined);
  await page.waitForTimeout(500);
}

/**
 * Opens `path` in the tab. A tab's first page is loaded from the server; every later one is
 * reached the way the app's own links and the back button reach it: the address changes in place
 * and the app reads it (`popstate`, the same `syncFromLocation` that reads the address at start-up),
 * so the page's components mount afresh under StrictMode without the tab fetching, compiling and
 * starting the whole app again (a full load under the dev server is hundreds of module requests:
 * it was most of the crawl's CPU time).
 */
async function visit(page: Page, errors: string[], path: string): Promise<{ text: number; header: boolean; at: string }> {
  // The dev server reloads a page when it has just optimized a dependency that page's chunk found
  // (a few tabs at once find them sooner): a visit cut short by such a reload is made again, as a
  // load of its own, with the errors of the cut-short one dropped. A page that renders nothing is
  // reported below.
  for (let attempt = 1; ; attempt++) {
    errors.length = 0;
    const inApp = attempt === 1 && page.url().startsWith(new URL(BASE_URL).origin);
    let loads = 0;
    const count = () => loads++;
    page.on('load', count);
    try {
      if (inApp) {
        await page.evaluate((to) => {
          window.history.pushState(null, '', to);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, path);
      } else {
        await page.goto(new URL(path, BASE_URL).href, { timeout: LOAD_MS });
        loads = 0;
      }
      await settled(page, LOAD_MS);
    } catch {
      /* aborted by a reload, or never rendered: told apart below */
    } finally {
      page.off('load', count);
    }
    if (loads === 0 || attempt === 3) break;
  }
  return page.evaluate(() => ({
    text: document.querySelector('main')?.textContent?.trim().length ?? 0,
    header: document.querySelector('header.app-header') !== null,
    at: `${window.location.pathname}${window.location.search}`,
  }));
}

/**
 * The page a path shows, for the crawl: the route, whatever its query (variant, parameters, step)
 * and whichever step of a lesson, since those are the same components with other data; each is
 * visited once, at the first address the links lead to.
 */
function pageKey(path: string): string {
  return new URL(path, BASE_URL).pathname.replace(/^\/lesson\/([^/]+)\/\d+$/, '/lesson/$1');
}

/**
 * Pages visited at once, each in its own tab of one browser: a visit mostly waits (for the dev
 * server's modules, for network idle, for late effects), so a few tabs keep the crawl short.
 */
const TABS = 4;

describe('every page under the dev server (StrictMode)', () => {
  const browser = useBrowser();

  /** Lesson pages the crawl found, for the presenter, embed and projector views. */
  const lessons: string[] = [];

  /**
   * Tabs that visit paths, opened once for the tests below (each tab's first page loads the app
   * from the dev server, hundreds of module requests; every later one is reached in the app).
   * Each tab has a context of its own (its own storage and broadcast channels, so a presenter view
   * and a projector view open at once do not follow each other) and its own error list, so a
   * problem is reported against its page.
   */
  type Tab = { context: BrowserContext; page: Page; errors: string[] };
  let tabs: Tab[] = [];
  const idle: Tab[] = [];
  const waiting: ((tab: Tab) => void)[] = [];
  beforeAll(async () => {
    tabs = await Promise.all(
      Array.from({ length: TABS }, async () => {
        const context = await browser().newContext({ viewport: { width: 1400, height: 1000 } });
        const page = await context.newPage();
        const errors: string[] = [];
        await watchErrors(page, errors, { console: true });
        return { context, page, errors };
      }),
    );
    idle.push(...tabs);
  });
  afterAll(async () => {
    await Promise.all(tabs.map((t) => t.context.close()));
  });
  const take = async (): Promise<Tab> => idle.pop() ?? (await new Promise<Tab>((resolve) => waiting.push(resolve)));
  const release = (tab: Tab) => {
    const next = waiting.shift();
    if (next) next(tab);
    else idle.push(tab);
  };

  /** Visits `path` in a free tab, adding what is broken to `broken`; resolves to the in-app links the page shows. */
  const check = async (broken: string[], path: string, expectHeader: boolean): Promise<string[]> => {
    const tab = await take();
    try {
      const { text, header, at } = await visit(tab.page, tab.errors, path);
      const problems = [...tab.errors];
      if (pageKey(at) !== pageKey(path)) problems.push(`the address became ${at}`);
      if (text <= 40) problems.push(`no visible content (${text} characters in <main>)`);
      if (expectHeader && !header) problems.push('no header');
      if (problems.length > 0) broken.push(`${path}: ${problems.join(' | ')}`);
      return await linksOf(tab.page);
    } finally {
      release(tab);
    }
  };

  it('renders every page reachable from / and /lessons', async () => {
    const broken: string[] = [];
    // The dev server compiles the app on the first request: let one page pay for it alone.
    const home = await check(broken, '/', true);
    const seen = new Set<string>();
    const keys = new Set<string>();
    /** Visits `path` unless its page was visited, then everything it links to, at once. */
    const crawl = async (path: string, links?: string[]): Promise<void> => {
      if (keys.has(pageKey(path))) return;
      keys.add(pageKey(path));
      seen.add(path);
      const found = links ?? (await check(broken, path, true));
      await Promise.all(found.map((link) => crawl(link)));
    };
    await Promise.all([crawl('/', home), crawl('/lessons')]);
    lessons.push(...[...seen].filter((p) => p.startsWith('/lesson/')));
    console.log(`crawled ${seen.size} pages: ${[...seen].join(' ')}`);
    // The crawl must have found the labs and lessons the home page and the index link to.
    expect(lessons.length).toBeGreaterThanOrEqual(4);
    expect([...seen].filter((p) => p.startsWith('/lab/')).length).toBeGreaterThanOrEqual(3);
    expect(broken).toEqual([]);
  }, 1_500_000);

  it('renders every lesson found as presenter, embed and projector', async () => {
    expect(lessons.length).toBeGreaterThanOrEqual(4);
    const broken: string[] = [];
    await Promise.all(
      lessons.flatMap((lesson) => {
        const { pathname } = new URL(lesson, BASE_URL);
        return [check(broken, `${pathname}?view=presenter`, true), check(broken, `${pathname}?embed=1`, false), check(broken, `${pathname}?mode=projector`, true)];
      }),
    );
    expect(broken).toEqual([]);
  }, 1_500_000);

  it('keeps the help overlay open once opened, and closes it with Escape', async () => {
    // A fresh tab, as a first visit: the crawl's tabs have been through every page.
    const context = await browser().newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors: string[] = [];
    await watchErrors(page, errors, { console: true });
    await page.goto(new URL('/', BASE_URL).href, { timeout: LOAD_MS });
    await settled(page, LOAD_MS);
    await page.keyboard.press('?');
    await page.getByTestId('help-overlay').waitFor();
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('help-overlay').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('help-overlay').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  }, 600_000);
});
