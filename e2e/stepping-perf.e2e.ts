import { describe, expect, it } from 'vitest';
import { openPage, useBrowser } from './browser.ts';

/**
 * A measurement, not a pass/fail timing: steps the largest workgroup the adapter runs (1024
 * invocations, 32 warps, where it allows them; the page fits the address's 1024 to the adapter's
 * limit, 256 on SwiftShader) and prints the frame intervals and the key-to-screen latency the page
 * achieved while stepping.
 */
describe('stepping the largest workgroup the adapter runs', () => {
  const browser = useBrowser();

  it('reports frame times while stepping', async () => {
    const { page, errors } = await openPage(browser(), '/lab/reduce?v=interleaved&n=1024&wg=1024');
    await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 120_000 });
    await page.getByTestId('stage-tab-warp-grid').click();
    await page.getByTestId('warp-grid').waitFor({ timeout: 120_000 });
    const wg = Number(await page.getByTestId('wg-select').inputValue());
    expect([256, 512, 1024]).toContain(wg);
    const warps = wg / 32;
    expect(await page.getByTestId('warp-summary').textContent()).toMatch(new RegExp(`of ${warps} warps`));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // Record every animation frame while stepping.
    await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __recording: boolean };
      w.__frames = [];
      w.__recording = true;
      const tick = (t: number) => {
        w.__frames.push(t);
        if (w.__recording) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const latencies: number[] = [];
    for (let i = 0; i < 60; i++) {
      const before = await page.getByTestId('step-counter').textContent();
      const t0 = Date.now();
      await page.keyboard.press(i % 10 === 9 ? ']' : '.');
      await page.waitForFunction((b) => document.querySelector('[data-testid=step-counter]')?.textContent !== b, before);
      latencies.push(Date.now() - t0);
    }
    const frames = await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __recording: boolean };
      w.__recording = false;
      return w.__frames;
    });
    const intervals = frames.slice(1).map((t, i) => t - frames[i]!).sort((a, b) => a - b);
    const pick = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `[measure] stepping ${warps} warps × 32 lanes, 60 steps: frame interval median ${pick(intervals, 0.5).toFixed(1)} ms, ` +
        `p95 ${pick(intervals, 0.95).toFixed(1)} ms, max ${Math.max(...intervals).toFixed(1)} ms over ${intervals.length} frames; ` +
        `key-to-screen median ${pick(sorted, 0.5)} ms, p95 ${pick(sorted, 0.95)} ms`,
    );
    expect(intervals.length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  }, 240_000);

  // Key → frame changed on each lab's opening stage at 1440×900: the step counter changes and one
  // animation frame is painted after it (what the learner sees), the median over 30 steps.
  it.each(['reduce', 'histogram', 'matmul', 'scan'])('reports the key-to-frame latency of the %s lab', async (lab) => {
    const { page, errors } = await openPage(browser(), `/lab/${lab}`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 120_000 });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Home');
    const latencies: number[] = [];
    for (let i = 0; i < 30; i++) {
      const before = await page.getByTestId('step-counter').textContent();
      const t0 = Date.now();
      await page.keyboard.press('.');
      await page.waitForFunction((b) => document.querySelector('[data-testid=step-counter]')?.textContent !== b, before);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
      latencies.push(Date.now() - t0);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(`[measure] ${lab} lab at 1440×900, 30 steps: key-to-frame median ${sorted[15]} ms, p90 ${sorted[27]} ms`);
    expect(latencies.length).toBe(30);
    expect(errors).toEqual([]);
  }, 240_000);
});
