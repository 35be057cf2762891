import { describe, expect, it } from 'vitest';
import { openPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';

/**
 * The timings drawer of the reduction lab, one short sweep (2^10 and 2^12, since the software
 * adapter of CI is slow) checked for everything it shows: the software-adapter note and the recorded
 * H100 ladder, each figure as a share of its baseline, the agreement of GPU and simulator with the
 * CPU, and the chart.
 */
describe('timings view', () => {
  const browser = useBrowser();

  it('shows each figure as a share of its baseline with the spread of the rounds and the dispatches per pass, and every variant agreeing on GPU and simulator', async () => {
    const { page, errors } = await openPage(browser(), '/lab/reduce?v=interleaved&n=1024&wg=256');
    // The timings live in the drawer under the stage.
    await new LabPageObject(page).openDrawer('timings');
    await page.getByTestId('adapter-name').or(page.getByTestId('measure')).first().waitFor();
    // On SwiftShader the panel says plainly that the figures describe the CPU, and shows the project's H100 ladder.
    await page.getByTestId('software-note').waitFor();
    expect(await page.getByTestId('recorded-timings').textContent()).toContain('H100');
    // A short sweep (2^10 and 2^12): the software adapter of CI is slow.
    await page.getByLabel('Largest n').selectOption('12');
    await page.getByTestId('measure').click();
    await page.getByTestId('timings-table').waitFor({ timeout: 120_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=timings]')?.getAttribute('data-state') === 'done', undefined, {
      timeout: 240_000,
      polling: 500,
    });
    const ratios = await page.getByTestId('ratio-cell').allTextContents();
    expect(ratios.length).toBeGreaterThanOrEqual(2 * 8);
    for (const text of ratios) {
      // "12.3 % of read (11.9–12.8 %)": the median of the rounds and the lowest and highest round
      // (a round on a busy machine may read "1,131.6 %", with its thousands grouped).
      const m = /([\d.,]+) % of read \(([\d.,]+)–([\d.,]+) %\)/.exec(text);
      expect(m, text).not.toBeNull();
      const figure = (x: string | undefined): number => Number(x!.replace(/,/g, ''));
      const [median, low, high] = [figure(m![1]), figure(m![2]), figure(m![3])];
      expect(low).toBeLessThanOrEqual(median);
      expect(median).toBeLessThanOrEqual(high);
    }
    // A figure that never settled says so in words, not by colour alone.
    const unsteady = page.locator('[data-testid=ratio-cell][data-steady=no]');
    for (const text of await unsteady.allTextContents()) expect(text).toContain('unsteady');
    for (const d of await page.getByTestId('dispatches-cell').allTextContents()) expect(Number(d)).toBeGreaterThanOrEqual(1);
    const caption = (await page.getByTestId('timings-table').locator('caption').textContent()) ?? '';
    expect(caption).toContain('rounds');
    // Every variant agrees with the CPU on GPU and simulator, except the deliberately racy one.
    expect((await page.getByTestId('agree-cell').allTextContents()).length).toBeGreaterThan(8);
    expect(await page.locator('tr:not([data-racy]) [data-testid=agree-cell][data-agree=no]').count()).toBe(0);
    // No figure reads as zero: sizes and speedups keep their significant digits.
    expect((await page.getByTestId('timings').textContent()) ?? '').not.toMatch(/\b0 MiB|\b0\.0×/);
    expect(await page.getByTestId('timings-table').textContent()).toMatch(/\d+\.\d+/);
    expect(await page.getByTestId('timing-chart').count()).toBe(1);
    expect(errors).toEqual([]);
  }, 360_000);
});
