import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useAppPage, useBrowser } from './browser.ts';
import { goToLab, smallestVisibleText, stageLabels } from './pages.ts';

/**
 * The workbench: every lab's default page at 1440×900, at 1280×720 and in projector mode at
 * 1920×1080; in each, the stage is wholly inside the viewport with no page scroll, and it has a
 * picture. In projector mode, also no visible text is under 28 px and the stage's picture keeps its
 * labels (scaled, not stripped). With E2E_SCREENS=1 each is screenshotted into
 * test-results/screens/ (at 1440×900 and in projector mode), and so are the reduction trees (the
 * README's pictures come from the walk, e2e/walk.e2e.ts, not from these).
 */
const SCREENS = process.env.E2E_SCREENS === '1' ? 'test-results/screens' : undefined;
if (SCREENS) mkdirSync(SCREENS, { recursive: true });

const LABS = ['basics', 'reduce', 'scan', 'rowsum', 'histogram', 'convolution', 'merge', 'topk', 'matmul', 'spmv'];

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
  expect.soft(m.pageScroll, `${where}: the page scrolls by ${m.pageScroll}px`).toBeLessThanOrEqual(1);
  expect.soft(m.pageScrollX, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(1);
  expect.soft(m.stage.top, where).toBeGreaterThanOrEqual(0);
  expect.soft(m.stage.left, where).toBeGreaterThanOrEqual(0);
  expect.soft(m.stage.bottom, where).toBeLessThanOrEqual(m.viewport.height + 0.5);
  expect.soft(m.stage.right, where).toBeLessThanOrEqual(m.viewport.width + 0.5);
  expect.soft(m.stage.height, `${where}: the stage is too small`).toBeGreaterThan(m.viewport.height * 0.35);
  expect.soft(m.drawn, `${where}: the stage draws nothing`).toBeGreaterThan(5);
}

describe('the stage', () => {
  const browser = useBrowser();
  // One page for every test (useAppPage): the app is loaded once, and each test opens its path
  // inside it as a first visit shows it, at the size it asks for; each next lab is opened inside
  // the app as its back and forward buttons do (e2e/pages.ts `goToLab`; the lab page is mounted
  // anew for each lab), so the app is not parsed and its GPU device not created again for each lab
  // or size. Each lab's findings are soft: one run lists every lab that fails.
  const open = useAppPage(browser);
  it.each([
    [1440, 900, ''],
    [1280, 720, ''],
    [1920, 1080, 'projector'],
  ] as const)('at %i×%i %s: every lab’s stage fills the first screen; in projector mode no text is under 28 px and the stage keeps its labels', async (w, h, mode) => {
    const { page, errors } = await open('/lessons', { width: w, height: h });
    for (const lab of LABS) {
      await goToLab(page, `/lab/${lab}${mode ? `?mode=${mode}` : ''}`, BASE_URL);
      await stageReady(page);
      if (SCREENS && w !== 1280) await page.screenshot({ path: `${SCREENS}/lab-${lab}-${mode || w}.png` });
      expectStageOnScreen(await measure(page), `${lab} at ${w}×${h} ${mode}`);
      if (mode === 'projector') {
        const smallest = await smallestVisibleText(page);
        expect.soft(smallest.px, `${lab}: “${smallest.sample}” is ${smallest.px}px`).toBeGreaterThanOrEqual(28);
        // Labels present: visible text in the stage's picture, drawn as SVG text or as HTML.
        expect.soft(await stageLabels(page), `${lab}: labels on the stage`).toBeGreaterThan(3);
      }
    }
    expect(errors).toEqual([]);
  }, 600_000);

  // Every lesson step, at 1440×900, 1280×720, projector and in Chinese: e2e/walk.e2e.ts.

  it.each(['neighbored', 'interleaved'])('the %s tree at 256 words shows values and is connected: every node above the leaves has both inputs drawn', async (v) => {
    const { page, errors } = await open(`/lab/reduce?v=${v}&n=1024&wg=256`, { width: 1440, height: 900 });
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
    // Values and indices are written only in the columns that lie whole inside the drawing (ten at this size).
    expect(tree.values.length).toBeGreaterThanOrEqual(10);
    expect(tree.values.every((x) => /^-?\d/.test(x))).toBe(true);
    expect(tree.indices).toBeGreaterThanOrEqual(10);
    expect(tree.levels).toBe(9);
    if (SCREENS) await page.screenshot({ path: `${SCREENS}/tree-${v}-256.png` });
    expect(errors).toEqual([]);
  });

  it('stacks at 1000 px and cuts nothing off at 800 px in embed mode', async () => {
    for (const path of ['/lab/scan', '/lesson/scan/2?embed=1', '/lab/reduce?embed=1']) {
      const { page, errors } = await open(path, { width: 800, height: 700 });
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
      expect(errors, path).toEqual([]);
    }
  });
});
