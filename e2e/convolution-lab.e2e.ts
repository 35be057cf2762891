import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';
import { seriousAxeFindings, walkLesson } from './labAxe.ts';

/** The convolution lab's stage: the input plane with the output tile, halo, ghosts and idle invocations. */
describe('convolution lab', () => {
  const browser = useBrowser();
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const open = useAppPage(browser);

  it('draws the 16 × 16 / 12 × 12 tile with 112 idle invocations, and the cursor reads the trace by keyboard', async () => {
    const { page, errors } = await open('/lab/convolution?v=tiled&w=48&h=48&m=5&t=12');
    await new LabPageObject(page).ready();
    const stage = page.getByTestId('convolution-stage');
    await stage.waitFor();
    expect(await stage.getAttribute('data-idle')).toBe('112');
    expect(await stage.getAttribute('data-outputs')).toBe('144');
    expect(await stage.getAttribute('data-ghosts')).toBe(String(16 * 16 - 14 * 14));
    await new LabPageObject(page).openDrawer('metrics');
    expect(await page.locator('[data-metric="Idle in the compute phase (workgroup 0)"]').first().textContent()).toBe('112 of 256');
    // The cursor starts on (0, 0); two steps up-left reach the corner ghost (−2, −2), loaded by invocation 0.
    await page.getByTestId('convolution-plane').focus();
    expect(await page.getByTestId('convolution-readout').textContent()).toMatch(/Cell \(row 0, column 0\) is in the output tile\..*invocation 34 \(x 2, y 2; warp 1, lane 2\).*Read 9 times/);
    for (const key of ['ArrowUp', 'ArrowUp', 'ArrowLeft', 'ArrowLeft']) await page.keyboard.press(key);
    expect(await page.getByTestId('convolution-readout').textContent()).toMatch(/Cell \(row -2, column -2\) is a ghost cell outside the image\..*invocation 0 /);

    await page.getByTestId('variant-select').selectOption('tiled-vec4');
    await page.waitForFunction(() => document.querySelector('[data-testid=convolution-stage]')?.getAttribute('data-idle') === '0');
    expect(errors).toEqual([]);
  });

  it('fits a mask width and a tile that do not fit, and opens its lesson at the compute phase', async () => {
    const { page, errors } = await open('/lab/convolution?v=tiled&m=7&t=12&w=37&h=29');
    await new LabPageObject(page).ready();
    expect(await page.getByTestId('lab-notices').textContent()).toMatch(/at most 256, so using 10/);
    // A 7 × 7 mask and 10 × 10 outputs: still a 16 × 16 workgroup, of which 256 − 100 = 156 only load.
    await page.waitForFunction(() => document.querySelector('[data-testid=convolution-stage]')?.getAttribute('data-idle') === '156');
    const lesson = await open('/lesson/convolution/4');
    await new LabPageObject(lesson.page).ready();
    expect(await lesson.page.getByTestId('lesson-counter').textContent()).toContain('Step 4 of 6');
    expect(await lesson.page.getByTestId('convolution-stage').getAttribute('data-idle')).toBe('112');
    expect(errors).toEqual([]);
    expect(lesson.errors).toEqual([]);
  });

  it('runs its lesson from the first step to the last, and its stage has no serious axe finding', async () => {
    const { page, errors } = await open('/lesson/convolution/1');
    await new LabPageObject(page).ready();
    expect(await page.getByTestId('lesson-counter').textContent()).toContain('of 6');
    await walkLesson(page, 6);
    expect(new URL(page.url()).pathname).toBe('/lesson/convolution/6');
    await page.getByTestId('convolution-stage').waitFor();
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 240_000);
});
