import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
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

/** Waits until the page has rendered content, then a little longer, so late effects run too. */
async function settled(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('main')?.textContent?.trim().length ?? 0) > 40, undefined, { timeout });
  // A page that keeps a request open (the dev server's module graph, a worker's script) never
  // reaches network idle: give it a few seconds, not the default 30, then let late effects run.
  await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined);
  await page.waitForTimeout(500);
}

async function visit(page: Page, errors: string[], path: string): Promise<{ text: number; header: boolean }> {
  errors.length = 0;
  await page.goto(new URL(path, BASE_URL).href);
  // The first page waits for the dev server to compile the app; a blank page is reported below.
  await settled(page, path === '/' ? 60_000 : 10_000).catch(() => undefined);
  return page.evaluate(() => ({
    text: document.querySelector('main')?.textContent?.trim().length ?? 0,
    header: document.querySelector('header.app-header') !== null,
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

describe('every page under the dev server (StrictMode)', () => {
  const browser = useBrowser();

  /** Lesson pages the crawl found, for the presenter, embed and projector views. */
  const lessons: string[] = [];

  async function crawlPage() {
    const context = await browser().newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors: string[] = [];
    await watchErrors(page, errors, { console: true });
    const broken: string[] = [];
    const check = async (path: string, expectHeader: boolean) => {
      const { text, header } = await visit(page, errors, path);
      const problems = [...errors];
      if (text <= 40) problems.push(`no visible content (${text} characters in <main>)`);
      if (expectHeader && !header) problems.push('no header');
      if (problems.length > 0) broken.push(`${path}: ${problems.join(' | ')}`);
    };
    return { page, context, broken, check };
  }

  it('renders every page reachable from / and /lessons', async () => {
    const { page, context, broken, check } = await crawlPage();
    const seen = new Set<string>();
    const keys = new Set<string>();
    const queue = ['/', '/lessons'];
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (keys.has(pageKey(path))) continue;
      keys.add(pageKey(path));
      seen.add(path);
      await check(path, true);
      for (const link of await linksOf(page)) if (!keys.has(pageKey(link))) queue.push(link);
    }
    lessons.push(...[...seen].filter((p) => p.startsWith('/lesson/')));
    console.log(`crawled ${seen.size} pages: ${[...seen].join(' ')}`);
    // The crawl must have found the labs and lessons the home page and the index link to.
    expect(lessons.length).toBeGreaterThanOrEqual(4);
    expect([...seen].filter((p) => p.startsWith('/lab/')).length).toBeGreaterThanOrEqual(3);
    expect(broken).toEqual([]);
    await context.close();
  }, 1_500_000);

  it('renders every lesson found as presenter, embed and projector', async () => {
    expect(lessons.length).toBeGreaterThanOrEqual(4);
    const { context, broken, check } = await crawlPage();
    for (const lesson of lessons) {
      const { pathname } = new URL(lesson, BASE_URL);
      await check(`${pathname}?view=presenter`, true);
      await check(`${pathname}?embed=1`, false);
      await check(`${pathname}?mode=projector`, true);
    }
    expect(broken).toEqual([]);
    await context.close();
  }, 1_500_000);

  it('keeps the help overlay open once opened, and closes it with Escape', async () => {
    const context = await browser().newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors: string[] = [];
    await watchErrors(page, errors, { console: true });
    await page.goto(new URL('/', BASE_URL).href);
    await settled(page, 60_000);
    await page.keyboard.press('?');
    await page.getByTestId('help-overlay').waitFor();
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('help-overlay').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('help-overlay').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
