import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';

/** The number a tile card prints after its label (“prefix ready: 11,436”). */
async function cardValue(page: Page, tile: number, label: RegExp): Promise<number> {
  const text = (await page.getByTestId(`look-tile-${tile}`).textContent()) ?? '';
  const match = new RegExp(`${label.source}\\s*([\\d,]+)`).exec(text);
  if (!match) throw new Error(`tile ${tile}'s card has no “${label.source}”: ${text}`);
  return Number(match[1]!.replace(/,/g, ''));
}

describe('the single-pass scan’s look-back', () => {
  const browser = useBrowser();
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const open = useAppPage(browser);

  it('the lesson’s last step: tile 3 reads tile 2’s prefix, the question takes their sum, and the jump buttons move to each publication', async () => {
    const { page, errors } = await open('/lesson/scan/8');
    await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 60_000 });
    const panel = page.getByTestId('look-back');
    await panel.waitFor();
    expect(await panel.getAttribute('data-tile')).toBe('3');
    // The step's subject is tile 2's card, which shows the prefix it found ready.
    const subject = page.locator('[data-subject=look-back]');
    expect(await subject.count()).toBe(1);
    expect(await subject.getAttribute('data-testid')).toBe('look-tile-2');
    const read = await cardValue(page, 2, /prefix ready:/);
    const own = await cardValue(page, 3, /own sum published:/);
    expect(await page.getByTestId('look-tile-3').textContent()).toContain('prefix not published yet');
    expect(await page.getByTestId('look-back-now').textContent()).toContain('finds its prefix ready');

    // The question: the prefix tile 3 publishes next is the sum of the two numbers on screen.
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('[data-testid=check-answer]')?.disabled);
    await page.getByTestId('answer').fill(String(read + own));
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=verdict]')?.getAttribute('data-ok') === 'yes');

    // By keyboard: the jump to the prefix's publication; tile 3's card then shows it, as the subject.
    const jump = page.getByRole('button', { name: 'Publishes its prefix' });
    await jump.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-subject=look-back]')?.getAttribute('data-testid') === 'look-tile-3');
    expect(await cardValue(page, 3, /prefix published:/)).toBe(read + own);
    expect(await jump.getAttribute('aria-current')).toBe('step');
    // And back to its own sum: nothing read yet, tile 2's card says so.
    await page.getByRole('button', { name: 'Publishes its own sum' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /not read/.test(document.querySelector('[data-testid=look-tile-2]')?.textContent ?? ''));
    expect(errors).toEqual([]);
  });

  it('the lab: one tile has nothing to look back at, and tile 0 says how to see one', async () => {
    const one = await open('/lab/scan?v=single-pass&n=512&wg=256');
    await one.page.getByTestId('look-back').waitFor({ timeout: 60_000 });
    expect(await one.page.getByTestId('look-back').textContent()).toContain('All 512 elements fit in one tile');
    const first = await open('/lab/scan?v=single-pass&n=4096&wg=64');
    await first.page.getByTestId('look-back').waitFor({ timeout: 60_000 });
    expect(await first.page.getByTestId('look-back').getAttribute('data-tile')).toBe('0');
    expect(await first.page.getByTestId('look-back').textContent()).toContain('choose a later workgroup under Warps');
    expect([...one.errors, ...first.errors]).toEqual([]);
  });
});
