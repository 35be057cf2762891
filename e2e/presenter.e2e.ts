import { describe, expect, it } from 'vitest';
import { openPage, screenshot, useBrowser } from './browser.ts';

/**
 * The presenter's preview (issue #24 §2) shows the room's actual stage: the lab laid out as the
 * projector lays it out (1920×1080, projector mode's type and framing), scaled down as one picture,
 * with the step's subject inside it, and large enough to read the picture (not a 240 px thumbnail).
 */
describe('the presenter window previews the wall', () => {
  const browser = useBrowser();

  it('shows the projector-mode stage of this step, with its subject, at a useful size', async () => {
    const { page, errors } = await openPage(browser(), '/lesson/reduction/3?view=presenter');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('presenter').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid=presenter-wall] [data-testid=stage][data-ready=yes]').waitFor({ timeout: 90_000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined)))));
    const seen = await page.evaluate(() => {
      const frame = document.querySelector('[data-testid=presenter-wall]')!;
      const wall = frame.firstElementChild as HTMLElement;
      const f = frame.getBoundingClientRect();
      const subjects = [...frame.querySelectorAll('[data-testid=stage] [data-subject]')].map((s) => s.getBoundingClientRect()).filter((r) => r.width > 0 || r.height > 0);
      const label = frame.querySelector('[data-testid=stage] svg text');
      return {
        frameWidth: f.width,
        wallWidth: wall.offsetWidth,
        wallHeight: wall.offsetHeight,
        labelPx: label ? Number.parseFloat(getComputedStyle(label).fontSize) * ((label as SVGGraphicsElement).getScreenCTM()?.a ?? 1) / (f.width / wall.offsetWidth) : 0,
        subjects: subjects.length,
        subjectsInside: subjects.every((r) => r.left >= f.left - 0.5 && r.right <= f.right + 0.5 && r.top >= f.top - 0.5 && r.bottom <= f.bottom + 0.5),
        pageBackground: getComputedStyle(document.body).backgroundColor,
      };
    });
    await screenshot(page, 'presenter-preview');
    // The wall is laid out at the projector's size and scaled as a whole to the preview's width.
    expect(seen.wallWidth).toBe(1920);
    expect(seen.wallHeight).toBe(1080);
    expect(seen.frameWidth).toBeGreaterThanOrEqual(800);
    // In projector mode: the stage's labels are the wall's 28 px (before the preview scales them).
    expect(seen.labelPx).toBeGreaterThanOrEqual(27.5);
    // The step's subject (lanes 0 and 16 on bank 0) is in the picture.
    expect(seen.subjects).toBeGreaterThan(0);
    expect(seen.subjectsInside).toBe(true);
    // The presenter's own page keeps its colours; only the preview is the black wall.
    expect(seen.pageBackground).not.toBe('rgb(0, 0, 0)');
    expect(errors).toEqual([]);
    await page.close();
  }, 150_000);
});
