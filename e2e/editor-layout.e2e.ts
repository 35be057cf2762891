import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, useAppPage, useBrowser } from './browser.ts';
import { editorColumns } from './pages.ts';

/**
 * The lab editor's code column at the sizes people use: 1440×900 and 1920×1080 (with E2E_SCREENS=1,
 * screenshots in test-results/screens/editor-*.png), and in projector mode. Code lines are not broken over
 * several rows (a long line scrolls sideways), and the column shows a line of code whole. In
 * projector mode (28 px type) long lines wrap, so nothing needs scrolling sideways in front of a class.
 */

/** Rows each line of the editor takes, the characters a row of the column shows, and the text size. */
function measure(page: Page) {
  return page.evaluate(() => {
    const content = document.querySelector('[data-testid=kernel-editor]')!;
    const lines = [...content.querySelectorAll<HTMLElement>('.cm-line')];
    const rowHeight = Math.min(...lines.map((l) => l.getBoundingClientRect().height).filter((h) => h > 0));
    const wrapped = lines.filter((l) => l.getBoundingClientRect().height > rowHeight * 1.5).length;
    return { lines: lines.length, wrapped, pageScrollX: document.scrollingElement!.scrollWidth - innerWidth };
  });
}

describe('the editor’s code column', () => {
  const browser = useBrowser();
  // Each size opens the lab inside one page (useAppPage), sized before the lab mounts.
  const open = useAppPage(browser);

  it.each([
    // Measured (Chromium's default monospace here): 39 characters a row at 1440 px with the code
    // column at 35 % of the width; before, a longer line wrapped over two or three rows.
    [1440, 900, '', 38],
    [1920, 1080, '', 56],
    [1920, 1080, '&mode=projector', 0],
  ])('at %i×%i%s: lines as written, at least %i characters a row', async (width, height, mode, columns) => {
    const { page, errors } = await open(`/lab/reduce?v=neighbored&n=1024&wg=256&step=0${mode}`, { width, height });
    await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 90_000 });
    await page.getByTestId('kernel-editor').waitFor();
    await page.waitForTimeout(150);
    await screenshot(page, `editor-${width}${mode ? '-projector' : ''}`);
    const m = { ...(await measure(page)), ...(await editorColumns(page)) };
    // CodeMirror draws the lines in view (and a margin): at 28 px only a few.
    expect(m.lines).toBeGreaterThan(mode ? 0 : 20);
    if (mode) expect(m.fontSize).toBeGreaterThanOrEqual(28);
    else expect(m.wrapped, `${m.wrapped} of ${m.lines} lines take more than one row`).toBe(0);
    expect(m.columns).toBeGreaterThanOrEqual(columns);
    expect(m.pageScrollX).toBeLessThanOrEqual(1);
    expect(errors).toEqual([]);
  });
});
