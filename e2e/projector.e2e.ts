import { describe, expect, it } from 'vitest';
import { BASE_URL, useBrowser } from './browser.ts';
import { smallestVisibleText } from './pages.ts';

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

  // Every lab's default page in projector mode (no visible text under 28 px, and its stage keeps
  // its labels): e2e/stage.e2e.ts, on the page it opens at 1920×1080 to check the stage's fit.

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
