/**
 * The lab by keyboard alone, as a person who uses no mouse meets it (issue #24 §3):
 * - from the top of the page, Tab reaches every control of the stage, the timeline and the
 *   narration, and every region of theirs that scrolls;
 * - the editor is no trap: Tab moves past it until the learner has typed in it (and makes no
 *   draft), indents once they have, and Escape then Tab leaves it for the next control (never back
 *   to the code pane's first tab).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';

const REGIONS = { stage: '[data-testid=stage]', timeline: '[data-testid=timeline]', narration: '[data-testid=side]' } as const;

/** Names every element of the page that a keyboard user must reach in `REGIONS`, by a mark of ours. */
async function controlsToReach(page: Page): Promise<Record<string, string>> {
  return page.evaluate((regions) => {
    const out: Record<string, string> = {};
    let k = 0;
    for (const [region, selector] of Object.entries(regions)) {
      const root = document.querySelector<HTMLElement>(selector);
      if (!root) continue;
      for (const el of [root, ...root.querySelectorAll<HTMLElement>('*')]) {
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
        const control = el.matches('button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea, [role=slider], [role=button]') && el.tabIndex >= 0;
        const scrolls = (/(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1) || (/(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1);
        if (!control && !scrolls) continue;
        el.dataset.kb ??= `kb${k++}`;
        out[el.dataset.kb] = `${region}: ${el.tagName.toLowerCase()} ${el.getAttribute('data-testid') ?? ''} “${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}”${scrolls ? ' (scrolls)' : ''}`;
      }
    }
    return out;
  }, REGIONS);
}

/** What has the focus: our mark, its test id, and whether it is the editor. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      kb: el?.dataset.kb ?? '',
      testid: el?.getAttribute('data-testid') ?? '',
      role: el?.getAttribute('role') ?? '',
      inEditor: !!el?.closest('[data-testid=kernel-editor], .cm-editor'),
      inCodePane: !!el?.closest('[data-testid=editor-pane]'),
    };
  });

const editorText = (page: Page) => page.evaluate(() => [...document.querySelectorAll('[data-testid=kernel-editor] .cm-line')].map((l) => l.textContent ?? '').join('\n'));

describe('the lab by keyboard alone', () => {
  const browser = useBrowser();
  // Both tests open the lab inside one page (useAppPage), as a first visit shows it; each takes
  // the focus off any element before its first Tab, as before.
  const open = useAppPage(browser);

  it('Tab from the top reaches every control of the stage, the timeline and the narration', async () => {
    const { page, errors } = await open('/lab/reduce?v=neighbored');
    await new LabPageObject(page).ready();
    const wanted = await controlsToReach(page);
    expect(Object.keys(wanted).length).toBeGreaterThan(5);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const reached = new Set<string>();
    // Up to 250 Tabs, stopping once every control has had the focus (the rest would only go round again).
    for (let i = 0; i < 250 && Object.keys(wanted).some((kb) => !reached.has(kb)); i++) {
      await page.keyboard.press('Tab');
      const f = await focused(page);
      if (f.kb) reached.add(f.kb);
    }
    // A “more of the picture” button is there only while the stage's view has more beyond that
    // edge, and the view scrolls to each control of the stage that Tab focuses: one whose edge the
    // view has reached by then is gone, and cannot be reached. Every other control must be.
    const gone = await page.evaluate(
      (kbs) => kbs.filter((kb) => !document.querySelector(`[data-kb="${kb}"]`)),
      Object.keys(wanted).filter((kb) => !reached.has(kb)),
    );
    const missed = Object.entries(wanted)
      .filter(([kb, what]) => !reached.has(kb) && !(gone.includes(kb) && / stage-more-(up|down|left|right) /.test(what)))
      .map(([, what]) => what);
    expect(missed).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('the editor is no trap: Tab passes it until the learner types, indents after, and Escape then Tab leaves it', async () => {
    const { page, errors } = await open('/lab/reduce?v=neighbored');
    await new LabPageObject(page).ready();
    const untouched = await page.getByTestId('draft-state').textContent();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // Tab to the editor.
    let reachedEditor = false;
    for (let i = 0; i < 80 && !reachedEditor; i++) {
      await page.keyboard.press('Tab');
      reachedEditor = (await focused(page)).inEditor;
    }
    expect(reachedEditor).toBe(true);
    // Not typed yet: Tab leaves the editor and changes nothing.
    await page.keyboard.press('Tab');
    expect((await focused(page)).inEditor).toBe(false);
    expect(await page.getByTestId('draft-state').textContent()).toBe(untouched);
    expect(await page.getByTestId('reset-edit').isDisabled()).toBe(true);

    // Back in (Shift+Tab), type, then Tab indents.
    await page.keyboard.press('Shift+Tab');
    expect((await focused(page)).inEditor).toBe(true);
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('x');
    await page.keyboard.press('Tab');
    expect((await focused(page)).inEditor).toBe(true);
    expect((await editorText(page)).split('\n')[0]).toMatch(/^\s+x|^x\s+/);

    // Escape then Tab: out of the editor, on to a control after it, not the code pane's tabs.
    await page.keyboard.press('Escape');
    expect((await focused(page)).inEditor).toBe(true);
    await page.keyboard.press('Tab');
    const after = await focused(page);
    expect(after.inEditor).toBe(false);
    expect(after.role).not.toBe('tab');
    expect(errors).toEqual([]);
  });
});
