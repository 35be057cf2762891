/**
 * Defects a newcomer's walk found (issue #24 §3), each checked as the learner sees it:
 * - the editor's error tooltip is readable (contrast ≥ 4.5:1 from computed colours) and leaves the
 *   line being edited uncovered;
 * - indexing step 2 does not print its answer (a[37]) beside the question;
 * - the matrix-multiply lab, titled for its tiles, opens on a tiled variant;
 * - top-k's tree at the last step draws the words in view, not all 34 061 writes (what froze the
 *   page), every value it prints fits its box, and its trees are named in a learner's words
 *   ("Round 3 of 33"), not "Tree 3";
 * - at 1280×720 the stage's "more" marks lie over none of the stage's text, and a lesson's question
 *   box lies over none of its narration;
 * - the matrix-multiply question box does not open on A[3][5], the element lesson steps 1 and 3 ask
 *   about (it would print their answer).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BASE_URL, openPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';

/** WCAG contrast ratio of two `rgb()`/`rgba()` colours (alpha ignored: the tooltip's box is opaque). */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The first opaque background behind `el`, walking up. */
const opaqueBackground = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    for (let el: Element | null = document.querySelector(sel); el; el = el.parentElement) {
      const bg = getComputedStyle(el).backgroundColor;
      if (!/rgba\(.*,\s*0\)$/.test(bg) && bg !== 'transparent') return bg;
    }
    return 'rgb(255, 255, 255)';
  }, selector);

describe('defects of the walk', () => {
  const browser = useBrowser();

  it('the editor’s error tooltip is readable and does not cover the line being edited', async () => {
    const { page } = await openPage(browser(), '/lab/reduce?v=neighbored&n=1024&wg=256');
    await new LabPageObject(page).ready();
    const editor = page.getByTestId('kernel-editor');
    await editor.focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('let broken = ;');
    const range = page.locator('[data-testid=kernel-editor] .cm-lintRange-error').first();
    await range.waitFor({ timeout: 30_000 });
    await range.hover();
    const tooltip = page.locator('.cm-tooltip-lint, .cm-tooltip-hover').first();
    await tooltip.waitFor({ timeout: 10_000 });
    const text = page.locator('.cm-diagnostic').first();
    const color = await text.evaluate((el) => getComputedStyle(el).color);
    const background = await opaqueBackground(page, '.cm-diagnostic');
    expect(contrast(color, background), `${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
    const line = await page.locator('[data-testid=kernel-editor] .cm-line', { hasText: 'let broken = ;' }).boundingBox();
    const tip = await tooltip.boundingBox();
    expect(line && tip).toBeTruthy();
    const overlaps = tip!.y < line!.y + line!.height && tip!.y + tip!.height > line!.y;
    expect(overlaps, `tooltip ${JSON.stringify(tip)} over line ${JSON.stringify(line)}`).toBe(false);
  }, 120_000);

  it('indexing step 2 asks which element lane 5 of warp 1 reads without printing it on the page', async () => {
    const { page, errors } = await openPage(browser(), '/lesson/indexing/2');
    await new LabPageObject(page).ready();
    await page.getByTestId('lesson').waitFor();
    const shown = await page.evaluate(() => document.body.innerText);
    expect(shown).toContain('lane 5 of warp 1');
    expect(shown).not.toMatch(/a\[37\]/);
    expect(errors).toEqual([]);
  }, 120_000);

  it('the matrix-multiply lab, titled for its tiles, opens on a tiled variant', async () => {
    const { page, errors } = await openPage(browser(), '/lab/matmul');
    await new LabPageObject(page).ready();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/tiles/i);
    expect(await page.getByTestId('variant-select').inputValue()).toMatch(/tiled/);
    expect(errors).toEqual([]);
  }, 120_000);

  it('top-k’s tree at the last step draws only what is in view, and its values fit their boxes', async () => {
    const { page, errors } = await openPage(browser(), '/lab/topk?step=999999');
    const lab = new LabPageObject(page);
    await lab.showStage('dataflow');
    await page.getByTestId('dataflow-tree').locator('.tree-node').first().waitFor({ timeout: 60_000 });
    const drawn = await page.locator('[data-testid=dataflow-tree] .tree-node').count();
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(2000);
    const overflowing = await page.evaluate(() =>
      [...document.querySelectorAll<SVGTextElement>('[data-testid=dataflow-tree] .node-value')].filter((text) => {
        const chip = text.previousElementSibling as SVGRectElement | null;
        return !chip || text.getBBox().width > chip.getBBox().width + 0.5;
      }).length,
    );
    expect(overflowing).toBe(0);
    const titles = await page.locator('[data-testid=dataflow-tree] .part-title').allTextContents();
    expect(titles.length).toBeGreaterThan(2);
    for (const title of titles) expect(title).toMatch(/^Round \d+ of \d+$/);
    expect(errors).toEqual([]);
  }, 180_000);

  it('at 1280×720 the stage’s “more” marks lie over none of the stage’s text', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(new URL('/lab/matmul', BASE_URL).href);
    await new LabPageObject(page).ready();
    await page.locator('.stage-more').first().waitFor({ timeout: 30_000 });
    const covered = await page.evaluate(() => {
      const body = document.querySelector('[data-testid=stage-body]')!;
      const frame = body.getBoundingClientRect();
      const found: string[] = [];
      const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
      const texts: { text: string; rect: DOMRect }[] = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if ((n.textContent ?? '').trim() === '' || n.parentElement?.closest('.sr-only, .stage-more')) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) {
          // The part of the text drawn inside the frame.
          const rect = new DOMRect(Math.max(r.left, frame.left), Math.max(r.top, frame.top), Math.min(r.right, frame.right) - Math.max(r.left, frame.left), Math.min(r.bottom, frame.bottom) - Math.max(r.top, frame.top));
          if (rect.width > 0.5 && rect.height > 0.5) texts.push({ text: n.textContent!.trim(), rect });
        }
      }
      for (const pill of document.querySelectorAll('.stage-more')) {
        const p = pill.getBoundingClientRect();
        for (const { text, rect } of texts) {
          if (rect.left < p.right && p.left < rect.right && rect.top < p.bottom && p.top < rect.bottom) found.push(`${pill.textContent} over “${text.slice(0, 30)}”`);
        }
      }
      return found;
    });
    expect(covered).toEqual([]);
    await context.close();
  }, 120_000);

  it('at 1280×720 a lesson’s question box lies over none of its narration', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(new URL('/lesson/histogram/6', BASE_URL).href);
    await new LabPageObject(page).ready();
    await page.getByTestId('question').waitFor();
    // Every line of the narration drawn inside its column is the topmost thing where it is drawn.
    const covered = await page.evaluate(() => {
      const narration = document.querySelector('[data-testid=narrative]')!;
      const side = document.querySelector('[data-testid=side]')!.getBoundingClientRect();
      const own = narration.getBoundingClientRect();
      const found: string[] = [];
      const range = document.createRange();
      range.selectNodeContents(narration);
      for (const r of range.getClientRects()) {
        const y = r.top + r.height / 2;
        // Lines scrolled out of the narration's own box are not drawn.
        if (r.width === 0 || y < Math.max(side.top, own.top) || y > Math.min(side.bottom, own.bottom)) continue;
        const top = document.elementFromPoint(r.left + 4, y);
        if (top && !narration.contains(top)) found.push(`${top.tagName.toLowerCase()}.${top.className} over the line at y=${Math.round(y)}`);
      }
      return found;
    });
    expect(covered).toEqual([]);
    await context.close();
  }, 120_000);

  it('the matrix-multiply question box does not open on A[3][5], the element the lesson asks about', async () => {
    const { page, errors } = await openPage(browser(), '/lesson/matmul/1');
    await new LabPageObject(page).ready();
    const answer = page.getByTestId('matmul-question-answer');
    await answer.waitFor();
    expect(await answer.textContent()).not.toMatch(/A\[3\]\[5\]/);
    expect(await page.getByTestId('lesson').textContent()).toContain('A[3][5]');
    expect(errors).toEqual([]);
  }, 120_000);
});
