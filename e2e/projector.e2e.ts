import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { smallestVisibleText } from './pages.ts';

describe('projector mode at 1920×1080', () => {
  const browser = useBrowser();

  // Each test opens its page inside one page at 1920×1080 (useAppPage), as a first visit shows it;
  // projector mode comes from the address, which the app reads on every page it opens.
  const visit = useAppPage(browser);
  const open = (path: string) => visit(path, { width: 1920, height: 1080 });

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

  // The stage's tab row: every tab wholly in view (not under the "Full screen" button, not scrolled
  // out of its row), and a click at its middle selects it.
  it.each(['reduce', 'scan', 'matmul', 'histogram', 'basics'])('/lab/%s?mode=projector shows every stage tab whole, and each one is chosen by a click', async (lab) => {
    const { page, errors } = await open(`/lab/${lab}?mode=projector`);
    await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 90_000 });
    const tabs = await page.locator('[data-testid=stage] [role=tab]').evaluateAll((els) => els.map((el) => el.getAttribute('data-stage-tab') ?? ''));
    expect(tabs.length).toBeGreaterThan(0);
    for (const id of tabs) {
      const hidden = await page.getByTestId(`stage-tab-${id}`).evaluate((tab) => {
        const r = tab.getBoundingClientRect();
        if (r.width === 0 || r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight) return `outside the window (${Math.round(r.left)}–${Math.round(r.right)})`;
        for (let a = tab.parentElement; a; a = a.parentElement) {
          const c = a.getBoundingClientRect();
          const cs = getComputedStyle(a);
          if ((cs.overflowX !== 'visible' && (r.left < c.left - 0.5 || r.right > c.right + 0.5)) || (cs.overflowY !== 'visible' && (r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5))) return `cut by ${a.className}`;
        }
        // Its ends and middle are the topmost thing there: no button lies over it.
        for (const x of [r.left + 3, (r.left + r.right) / 2, r.right - 3]) {
          const top = document.elementFromPoint(x, (r.top + r.bottom) / 2);
          if (!top || !tab.contains(top)) return `covered by ${top?.textContent?.trim() ?? 'nothing'} at x ${Math.round(x)}`;
        }
        return undefined;
      });
      expect(hidden, `the “${id}” tab`).toBeUndefined();
      const box = (await page.getByTestId(`stage-tab-${id}`).boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForFunction((t) => document.querySelector(`[data-testid=stage-tab-${t}]`)?.getAttribute('aria-selected') === 'true', id);
    }
    expect(errors).toEqual([]);
  }, 180_000);

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
