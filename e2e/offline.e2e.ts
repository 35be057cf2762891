import { readFileSync, writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useBrowser, watchErrors } from './browser.ts';
import { LabPageObject } from './pages.ts';

/** The built service worker that `vite preview` serves (e2e/run.mjs builds into dist/ first). */
const SW_FILE = 'dist/sw.js';
const url = (path: string) => new URL(path, BASE_URL).href;

/** Waits until the stage has drawn its picture from a finished simulation. */
const stageReady = (page: Page) => page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 60_000 });

/** Waits until the service worker has precached the app and controls this page. */
async function installed(page: Page): Promise<void> {
  const state = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return registration?.active?.state === 'activated' && !!navigator.serviceWorker.controller;
    });
  for (let i = 0; i < 240 && !(await state()); i++) await page.waitForTimeout(500);
  expect(await state()).toBe(true);
}

async function newPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  await watchErrors(page, errors);
  return { page, errors };
}

/** Steps the GPU timings down to the smallest sweep (n up to 4096) and runs them: every variant on the GPU, checked. */
async function gpuRun(page: Page): Promise<void> {
  // The timings live in the drawer under the stage.
  await new LabPageObject(page).openDrawer('timings');
  await page.getByTestId('adapter-name').or(page.getByTestId('measure')).first().waitFor();
  await page.getByTestId('timings').locator('select').selectOption('12');
  await page.getByTestId('measure').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=timings]')?.getAttribute('data-state') === 'done', undefined, {
    timeout: 240_000,
    polling: 500,
  });
  expect(await page.locator('[data-testid=agree-cell][data-agree=no]').count()).toBe(0);
  expect(await page.locator('[data-testid=agree-cell]').count()).toBeGreaterThan(0);
}

describe('offline, after one visit', () => {
  const browser = useBrowser();

  it('reloads a lab and opens a lesson with the network cut: simulation and GPU run included', async () => {
    const context = await browser().newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'allow' });
    try {
      const { page, errors } = await newPage(context);
      // One visit: the home page. The service worker precaches everything else.
      await page.goto(url('/lab/basics'));
      await stageReady(page);
      await installed(page);
      // Installable: the manifest names the app and has the icon sizes launchers ask for.
      const manifest = await page.evaluate(async () => {
        const href = document.querySelector('link[rel=manifest]')?.getAttribute('href') ?? '';
        return (await (await fetch(href)).json()) as { name: string; display: string; icons: { sizes: string; purpose?: string }[] };
      });
      expect(manifest.name).toBe('Warpscope');
      expect(manifest.display).toBe('standalone');
      expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
      expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);

      await context.setOffline(true);
      // The network is really gone: what the service worker did not precache fails.
      expect(await page.evaluate(() => fetch(`/not-precached-${Date.now()}.txt`).then((r) => `status ${r.status}`, () => 'failed'))).toBe('failed');

      // The lab reloads: the simulator worker runs, and so do the GPU timings.
      await page.reload();
      await stageReady(page);
      expect(await page.getByTestId('lab').getAttribute('data-variant')).toBeTruthy();
      await gpuRun(page);

      // A lesson never opened before: its page, its lab and the next step's simulation.
      await page.goto(url('/lesson/reduction/1'));
      await stageReady(page);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('PageDown');
      await page.waitForFunction(() => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === '2');
      await stageReady(page);
      // And the lesson reloads too, at the same step, its simulation run again.
      await page.reload();
      await stageReady(page);
      expect(await page.getByTestId('lesson').getAttribute('data-step')).toBe('2');
      expect(await page.getByTestId('update-notice').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 400_000);

  it('announces a new version and reloads only when asked', async () => {
    const original = readFileSync(SW_FILE, 'utf8');
    const context = await browser().newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'allow' });
    try {
      const { page, errors } = await newPage(context);
      await page.goto(url('/lesson/reduction/2'));
      await stageReady(page);
      await installed(page);
      // A new deployment: the served build's service worker gets different bytes (the preview
      // server reads dist/ on every request); put back as it was afterwards.
      writeFileSync(SW_FILE, `${original}\n// e2e: a new version of the service worker\n`);
      await page.evaluate(() => {
        (window as unknown as { marker: string }).marker = 'still this page';
      });
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
      const notice = page.getByTestId('update-notice');
      await notice.waitFor({ timeout: 60_000 });
      expect(await notice.textContent()).toContain('A new version of Warpscope is ready');
      // Nothing reloads on its own: the lesson stays where it was.
      await page.waitForTimeout(2000);
      expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('still this page');
      expect(await page.getByTestId('lesson').getAttribute('data-step')).toBe('2');
      // Reload by keyboard: the new version takes over and the page comes back at the same step.
      await page.getByTestId('update-reload').focus();
      await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
      await stageReady(page);
      expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBeUndefined();
      expect(await page.getByTestId('lesson').getAttribute('data-step')).toBe('2');
      expect(await page.getByTestId('update-notice').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      writeFileSync(SW_FILE, original);
      await context.close();
    }
  }, 300_000);
});
