/**
 * Defects a newcomer's walk found (issue #24 §3), each checked as the learner sees it:
 * - the editor's error tooltip is readable (contrast ≥ 4.5:1 from computed colours) and leaves the
 *   line being edited uncovered;
 * - indexing step 2 does not print its answer (a[37]) beside the question;
 * - the matrix-multiply lab, titled for its tiles, opens on a tiled variant;
 * - top-k's tree at the last step draws the words in view, not all 34 061 writes (what froze the
 *   page), and every value it prints fits its box.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, useBrowser } from './browser.ts';
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
    expect(errors).toEqual([]);
  }, 180_000);
});
