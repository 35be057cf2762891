import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, useAppPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';

async function lessonStep(page: Page): Promise<number> {
  return Number(await page.getByTestId('lesson').getAttribute('data-step'));
}

/** Waits for the step's simulation, so the check question can be answered. */
async function simulated(page: Page): Promise<void> {
  await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 60_000 });
}

describe('lessons', () => {
  const browser = useBrowser();
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const open = useAppPage(browser);

  it.each(['indexing', 'divergence', 'reduction', 'scan'])('runs the %s lesson from the first step to the last with the clicker keys', async (id) => {
    const { page, errors } = await open(`/lesson/${id}/1`);
    await simulated(page);
    const total = Number(/of (\d+)/.exec((await page.getByTestId('lesson-counter').textContent()) ?? '')?.[1]);
    expect(total).toBeGreaterThan(3);
    for (let n = 1; n < total; n++) {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press(n % 2 ? 'PageDown' : 'ArrowRight');
      await page.waitForFunction((k) => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === String(k), n + 1);
      await simulated(page);
      expect(new URL(page.url()).pathname).toBe(`/lesson/${id}/${n + 1}`);
    }
    expect(await lessonStep(page)).toBe(total);
    // PageUp goes back.
    await page.keyboard.press('PageUp');
    await page.waitForFunction((k) => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === String(k), total - 1);
    expect(errors).toEqual([]);
  }, 240_000);

  it('marks the warps and code lines a step points at', async () => {
    const { page, errors } = await open('/lesson/divergence/2');
    await simulated(page);
    expect(await page.getByTestId('warp-grid').first().getAttribute('data-highlighted-warps')).toBe('0');
    const marked = page.locator('[data-highlighted=yes]');
    expect(await marked.count()).toBe(1);
    expect(await marked.textContent()).toContain('lid % (2u * s) == 0u');
    // Lanes and memory words: lanes 0 and 16 ringed, words 0 and 32 framed, at the 2-way conflict.
    const conflict = await open('/lesson/reduction/3');
    await simulated(conflict.page);
    // The step puts workgroup memory on the stage; the lanes are one tab away, on the warp grid.
    expect(await conflict.page.getByTestId('stage').getAttribute('data-panel')).toBe('shared-memory');
    expect(await conflict.page.locator('g[data-highlighted=yes]').count()).toBe(2);
    await new LabPageObject(conflict.page).showStage('warp-grid');
    expect(await conflict.page.locator('[data-ringed=yes]').count()).toBe(2);
    expect([...errors, ...conflict.errors]).toEqual([]);
  });

  it('a first wrong answer points at the picture without the answer; the second reveals it; the right one is accepted', async () => {
    const { page, errors } = await open('/lesson/divergence/1');
    await simulated(page);
    const check = page.getByTestId('check-answer');
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('[data-testid=check-answer]')?.disabled);
    await page.getByTestId('answer').fill('4');
    await check.click();
    const verdict = page.getByTestId('verdict');
    await verdict.waitFor();
    expect(await verdict.getAttribute('data-ok')).toBe('no');
    // The hint names the picture (the step's lookAt) and does not give the answer (8 warps).
    expect(await verdict.textContent()).toContain('warp grid');
    expect(await verdict.textContent()).not.toMatch(/8/);
    // A second miss reveals the answer and why; so does the button, by keyboard.
    await page.getByTestId('show-answer').waitFor();
    await page.getByTestId('answer').fill('5');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /The answer is 8/.test(document.querySelector('[data-testid=verdict]')?.textContent ?? ''));
    expect(await page.getByTestId('show-answer').count()).toBe(0);
    await page.getByTestId('answer').fill('8');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=verdict]')?.getAttribute('data-ok') === 'yes');
    expect(errors).toEqual([]);
  });

  it('opens a step URL cold, and keeps progress across a reload', async () => {
    const { page, errors } = await openPage(browser(), '/lesson/reduction/3');
    await simulated(page);
    expect(await lessonStep(page)).toBe(3);
    expect(await page.getByTestId('lesson-lab').textContent()).toMatch(/less diverg/i);
    // The moment is the first bank conflict: the strip says so.
    expect(await page.getByTestId('conflict-line').textContent()).toMatch(/2-way bank conflict/);
    await page.goto(new URL('/lessons', page.url()).href);
    const progress = page.getByTestId('lesson-reduction').getByTestId('lesson-progress');
    await progress.waitFor();
    expect(await progress.textContent()).toContain('1 of 7 steps seen; continue at step 3');
    await page.reload();
    await progress.waitFor();
    expect(await progress.textContent()).toContain('continue at step 3');
    expect(errors).toEqual([]);
  });

  it('embed mode shows the lesson with no navigation chrome', async () => {
    const { page, errors } = await open('/lesson/scan/4?embed=1');
    await simulated(page);
    expect(await page.locator('header, nav[aria-label="Lessons and labs"], .lesson-crumb').count()).toBe(0);
    expect(await page.getByTestId('lesson-counter').textContent()).toContain('Step 4 of 8');
    // Stepping keeps the embed flag in the address.
    await page.getByTestId('lesson-next').click();
    await page.waitForFunction(() => location.pathname === '/lesson/scan/5' && location.search.includes('embed=1'));
    expect(errors).toEqual([]);
  });

  it('an unknown lesson or step lands on a sane page', async () => {
    const { page, errors } = await open('/lesson/nope/2');
    await page.getByTestId('lesson-missing').waitFor();
    const second = await open('/lesson/divergence/99');
    await second.page.getByTestId('lesson').waitFor();
    expect(await second.page.getByTestId('lesson-counter').textContent()).toContain('Step 5 of 5');
    expect([...errors, ...second.errors]).toEqual([]);
  });
});

describe('presenter and audience windows', () => {
  const browser = useBrowser();

  it('stay on the same step whichever one steps', async () => {
    const context = await browser().newContext({ viewport: { width: 1400, height: 900 } });
    const base = new URL('/', process.env.E2E_BASE_URL ?? 'http://127.0.0.1:4173').href;
    const audience = await context.newPage();
    const errors: string[] = [];
    audience.on('pageerror', (e) => errors.push(e.message));
    await audience.goto(new URL('/lesson/reduction/2?mode=projector', base).href);
    await simulated(audience);
    const presenter = await context.newPage();
    presenter.on('pageerror', (e) => errors.push(e.message));
    await presenter.goto(new URL('/lesson/reduction/1?view=presenter', base).href);
    // The presenter opened on step 1 but joins the audience on step 2.
    await presenter.waitForFunction(() => document.querySelector('[data-testid=presenter]')?.getAttribute('data-step') === '2');
    expect(await presenter.getByTestId('up-next').textContent()).toContain('Less divergence, but bank conflicts');
    // The presenter steps: the audience follows.
    await presenter.getByTestId('lesson-next').click();
    await audience.waitForFunction(() => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === '3');
    // The audience steps (the clicker on the projected window): the presenter follows.
    await audience.bringToFront();
    await audience.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await audience.keyboard.press('PageDown');
    await presenter.waitForFunction(() => document.querySelector('[data-testid=presenter]')?.getAttribute('data-step') === '4');
    expect(new URL(audience.url()).search).toContain('mode=projector');
    expect(errors).toEqual([]);
    await context.close();
  });
});
