import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useAppPage, useBrowser, type Visit } from './browser.ts';
import { LABS } from '../src/labs/all.ts';

const stepOf = async (page: Page): Promise<number> => Number(await page.getByTestId('home-demo-picture').getAttribute('data-step'));

describe('the start page', () => {
  const browser = useBrowser();

  // Each test opens the start page inside one page (useAppPage) as a first visit shows it, at its
  // size and motion preference: what the app stored is forgotten, the start page mounted anew; the
  // app's code and WebGPU device are kept.
  const visit = useAppPage(browser);
  const open = async ({ reducedMotion = 'no-preference', width = 1440, height = 900 }: Visit = {}) => {
    const { page, errors } = await visit('/', { width, height, reducedMotion });
    await page.getByTestId('home-demo-picture').waitFor({ timeout: 60_000 });
    return { page, errors };
  };

  it('opens on a moving picture of a real kernel, above the fold at 1440×900 and 1920×1080', async () => {
    for (const [width, height] of [
      [1440, 900],
      [1920, 1080],
    ] as const) {
      const { page, errors } = await open({ width, height });
      const picture = page.getByTestId('home-demo-picture');
      const box = (await picture.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      // 2 warps of 32 lanes, 64 words of workgroup memory, and the inputs' values in them.
      expect(await picture.locator('[data-warp]').count()).toBe(2);
      expect(await picture.locator('[data-word]').count()).toBe(64);
      // It moves: the step advances by itself.
      const first = await stepOf(page);
      await page.waitForFunction((s) => Number(document.querySelector('[data-testid=home-demo-picture]')?.getAttribute('data-step')) !== s, first, { timeout: 10_000 });
      // Once the load has run, the words hold the inputs' values (before it, WGSL's zeros are not drawn).
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=home-demo-picture] [data-word] text')].filter((t) => /^\d+$/.test(t.textContent ?? '')).length === 64, undefined, { timeout: 15_000 });
      // The caption names the step, the warp and the line, and the code listing marks that line.
      expect(await page.getByTestId('home-demo').locator('figcaption').textContent()).toMatch(/Step \d+ of \d+: warp [01] runs line \d+/);
      expect(await page.locator('.home-demo-code [aria-current=step]').count()).toBeLessThanOrEqual(1);
      expect(errors).toEqual([]);
    }
  }, 120_000);

  it('pauses and plays from its button, by keyboard too', async () => {
    const { page } = await open();
    const button = page.getByTestId('home-demo-play');
    await button.focus();
    await page.keyboard.press('Enter');
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    const paused = await stepOf(page);
    await page.waitForTimeout(800);
    expect(await stepOf(page)).toBe(paused);
    await page.keyboard.press('Space');
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    await page.waitForFunction((s) => Number(document.querySelector('[data-testid=home-demo-picture]')?.getAttribute('data-step')) !== s, paused, { timeout: 10_000 });
  }, 60_000);

  it('under reduced motion shows the finished reduction, still, until asked to play', async () => {
    const { page } = await open({ reducedMotion: 'reduce' });
    const button = page.getByTestId('home-demo-play');
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    const still = await stepOf(page);
    expect(still).toBeGreaterThan(0);
    // The finished reduction: word 0 holds the sum of the 64 inputs (each 1 … 9).
    const sum = Number(await page.locator('[data-word="0"] text').textContent());
    expect(sum).toBeGreaterThanOrEqual(64);
    expect(sum).toBeLessThanOrEqual(576);
    await page.waitForTimeout(800);
    expect(await stepOf(page)).toBe(still);
    await button.click();
    await page.waitForFunction((s) => Number(document.querySelector('[data-testid=home-demo-picture]')?.getAttribute('data-step')) !== s, still, { timeout: 10_000 });
  }, 60_000);

  it('lists every lab in one menu that opens and closes by keyboard and leads to the lab', async () => {
    const { page } = await open();
    const menu = page.getByTestId('labs-menu');
    await menu.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await menu.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    const links = menu.locator('ul a');
    expect(await links.count()).toBe(LABS.length);
    await page.keyboard.press('Escape');
    expect(await menu.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await page.keyboard.press('Enter');
    await menu.getByRole('link', { name: LABS[1]!.title }).click();
    await page.waitForURL(/\/lab\//);
    const after = page.getByTestId('labs-menu');
    expect(await after.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await after.locator('summary').textContent()).toContain(LABS[1]!.title);
  }, 60_000);

  it('"step through it yourself" opens the same kernel in the lab', async () => {
    const { page } = await open();
    await page.getByRole('link', { name: /Step through it yourself/ }).click();
    await page.waitForURL(/\/lab\/reduce\?/);
    expect(page.url()).toMatch(/v=interleaved/);
    expect(page.url()).toMatch(/n=64/);
  }, 60_000);
});
