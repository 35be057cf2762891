import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useAppPage, useBrowser, watchErrors } from './browser.ts';
import { LabPageObject } from './pages.ts';

const url = (path: string) => new URL(path, BASE_URL).href;
const stepOf = (page: Page) => page.evaluate(() => document.querySelector('[data-step]')?.getAttribute('data-step'));

/** Serves every document of the context with `extra` added to its Content-Security-Policy header. */
async function withExtraPolicy(context: BrowserContext, extra: string): Promise<void> {
  await context.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const headers = response.headers();
    headers['content-security-policy'] = [headers['content-security-policy'], extra].filter(Boolean).join(', ');
    await route.fulfill({ response, headers });
  });
}

// The tests that open a page of the app as a first visit shows it open it inside one page
// (useAppPage), console errors recorded: the app's code and WebGPU device are kept, what it stored
// is forgotten. Those that change the context (init scripts, a stricter policy on its documents)
// or need two windows of one context keep loads of their own.
describe('robustness', () => {
  const browser = useBrowser();
  const open = useAppPage(browser, { console: true });

  describe('a panel that throws', () => {
    it('shows its own error box while the other panels and the timeline keep working, and reloads', async () => {
      const { page, errors } = await open('/lab/reduce?step=3');
      const lab = new LabPageObject(page);
      await lab.showStage('warp-grid');
      await lab.openDrawer('metrics');
      await page.getByTestId('metrics').waitFor();
      await page.evaluate(() => window.__warpscope!.failPanel('warp-grid'));
      const box = page.locator('[data-testid=panel-error][data-panel=warp-grid]');
      await box.waitFor();
      expect(await box.textContent()).toContain('The warp grid stopped working');
      expect(await box.textContent()).toContain('The test hook made the panel “warp-grid” throw.');
      expect(await page.getByTestId('warp-grid').count()).toBe(0);
      // The error went to the console with its component stack.
      expect(errors.some((e) => e.includes('the warp grid failed') && e.includes('Component stack'))).toBe(true);
      errors.length = 0;
      // The rest of the page works: header, code pane, timeline by keyboard.
      expect(await page.locator('header.app-header').count()).toBe(1);
      expect(await page.getByTestId('code-position').isVisible()).toBe(true);
      expect(await page.getByTestId('metrics').isVisible()).toBe(true);
      const before = await lab.stepCounter();
      await lab.blur();
      await lab.press('.');
      expect(await lab.stepCounter()).not.toBe(before);
      const stepped = await lab.stepCounter();
      // Reload this panel: it comes back at the step the timeline is on.
      await page.getByTestId('panel-reload').click();
      await page.getByTestId('warp-grid').waitFor();
      expect(await box.count()).toBe(0);
      expect(await lab.stepCounter()).toBe(stepped);
      expect(errors).toEqual([]);
    });
  });

  describe('presenter and audience windows', () => {

    it('settle on the same step after quick PageDowns, with no echo', async () => {
      const context = await browser().newContext({ viewport: { width: 1200, height: 800 } });
      const errors: string[] = [];
      const open = async (path: string) => {
        const page = await context.newPage();
        await watchErrors(page, errors, { console: true });
        await page.addInitScript(() => {
          const w = window as unknown as { pushes: number };
          w.pushes = 0;
          const push = history.pushState.bind(history);
          history.pushState = (...args: Parameters<History['pushState']>) => {
            w.pushes++;
            push(...args);
          };
        });
        await page.goto(url(path));
        return page;
      };
      const presenter = await open('/lesson/reduction/4?view=presenter');
      await presenter.getByTestId('presenter').waitFor();
      const audience = await open('/lesson/reduction/4');
      await audience.getByTestId('lesson').waitFor();
      await presenter.bringToFront();
      for (let i = 0; i < 3; i++) await presenter.keyboard.press('PageDown');
      await presenter.waitForFunction(() => document.querySelector('[data-step]')?.getAttribute('data-step') === '7');
      await audience.waitForFunction(() => document.querySelector('[data-step]')?.getAttribute('data-step') === '7', undefined, { timeout: 20_000 });
      const pushes = () => Promise.all([presenter, audience].map((p) => p.evaluate(() => (window as unknown as { pushes: number }).pushes)));
      const settled = await pushes();
      await presenter.waitForTimeout(3000);
      // Nothing moves any more: still on step 7, and no more history entries.
      expect([await stepOf(presenter), await stepOf(audience)]).toEqual(['7', '7']);
      expect(await pushes()).toEqual(settled);
      expect(Math.max(...settled)).toBeLessThanOrEqual(3);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('ignore hostile and malformed messages, and a burst moves them once', async () => {
      const { page, errors } = await open('/lesson/reduction/1');
      await page.getByTestId('lesson').waitFor();
      for (const n of [2, 3, 4, 5]) {
        await page.getByTestId('lesson-next').click();
        await page.waitForFunction((k) => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === String(k), n);
      }
      const post = (messages: unknown[]) =>
        page.evaluate((list) => {
          const channel = new BroadcastChannel('warpscope.lesson-sync');
          for (const m of list) channel.postMessage(m);
          channel.close();
        }, messages);
      await post([
        { kind: 'at', lesson: 'reduction', step: 2.5 },
        { kind: 'at', lesson: 'reduction', step: 2.5, clock: 99, from: 'evil' },
        { kind: 'at', lesson: 'reduction', step: Number.NaN, clock: 100, from: 'evil' },
        { kind: 'at', lesson: 'reduction', step: 0, clock: 101, from: 'evil' },
        { kind: 'at', lesson: 'reduction', step: 99, clock: 102, from: 'evil' },
        { kind: 'at', lesson: 'reduction', step: '3', clock: 103, from: 'evil' },
        { kind: 'at', lesson: 'reduction', step: 3, clock: 104, from: '<script>' },
        null,
        'at',
      ]);
      await page.waitForTimeout(1000);
      expect(await stepOf(page)).toBe('5');
      // 150 well-formed moves at once: the page follows the newest, once, with no update storm.
      await post(Array.from({ length: 150 }, (_, i) => ({ kind: 'at', lesson: 'reduction', step: (i % 7) + 1, clock: 200 + i, from: 'burst' })));
      await page.waitForFunction(() => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === String((149 % 7) + 1));
      await page.waitForTimeout(1000);
      expect(await stepOf(page)).toBe(String((149 % 7) + 1));
      // What was seen is still recorded, with nothing bad stored.
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('warpscope.progress.v1') ?? '{}') as Record<string, { seen: number[]; last: number }>);
      expect(stored.reduction!.seen).toEqual([1, 2, 3, 4, 5]);
      // A load, not a step inside the app: the lessons' list reads back what was stored.
      await page.goto(url('/lessons'));
      expect(await page.getByTestId('lesson-reduction').getByTestId('lesson-progress').textContent()).toContain('5 of 7 steps seen');
      expect(errors).toEqual([]);
    });
  });

  describe('security policy', () => {

    it('ships a strict CSP with Trusted Types, as header and meta tag, and the labs run under it', async () => {
      const { page, errors } = await open('/lab/scan');
      const header = (await page.request.get(url('/lab/scan'))).headers()['content-security-policy'] ?? '';
      for (const directive of ["default-src 'none'", "script-src 'self'", "worker-src 'self'", "style-src 'self' 'unsafe-inline'", "require-trusted-types-for 'script'", 'trusted-types warpscope-worker'])
        expect(header).toContain(directive);
      expect(await page.locator('meta[http-equiv=Content-Security-Policy]').getAttribute('content')).toBe(header);
      await new LabPageObject(page).ready();
      // Trusted Types are enforced here: a worker from a bare string is refused.
      expect(await page.evaluate(() => {
        try {
          new Worker('/nothing.js').terminate();
          return 'created';
        } catch (e) {
          return (e as Error).name;
        }
      })).toBe('TypeError');
      // Console errors are recorded too (this page is shared with the tests that want them): the
      // refusal just made is the one expected.
      expect(errors.filter((e) => !e.includes('/nothing.js') && !e.includes("requires 'TrustedScriptURL' assignment"))).toEqual([]);
    });

    it('runs the labs when the host enforces Trusted Types', async () => {
      const context = await browser().newContext();
      await withExtraPolicy(context, "require-trusted-types-for 'script'; trusted-types warpscope-worker");
      const page = await context.newPage();
      const errors: string[] = [];
      await watchErrors(page, errors, { console: true });
      await page.goto(url('/lab/reduce'));
      await new LabPageObject(page).ready();
      expect(errors).toEqual([]);
      await context.close();
    });

    it('says what happened and what to do when workers are forbidden', async () => {
      const context = await browser().newContext();
      await withExtraPolicy(context, "worker-src 'none'");
      const page = await context.newPage();
      const errors: string[] = [];
      await watchErrors(page, errors);
      await page.goto(url('/lab/reduce'));
      const alert = page.locator('[role=alert]', { hasText: 'The simulation failed' });
      await alert.waitFor({ timeout: 30_000 });
      const text = (await alert.textContent()) ?? '';
      expect(text).toMatch(/Web Worker could not (be loaded|start)/);
      expect(text).toContain('worker-src');
      expect(text).toContain('Reload the page');
      // The page around it still works.
      expect(await page.locator('header.app-header').count()).toBe(1);
      expect(errors.filter((e) => !/worker-src|CSP violation: worker-src/.test(e))).toEqual([]);
      await context.close();
    });

    it('exposes window.__warpscope only in test builds', async () => {
      // This suite's build is a test build (e2e/run.mjs): the hooks are there.
      const { page } = await open('/');
      expect(await page.evaluate(() => typeof window.__warpscope?.store)).toBe('function');
      // A production build has neither the hooks nor their names. `npm test` makes that build once
      // (E2E_PRODUCTION_DIST, also the one it checks against the size budget); alone, this test
      // makes its own.
      const given = process.env.E2E_PRODUCTION_DIST;
      const out = given ?? mkdtempSync(join(tmpdir(), 'warpscope-prod-'));
      try {
        if (!given) {
          // As `npm run build` makes it (vitest's NODE_ENV=test would give React's development build).
          const build = spawnSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], {
            encoding: 'utf8',
            env: { ...process.env, NODE_ENV: 'production' },
          });
          expect(build.status, build.stderr).toBe(0);
        }
        const js = readdirSync(join(out, 'assets'))
          .filter((f) => f.endsWith('.js'))
          .map((f) => readFileSync(join(out, 'assets', f), 'utf8'))
          .join('\n');
        expect(js.includes('warpscope.lesson-sync'), 'the app is in the bundle').toBe(true);
        expect(js.includes('runWithFiberInDEV should never'), 'React is the production build').toBe(false);
        expect(js.includes('__warpscope'), 'window.__warpscope is set').toBe(false);
        expect(js.includes('made the panel'), 'the panel test hook is there').toBe(false);
      } finally {
        if (!given) rmSync(out, { recursive: true, force: true });
      }
    }, 240_000);
  });
});
