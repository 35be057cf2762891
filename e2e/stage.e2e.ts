import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useBrowser, watchErrors } from './browser.ts';

/**
 * The workbench: every lab's default page and every lesson step, screenshotted at 1440×900 and in
 * projector mode at 1920×1080 into test-results/screens/; in each, the stage is wholly inside the
 * viewport with no page scroll, and it has a picture. Lesson steps: what the step highlights on
 * the stage is inside the viewport.
 */
const SCREENS = 'test-results/screens';
mkdirSync(SCREENS, { recursive: true });

const LABS = ['basics', 'reduce', 'scan', 'rowsum', 'histogram', 'convolution', 'merge', 'topk', 'matmul', 'spmv'];

async function open(browser: Browser, path: string, width: number, height: number): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors: string[] = [];
  await watchErrors(page, errors);
  await page.goto(new URL(path, BASE_URL).href);
  return { page, errors };
}

async function stageReady(page: Page): Promise<void> {
  await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 90_000 });
  await page.waitForTimeout(150); // one frame for d3 and the highlight scroll
}

/** Where the stage is, whether the page scrolls, and how much the stage draws. */
function measure(page: Page) {
  return page.evaluate(() => {
    const stage = document.querySelector('[data-testid=stage]')!.getBoundingClientRect();
    const body = document.querySelector('[data-testid=stage-body]')!;
    let drawn = 0;
    // Figures in a definition list (a stage's counts read from the trace) are content too.
    for (const el of body.querySelectorAll('circle, rect, line, path, td, th, polygon, text, li, dd, canvas, [class*=cell], [class*=lane], [class*=queue]')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 || r.height > 0) drawn++;
    }
    const marks = [...document.querySelectorAll('[data-testid=stage] :is(.warp-highlight, .lane-ring, .word-highlighted)')].map((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    });
    return {
      stage: { top: stage.top, bottom: stage.bottom, left: stage.left, right: stage.right, height: stage.height },
      viewport: { width: innerWidth, height: innerHeight },
      pageScroll: document.scrollingElement!.scrollHeight - innerHeight,
      pageScrollX: document.scrollingElement!.scrollWidth - innerWidth,
      drawn,
      marks,
    };
  });
}

type Measure = Awaited<ReturnType<typeof measure>>;

function expectStageOnScreen(m: Measure, where: string) {
  expect(m.pageScroll, `${where}: the page scrolls by ${m.pageScroll}px`).toBeLessThanOrEqual(1);
  expect(m.pageScrollX, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(1);
  expect(m.stage.top, where).toBeGreaterThanOrEqual(0);
  expect(m.stage.left, where).toBeGreaterThanOrEqual(0);
  expect(m.stage.bottom, where).toBeLessThanOrEqual(m.viewport.height + 0.5);
  expect(m.stage.right, where).toBeLessThanOrEqual(m.viewport.width + 0.5);
  expect(m.stage.height, `${where}: the stage is too small`).toBeGreaterThan(m.viewport.height * 0.35);
  expect(m.drawn, `${where}: the stage draws nothing`).toBeGreaterThan(5);
}

describe('the stage', () => {
  const browser = useBrowser();

  it.each(LABS)('lab %s: the stage fills the first screen at 1440×900, 1280×720 and 1920×1080 (projector)', async (lab) => {
    for (const [w, h, mode] of [
      [1440, 900, ''],
      [1280, 720, ''],
      [1920, 1080, 'projector'],
    ] as const) {
      const { page, errors } = await open(browser(), `/lab/${lab}${mode ? `?mode=${mode}` : ''}`, w, h);
      await stageReady(page);
      if (w !== 1280) await page.screenshot({ path: `${SCREENS}/lab-${lab}-${mode || w}.png` });
      expectStageOnScreen(await measure(page), `${lab} at ${w}×${h} ${mode}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  // Every lesson step, at 1440×900, 1280×720, projector and in Chinese: e2e/walk.e2e.ts.

  it.each(['neighbored', 'interleaved'])('the %s tree at 256 words shows values and is connected: every node above the leaves has both inputs drawn', async (v) => {
    const { page, errors } = await open(browser(), `/lab/reduce?v=${v}&n=1024&wg=256`, 1440, 900);
    await stageReady(page);
    expect(await page.locator('[data-testid=stage]').getAttribute('data-panel')).toBe('dataflow');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('End');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=dataflow-tree]')?.getAttribute('data-level')) >= 8);
    const tree = await page.evaluate(() => {
      const svg = document.querySelector('[data-testid=tree-svg]')!;
      const nodes = [...svg.querySelectorAll('g.tree-node')];
      const inner = nodes.filter((n) => Number(n.getAttribute('data-level')) > 0);
      const edgesTo = new Map<string, number>();
      for (const e of svg.querySelectorAll('line.edge')) edgesTo.set(e.getAttribute('data-to')!, (edgesTo.get(e.getAttribute('data-to')!) ?? 0) + 1);
      return {
        nodes: nodes.length,
        inner: inner.length,
        missing: inner.filter((n) => edgesTo.get(n.getAttribute('data-node')!) !== 2).length,
        values: [...svg.querySelectorAll('.node-value')].map((x) => x.textContent ?? ''),
        indices: svg.querySelectorAll('.word-index').length,
        levels: svg.querySelectorAll('.level-label').length,
      };
    });
    expect(tree.nodes).toBe(256 + 255);
    expect(tree.inner).toBe(255);
    expect(tree.missing).toBe(0);
    expect(tree.values.length).toBeGreaterThan(10);
    expect(tree.values.every((x) => /^-?\d/.test(x))).toBe(true);
    expect(tree.indices).toBeGreaterThan(10);
    expect(tree.levels).toBe(9);
    await page.screenshot({ path: `${SCREENS}/tree-${v}-256.png` });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('stacks at 1000 px and cuts nothing off at 800 px in embed mode', async () => {
    for (const path of ['/lab/scan', '/lesson/scan/2?embed=1', '/lab/reduce?embed=1']) {
      const { page } = await open(browser(), path, 800, 700);
      await stageReady(page);
      const cut = await page.evaluate(() => {
        const out: string[] = [];
        for (const el of document.querySelectorAll('main *')) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.right <= innerWidth + 0.5) continue;
          // Content inside a scrolling container is reachable, not cut off.
          let scroller = el.parentElement;
          while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
          if (!scroller || scroller === document.body || scroller === document.documentElement) out.push(`${el.tagName}.${el.getAttribute('class') ?? ''} ends at ${Math.round(r.right)}`);
        }
        return out.slice(0, 5);
      });
      expect(cut, path).toEqual([]);
      // Stacked, the stage comes first and the page stays at its top: nothing scrolls it to the code.
      const order = await page.evaluate(() => ({
        scrollY: window.scrollY,
        stage: document.querySelector('[data-testid=stage]')!.getBoundingClientRect().top,
        code: document.querySelector('.wb-code')!.getBoundingClientRect().top,
      }));
      expect(order.scrollY, `${path}: the page scrolled itself`).toBe(0);
      expect(order.stage, `${path}: the code comes before the stage`).toBeLessThan(order.code);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - innerWidth), path).toBeLessThanOrEqual(1);
      await page.context().close();
    }
  });
});
