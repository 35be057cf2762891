/**
 * How the language changes, beyond what each page says (e2e/i18n.e2e.ts):
 * - the header's switch shows the new language only once every text on screen has it, those of a
 *   chunk that arrives while the switch loads too (the start page's first lesson, whose catalog comes
 *   with the lessons, fetched in the background);
 * - an address opened inside the app (back, forward, a link) that carries `?lang=` shows its page in
 *   that language, as a fresh load does, and the learner's stored choice follows, so a later visit
 *   without `?lang=` opens in the language read last.
 * The chunks are held back by the test (a route that answers when told), so the order of arrival
 * that once showed an English title on a Chinese page happens every time, not by chance.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useBrowser, watchErrors } from './browser.ts';
import { goInApp } from './pages.ts';

const HAN = /[\u4e00-\u9fff]/;

/** A gate that a held request waits at until it opens. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

/**
 * Records, from now on, each frame's pair of `<html lang>` and the texts of `selector` (read just
 * before the frame is painted), so a test can ask whether a text was ever shown in the wrong language.
 */
async function recordTexts(page: Page, selector: string): Promise<void> {
  await page.evaluate((sel) => {
    const seen: { lang: string; text: string }[] = [];
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    const look = () => {
      for (const el of document.querySelectorAll(sel)) seen.push({ lang: document.documentElement.lang, text: (el.textContent ?? '').trim() });
      requestAnimationFrame(look);
    };
    look();
  }, selector);
}

/**
 * What `recordTexts` saw in the wrong language: English words (a run of small Latin letters; names
 * such as CUDA are capitals) under a Chinese `<html lang>`, or Chinese under an English one.
 */
function wrongLanguage(page: Page): Promise<string[]> {
  return page.evaluate(
    (han) =>
      (window as unknown as { __seen: { lang: string; text: string }[] }).__seen
        .filter(({ lang, text }) => (lang === 'zh-CN' ? /[a-z]{3,}/.test(text) : new RegExp(han).test(text)))
        .map(({ lang, text }) => `${lang}: ${text}`),
    HAN.source,
  );
}

describe('switching the language', () => {
  const browser = useBrowser();

  it('the header’s switch on the start page waits for the lessons that arrive meanwhile; an address opened in the app applies its ?lang=, and is remembered', async () => {
    // No service worker: the test answers the page's requests itself.
    const context = await browser().newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors: string[] = [];
    await watchErrors(page, errors);
    const lessons = gate();
    const chinese = gate();
    const asked = { lessons: 0, chinese: 0 };
    const hold = async (route: Route) => {
      const path = new URL(route.request().url()).pathname;
      if (path.includes('zh-CN')) {
        asked.chinese++;
        await chinese.wait;
        return route.continue();
      }
      const response = await route.fetch();
      // The chunk that registers the lessons' catalogs (the first lesson's is “lesson-indexing”).
      if (/["'`]lesson-indexing["'`]/.test(await response.text())) {
        asked.lessons++;
        await lessons.wait;
      }
      return route.fulfill({ response });
    };
    // A request still held when a failed test closes the page has nobody to answer.
    await page.route(/\/assets\/.*\.js$/, (route) => hold(route).catch(() => undefined));

    await page.goto(new URL('/?lang=en', BASE_URL).href);
    await page.getByTestId('home-hero').waitFor();
    await expect.poll(() => asked.lessons, { timeout: 30_000 }).toBe(1);
    await recordTexts(page, '[data-testid=start-first-lesson]');
    // The learner switches while the lessons are still on their way; they arrive while the
    // switch loads the Chinese of what is on screen.
    await page.getByTestId('language-switch').selectOption('zh-CN');
    await expect.poll(() => asked.chinese, { timeout: 30_000 }).toBeGreaterThan(0);
    lessons.open();
    await page.getByTestId('start-first-lesson').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    chinese.open();
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN' && !document.querySelector('[data-testid=language-switch][aria-busy]'), undefined, { timeout: 30_000 });
    // At once, with no wait for anything to arrive later: the first lesson's title is in Chinese,
    // and it was never shown in English on the Chinese page (nor in Chinese on the English one).
    expect(await page.getByTestId('start-first-lesson').textContent()).not.toMatch(/[a-z]{3,}/);
    expect(await wrongLanguage(page)).toEqual([]);
    await page.unroute(/\/assets\/.*\.js$/);

    // Back to English by an address opened inside the app (a link, or back and forward): the page
    // reads ?lang=en as a fresh load does, and the lesson index never shows in Chinese.
    await recordTexts(page, '#lessons-title, #lab-title');
    await goInApp(page, '/lessons?lang=en', BASE_URL);
    await page.locator('#lessons-title').waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    expect(await page.locator('#lessons-title').textContent()).not.toMatch(HAN);
    expect(await page.getByTestId('language-switch').inputValue()).toBe('en');
    expect(await page.evaluate(() => localStorage.getItem('warpscope.lang'))).toBe('en');
    const links = await page.locator('a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(links.filter((href) => !href.includes('lang=en'))).toEqual([]);
    // And a lab in Chinese the same way: its page opens in Chinese, never in English first.
    await goInApp(page, '/lab/reduce?lang=zh-CN', BASE_URL);
    await page.waitForFunction(() => /[\u4e00-\u9fff]/.test(document.querySelector('#lab-title')?.textContent ?? ''), undefined, { timeout: 60_000 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(await page.getByTestId('language-switch').inputValue()).toBe('zh-CN');
    expect(await page.evaluate(() => localStorage.getItem('warpscope.lang'))).toBe('zh-CN');
    // Back: the lesson index's address says English.
    await page.goBack();
    await page.locator('#lessons-title').waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    expect(await wrongLanguage(page)).toEqual([]);

    // A later visit without ?lang= opens in the language read last.
    await page.goto(new URL('/lessons', BASE_URL).href);
    await page.locator('#lessons-title').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(errors).toEqual([]);
  }, 180_000);
});
