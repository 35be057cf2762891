import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';

/** The lab editor driven as a person would: click into it, select all, type. */
class EditorLab extends LabPageObject {
  editor() {
    return this.page.getByTestId('kernel-editor');
  }
  async source(): Promise<string> {
    return this.page.evaluate(() => [...document.querySelectorAll('[data-testid=kernel-editor] .cm-line')].map((l) => l.textContent ?? '').join('\n'));
  }
  async replaceAll(text: string): Promise<void> {
    await this.editor().click();
    await this.page.keyboard.press('Control+a');
    await this.page.keyboard.insertText(text);
  }
  async run(): Promise<void> {
    await this.editor().click();
    await this.page.keyboard.press('Control+Enter');
  }
  async checked(): Promise<void> {
    await this.page.getByTestId('editor-check').waitFor({ timeout: 90_000 });
  }
  /** The text of the editor line carrying an error mark of the given kind, if any. */
  async markedLines(): Promise<string[]> {
    return this.page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=kernel-editor] .cm-line')].filter((l) => l.querySelector('.cm-lintRange-error')).map((l) => l.textContent ?? ''),
    );
  }
  async treeStride(): Promise<string> {
    return (await this.page.getByTestId('dataflow-tree').first().getAttribute('data-stride')) ?? '';
  }
}

/** The kernel as the editor opens it (its file), read here rather than from the editor's rendered lines. */
const original = (_page: Page): Promise<string> =>
  Promise.resolve( readFileSync(new URL('../shaders/reduce/neighbored.wgsl', import.meta.url), 'utf8'));

describe('lab editor', () => {
  const browser = useBrowser();

  it('an edit turning the neighbored tree interleaved replays as the interleaved tree and both executors match the reference', async () => {
    const { page, errors } = await openPage(browser(), '/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const src = await original(page);
    const edited = src
      .replace('for (var s = 1u; s < WORKGROUP_SIZE; s *= 2u) {', 'for (var s = WORKGROUP_SIZE / 2u; s > 0u; s >>= 1u) {')
      .replace('if (lid % (2u * s) == 0u) {', 'if (lid < s) {');
    expect(edited).not.toBe(src);
    await lab.replaceAll(edited);
    await lab.run();
    await lab.checked();
    await page.waitForFunction(() => document.querySelector('[data-testid=check-gpu]')?.getAttribute('data-ok') === 'yes', undefined, { timeout: 60_000 });
    expect(await page.getByTestId('check-sim').getAttribute('data-ok')).toBe('yes');
    // The first tree level of the interleaved shape writes neighbouring words (stride 1).
    await lab.blur();
    await page.keyboard.press('Home');
    for (let i = 0; i < 5 && (await lab.treeStride()) === ''; i++) await lab.press(']');
    expect(await lab.treeStride()).toBe('1');
    expect(await page.getByTestId('draft-state').textContent()).toContain('Edited');
    expect(errors).toEqual([]);
  }, 240_000);

  it('deleting the loop barrier is marked as a race on its line and the result is not guaranteed', async () => {
    const { page } = await openPage(browser(), '/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const src = await original(page);
    const at = src.indexOf('workgroupBarrier();', src.indexOf('for (var s'));
    await lab.replaceAll(src.slice(0, at) + src.slice(at + 'workgroupBarrier();'.length));
    await lab.run();
    await lab.checked();
    await page.getByTestId('not-guaranteed').or(page.getByTestId('mismatches')).first().waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=kernel-editor] .cm-lintRange-error') !== null, undefined, { timeout: 30_000 });
    const marked = await lab.markedLines();
    expect(marked.some((l) => l.includes('sdata[lid] += sdata[lid + s]'))).toBe(true);
  }, 240_000);

  it('a syntax error is underlined at its line and column and the last good trace stays', async () => {
    const { page } = await openPage(browser(), '/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const src = await original(page);
    await lab.replaceAll(src.replace('let i = base + lid;', 'let i = base + ;'));
    await page.waitForFunction(() => document.querySelector('[data-testid=kernel-editor] .cm-lintRange-error') !== null, undefined, { timeout: 10_000 });
    expect((await lab.markedLines()).some((l) => l.includes('let i = base + ;'))).toBe(true);
    await lab.run();
    const message = await page.getByTestId('editor-message').textContent();
    const line = src.split('\n').findIndex((l) => l.includes('let i = base + lid;')) + 1;
    expect(message).toContain(`line ${line}, column`);
    expect(await page.getByTestId('warp-grid').count()).toBeGreaterThan(0);
  }, 120_000);

  it('loop {} ends with a step-limit message and the page stays responsive', async () => {
    const { page } = await openPage(browser(), '/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const src = await original(page);
    await lab.replaceAll(src.replace('sdata[lid] = v;', 'sdata[lid] = v;\n  loop {}'));
    // A frame probe: the longest gap between animation frames while the edit runs.
    await page.evaluate(() => {
      const w = window as unknown as { __gap: number; __probe: boolean };
      w.__gap = 0;
      w.__probe = true;
      let last = performance.now();
      const tick = (t: number) => {
        w.__gap = Math.max(w.__gap, t - last);
        last = t;
        if (w.__probe) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await lab.run();
    await lab.checked();
    await page.waitForFunction(() => document.querySelector('[data-testid=check-sim]')?.textContent?.includes('Stopped after'), undefined, { timeout: 90_000 });
    const gap = await page.evaluate(() => {
      const w = window as unknown as { __gap: number; __probe: boolean };
      w.__probe = false;
      return w.__gap;
    });
    expect(gap).toBeLessThan(100);
  }, 240_000);

  it('a share link opens the draft in a fresh context', async () => {
    const { page } = await openPage(browser(), '/lab/reduce?v=neighbored&n=1024&wg=256');
    const lab = new EditorLab(page);
    await lab.ready();
    await lab.editor().waitFor();
    const src = await original(page);
    await lab.replaceAll(src.replace('var v = T(0);', 'var v = T(0); // shared with the class'));
    await page.getByTestId('share-edit').click();
    const url = await page.getByTestId('share-message').getAttribute('data-url');
    expect(url).toContain('#draft=neighbored~');
    const ctx = await browser().newContext();
    const fresh = await ctx.newPage();
    await fresh.goto(url!);
    const other = new EditorLab(fresh);
    await other.ready();
    await other.editor().waitFor();
    await fresh.waitForFunction(() => document.querySelector('[data-testid=kernel-editor]')?.textContent?.includes('// shared with the class'), undefined, { timeout: 30_000 });
    expect(await fresh.getByTestId('draft-state').textContent()).toContain('Edited');
    await ctx.close();
  }, 180_000);
});
