import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useBrowser } from './browser.ts';

/**
 * The smallest rendered font size of any visible text on the page, in CSS pixels: HTML text from
 * its computed style; SVG text scaled by its screen transform (a viewBox can shrink it).
 */
function smallestVisibleText(page: Page): Promise<{ px: number; sample: string }> {
  return page.evaluate(() => {
    let best = { px: Infinity, sample: '' };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const el = node.parentNode instanceof Element ? node.parentNode : null;
      if (!text || !el) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
      const rects = el.getClientRects();
      if (rects.length === 0) continue; // not rendered (an ancestor is display: none)
      const r = rects[0]!;
      if (r.width === 0 || r.height === 0) continue;
      if (el.closest('.sr-only')) continue; // for screen readers, not drawn
      let px = parseFloat(style.fontSize);
      if (el instanceof SVGGraphicsElement) px *= el.getScreenCTM()?.a ?? 1;
      if (px < best.px) best = { px, sample: text.slice(0, 40) };
    }
    return best;
  });
}

describe('projector mode at 1920×1080', () => {
  const browser = useBrowser();

  async function open(path: string) {
    const context = await browser().newContext({ viewport: { width: 1920, height: 1080 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(new URL(path, BASE_URL).href);
    return { page, errors };
  }

  it.each([
    '/lesson/reduction/3?mode=projector',
    '/lab/reduce?v=neighbored&mode=projector&step=120',
    '/lesson/divergence/2?mode=projector',
    '/lesson/scan/3?mode=projector',
    '/lessons?mode=projector',
    '/?mode=projector',
  ])(
    '%s has no visible text under 28 px',
    async (path) => {
      const { page, errors } = await open(path);
      await page.waitForTimeout(300);
      if (path.includes('lab/') || path.includes('lesson/')) await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 60_000 });
      else await page.locator('main').waitFor();
      const smallest = await smallestVisibleText(page);
      expect(smallest.px, `“${smallest.sample}” is ${smallest.px}px`).toBeGreaterThanOrEqual(28);
      if (path.includes('lab/') || path.includes('lesson/')) {
        // Scaled, not stripped: the stage's diagram keeps its labels and values.
        const labels = await page.evaluate(() => [...document.querySelectorAll('[data-testid=stage] svg text')].filter((t) => t.getBoundingClientRect().width > 0).length);
        expect(labels, 'SVG labels on the stage').toBeGreaterThan(3);
      }
      expect(errors).toEqual([]);
    },
  );

  // Every lab's default page: its own stage picture (SVG or HTML tables and strips) keeps its text.
  it.each(['basics', 'reduce', 'scan', 'rowsum', 'histogram', 'convolution', 'merge', 'topk', 'matmul', 'spmv'])(
    '/lab/%s?mode=projector has no visible text under 28 px, and its stage keeps its labels',
    async (lab) => {
      const { page, errors } = await open(`/lab/${lab}?mode=projector`);
      await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 60_000 });
      await page.waitForTimeout(300);
      const smallest = await smallestVisibleText(page);
      expect(smallest.px, `“${smallest.sample}” is ${smallest.px}px`).toBeGreaterThanOrEqual(28);
      // Labels present: visible text in the stage's picture, drawn as SVG text or as HTML.
      const labels = await page.evaluate(() => {
        const body = document.querySelector('[data-testid=stage-body]')!;
        const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
        let n = 0;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const el = node.parentElement;
          if (!el || !(node.textContent ?? '').trim() || el.closest('.sr-only, button')) continue;
          const r = el.getBoundingClientRect();
          if (r.width > 0 && r.height > 0) n++;
        }
        return n;
      });
      expect(labels, 'labels on the stage').toBeGreaterThan(3);
      expect(errors).toEqual([]);
    },
  );

  it('the measurement finds the small print of normal mode (so it can fail)', async () => {
    const { page } = await open('/lab/reduce?v=neighbored&step=120');
    await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 60_000 });
    expect((await smallestVisibleText(page)).px).toBeLessThan(20);
  });

  it('P toggles projector mode, B blanks the screen and brings it back', async () => {
    const { page, errors } = await open('/lesson/divergence/1');
    await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 60_000 });
    await page.keyboard.press('p');
    await page.waitForFunction(() => document.querySelector('.app')?.classList.contains('mode-projector') && location.search.includes('mode=projector'));
    await page.keyboard.press('b');
    await page.getByTestId('blank-screen').waitFor();
    await page.keyboard.press('b');
    await page.getByTestId('blank-screen').waitFor({ state: 'detached' });
    // The clicker still steps the lesson in projector mode.
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => location.pathname === '/lesson/divergence/2' && location.search.includes('mode=projector'));
    await page.keyboard.press('p');
    await page.waitForFunction(() => !document.querySelector('.app')?.classList.contains('mode-projector'));
    expect(errors).toEqual([]);
  });
});
