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
 *   about (it would print their answer);
 * - merge step 7 in projector mode frames the table's global loads its narration names (the stage
 *   framed the merge-path picture's tile), and the picture's labels lie over none of each other
 *   ("B ↓" was drawn over "tile");
 * - a projector lesson's listing shows the current line and its neighbours whole, at 28 px (the
 *   neighbours were cut at about 12 characters).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { editorColumns, LabPageObject } from './pages.ts';
import { overlappingStageLabels } from './stageLabels.ts';

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
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const open = useAppPage(browser);
  /** A lab or lesson page at a screen size (reduced motion), opened in that page, ready: its page, its errors. */
  const openAt = async (width: number, height: number, path: string): Promise<{ page: Page; errors: string[] }> => {
    const { page, errors } = await open(path, { width, height, reducedMotion: 'reduce' });
    await new LabPageObject(page).ready();
    return { page, errors };
  };

  it('the editor’s error tooltip is readable and does not cover the line being edited', async () => {
    const { page } = await open('/lab/reduce?v=neighbored&n=1024&wg=256');
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
    const { page, errors } = await open('/lesson/indexing/2');
    await new LabPageObject(page).ready();
    await page.getByTestId('lesson').waitFor();
    const shown = await page.evaluate(() => document.body.innerText);
    expect(shown).toContain('lane 5 of warp 1');
    expect(shown).not.toMatch(/a\[37\]/);
    expect(errors).toEqual([]);
  }, 120_000);

  it('the matrix-multiply lab, titled for its tiles, opens on a tiled variant', async () => {
    const { page, errors } = await open('/lab/matmul');
    await new LabPageObject(page).ready();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/tiles/i);
    expect(await page.getByTestId('variant-select').inputValue()).toMatch(/tiled/);
    expect(errors).toEqual([]);
  }, 120_000);

  it('top-k’s tree at the last step draws only what is in view, and its values fit their boxes', async () => {
    const { page, errors } = await open('/lab/topk?step=999999');
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

  it('merge step 7 in projector mode frames the table’s global loads its narration names, and the picture’s labels lie over none of each other', async () => {
    const { page, errors } = await openAt(1920, 1080, '/lesson/merge/7?mode=projector');
    // The camera pans once the panel has drawn (at once: reduced motion).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined))))));
    expect(await page.getByTestId('narrative').locator('.look-at').textContent()).toMatch(/global loads/);
    // Invocation 5's global loads (what the question asks for) lie whole inside the stage's frame.
    const seen = await page.evaluate(() => {
      const frame = document.querySelector('[data-testid=stage-body]')!.getBoundingClientRect();
      const row = document.querySelector('[data-testid=merge-table] tr[data-invocation="5"]');
      const heads = [...document.querySelectorAll('[data-testid=merge-table] thead th')].map((th) => th.textContent ?? '');
      const column = heads.findIndex((h) => /global loads/.test(h));
      const cell = row?.children[column];
      const r = cell?.getBoundingClientRect();
      return { column, inside: !!r && r.width > 0 && r.top >= frame.top - 0.5 && r.bottom <= frame.bottom + 0.5 && r.left >= frame.left - 0.5 && r.right <= frame.right + 0.5, marked: cell?.getAttribute('data-subject') ?? null };
    });
    expect(seen.column).toBeGreaterThan(0);
    expect(seen.inside).toBe(true);
    expect(seen.marked).toBe('loads');
    // And with the grid in view (the step before, about the tile), no label lies over another.
    await page.getByTestId('lesson-prev').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === '6');
    await page.getByTestId('merge-grid').waitFor();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined))))));
    expect(await overlappingStageLabels(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 180_000);

  it('in a projector lesson the listing shows the current line and its neighbours whole, at 28 px', async () => {
    const { page, errors } = await openAt(1920, 1080, '/lesson/reduction/3?mode=projector');
    await page.locator('.code-line.current').waitFor();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined)))));
    const lines = await page.evaluate(() => {
      const current = document.querySelector('.code-line.current')!;
      const scroller = current.closest('.code-scroll')!.getBoundingClientRect();
      return [current.previousElementSibling, current, current.nextElementSibling].map((line) => {
        const code = line?.querySelector('code');
        if (!code) return { text: '', whole: false, px: 0 };
        const range = document.createRange();
        range.selectNodeContents(code);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const whole = rects.length > 0 && rects.every((r) => r.left >= scroller.left - 0.5 && r.right <= scroller.right + 0.5 && r.top >= scroller.top - 0.5 && r.bottom <= scroller.bottom + 0.5);
        return { text: (code.textContent ?? '').trim(), whole, px: Number.parseFloat(getComputedStyle(code).fontSize) };
      });
    });
    for (const line of lines) {
      expect(line.text.length, 'a line of code').toBeGreaterThan(0);
      expect(line, `“${line.text}” whole`).toMatchObject({ whole: true });
      expect(line.px).toBeGreaterThanOrEqual(28);
    }
    expect(errors).toEqual([]);
  }, 180_000);

  it('at 1280×720 the stage’s “more” marks lie over none of the stage’s text', async () => {
    const { page } = await openAt(1280, 720, '/lab/matmul');
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
  }, 120_000);

  it('at 1280×720 a lesson’s question box lies over none of its narration', async () => {
    const { page } = await openAt(1280, 720, '/lesson/histogram/6');
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
  }, 120_000);

  it('the matrix-multiply question box does not open on A[3][5], the element the lesson asks about', async () => {
    const { page, errors } = await open('/lesson/matmul/1');
    await new LabPageObject(page).ready();
    const answer = page.getByTestId('matmul-question-answer');
    await answer.waitFor();
    expect(await answer.textContent()).not.toMatch(/A\[3\]\[5\]/);
    expect(await page.getByTestId('lesson').textContent()).toContain('A[3][5]');
    expect(errors).toEqual([]);
  }, 120_000);
  it('in projector mode the lab editor shows its current line whole, its file’s name whole and 28 characters a row; its tools open from the keyboard', async () => {
    const { page, errors } = await openAt(1920, 1080, '/lab/reduce?mode=projector');
    await page.locator('[data-testid=kernel-editor] .cm-current-step').waitFor({ timeout: 30_000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined)))));
    const seen = await page.evaluate(() => {
      const inside = (r: DOMRect, c: DOMRect) => r.left >= c.left - 0.5 && r.right <= c.right + 0.5 && r.top >= c.top - 0.5 && r.bottom <= c.bottom + 0.5;
      const line = document.querySelector('[data-testid=kernel-editor] .cm-current-step')!;
      const range = document.createRange();
      range.selectNodeContents(line);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const scroller = line.closest('.cm-scroller')!.getBoundingClientRect();
      const listing = line.closest('.editor-scroll')!.getBoundingClientRect();
      const name = document.querySelector<HTMLElement>('[data-testid=editor-pane] .file-name')!;
      const tab = name.closest('button')!;
      const pane = document.querySelector('[data-testid=editor-pane]')!.getBoundingClientRect();
      return {
        lineWhole: rects.length > 0 && rects.every((r) => inside(r, scroller) && inside(r, listing)),
        nameShown: (name.textContent ?? '').trim(),
        nameWhole: inside(name.getBoundingClientRect(), tab.getBoundingClientRect()) && inside(tab.getBoundingClientRect(), pane) && tab.scrollWidth <= tab.clientWidth + 1,
      };
    });
    expect(seen.lineWhole).toBe(true);
    expect(seen.nameShown).toMatch(/\.wgsl$/);
    expect(seen.nameWhole).toBe(true);
    const { columns, fontSize } = await editorColumns(page);
    expect(fontSize).toBeGreaterThanOrEqual(28);
    expect(columns).toBeGreaterThanOrEqual(28);
    // The editing tools: one summary the keyboard reaches; Enter opens it, and Run is there.
    const tools = page.getByTestId('editor-tools');
    await tools.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => tools.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('run-edit');
    expect(errors).toEqual([]);
  }, 120_000);

  it('at 1280×720 the lab’s settings and the timeline take one row each, and their folded controls open from the keyboard', async () => {
    const { page, errors } = await openAt(1280, 720, '/lab/histogram');
    /** The distinct rows the visible controls of a bar stand on (their vertical centres, to 8 px). */
    const rows = (selector: string) =>
      page.evaluate((sel) => {
        const bar = document.querySelector(sel)!;
        const centres = [...bar.querySelectorAll<HTMLElement>('h1, button, select, summary, input, label')]
          .filter((el) => el.offsetParent !== null && !el.closest('.more-menu-body'))
          .map((el) => {
            const r = el.getBoundingClientRect();
            return Math.round((r.top + r.bottom) / 2 / 8);
          });
        return new Set(centres).size;
      }, selector);
    expect(await rows('.lab-head')).toBe(1);
    expect(await rows('[data-testid=timeline]')).toBe(1);
    // The stage gets the height the rows gave back (it was about 250 px with two rows each).
    const stage = await page.getByTestId('stage-body').boundingBox();
    expect(stage!.height).toBeGreaterThanOrEqual(330);
    // The settings' summary says what they are set to; the keyboard opens it, reaches a parameter,
    // and Escape closes it with the focus back on the summary.
    const more = page.getByTestId('lab-more');
    expect(await more.locator('summary').textContent()).toMatch(/Settings: .*4,096/);
    await page.getByTestId('variant-select').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=lab-more]') !== null && document.activeElement?.tagName === 'SUMMARY')).toBe(true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SELECT');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=lab-more]') !== null)).toBe(true);
    expect(await page.evaluate(() => { const r = document.activeElement!.getBoundingClientRect(); return r.width > 0 && r.bottom <= innerHeight; })).toBe(true);
    await page.keyboard.press('Escape');
    expect(await more.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
    // The timeline's jumps: Tab reaches "Jump to", Enter opens it, and the next barrier is there.
    const jump = page.getByTestId('timeline-more');
    await page.getByTestId('statement-forward').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=timeline-more]') !== null)).toBe(true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('barrier-forward');
    const before = await page.getByTestId('step-counter').textContent();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('step-counter').textContent()).not.toBe(before);
    await page.keyboard.press('Escape');
    expect(await jump.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(errors).toEqual([]);
  }, 120_000);
  it('in a lesson and in projector mode the timeline is one row, its jumps behind “Jump to”', async () => {
    for (const [width, height, path] of [
      [1440, 900, '/lesson/reduction/4'],
      [1920, 1080, '/lab/matmul?mode=projector'],
    ] as const) {
      const { page, errors } = await openAt(width, height, path);
      const rows = await page.evaluate(() => {
        const bar = document.querySelector('[data-testid=timeline]')!;
        const centres = [...bar.querySelectorAll<HTMLElement>('button, input, summary')]
          .filter((el) => el.offsetParent !== null && !el.closest('.more-menu-body'))
          .map((el) => Math.round((el.getBoundingClientRect().top + el.getBoundingClientRect().bottom) / 2 / 8));
        return new Set(centres).size;
      });
      expect(rows, path).toBe(1);
      const jump = page.getByTestId('timeline-more');
      await jump.locator('summary').focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('next-divergence').waitFor({ state: 'visible' });
      expect(await page.getByTestId('next-divergence').evaluate((b) => { const r = b.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }), path).toBe(true);
      expect(errors).toEqual([]);
    }
  }, 180_000);
  // The longest lesson narrations fit their column whole beside the question and Next, at 1440×900
  // and 1280×720: e2e/lesson-fit.e2e.ts, on the pages it opens at those sizes.
});
