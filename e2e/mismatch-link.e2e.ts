/**
 * The mismatch table's "Last written" column: a draft of matmul that writes a wrong C[0][0]
 * lists element 0, and its row links to the step of the traced workgroup that wrote it; the link
 * takes the timeline there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';

const naive = readFileSync(new URL('../shaders/matmul/naive.wgsl', import.meta.url), 'utf8');

describe('mismatch table', () => {
  const browser = useBrowser();

  it('links a wrong C[0][0] to the step that wrote it, and the link seeks there', async () => {
    const { page, errors } = await openPage(browser(), '/lab/matmul?v=naive');
    const lab = new LabPageObject(page);
    await lab.ready();
    const editor = page.getByTestId('kernel-editor');
    await editor.waitFor();
    const wrong = naive.replace('c[row * params.n + col] = acc;', 'c[row * params.n + col] = acc + 1.0;');
    expect(wrong).not.toBe(naive);
    await editor.focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(wrong);
    await page.keyboard.press('Control+Enter');
    const table = page.getByTestId('mismatches');
    await table.waitFor({ timeout: 120_000 });
    const first = table.locator('tbody tr').first();
    expect(await first.locator('td').first().textContent()).toBe('0');
    const link = first.getByRole('button', { name: /^step \d+$/ });
    await link.waitFor({ timeout: 60_000 });
    const label = (await link.textContent()) ?? '';
    await link.click();
    const step = label.replace(/\D/g, '');
    await page.waitForFunction((s) => (document.querySelector('[data-testid=step-counter]')?.textContent ?? '').includes(s), step, { timeout: 10_000 });
    expect(errors).toEqual([]);
  }, 300_000);
});
