import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';
import { loadAxe } from './labAxe.ts';


/** axe-core's serious and critical findings on the page as it stands. */
async function seriousViolations(page: Page): Promise<string[]> {
  await loadAxe(page);
  const violations = await page.evaluate(async () => {
    type V = { id: string; impact: string | null; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: V[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact}: ${v.id} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

/** The matrix-multiply lab: the stage's counts, the bank view, the roofline and the lesson. */
describe('matrix-multiply lab', () => {
  const browser = useBrowser();

  it('counts the loads of A[3][5] as the tiled kernel steps, by keyboard, and reads its metrics', async () => {
    const { page, errors } = await openPage(browser(), '/lab/matmul?v=tiled&m=64&n=64&k=64&tile=16&step=0');
    const lab = new LabPageObject(page);
    await lab.ready();
    await page.getByTestId('matmul-stage').waitFor();
    // The box opens on A[20][5], outside workgroup 0's rows, so it answers none of the lesson's questions.
    expect(await page.getByTestId('matmul-question-answer').textContent()).toMatch(/A\[20\]\[5\] has been loaded 0 times by workgroup 0/);
    await page.getByTestId('matmul-question-row').fill('3');
    expect(await page.getByTestId('matmul-question-answer').textContent()).toMatch(/A\[3\]\[5\] has been loaded 0 times by workgroup 0/);
    await lab.blur();
    await lab.press(']');
    expect(await page.getByTestId('matmul-stage-sentence').textContent()).toMatch(/barrier phase 1/);
    expect(await page.getByTestId('matmul-question-answer').textContent()).toMatch(/A\[3\]\[5\] has been loaded 1 time by workgroup 0/);
    // The first tile of A (rows 0–15, columns 0–15) is marked in the grid, with its counts.
    expect(await page.locator('[data-testid=matmul-grid-A] td[data-current=true]').count()).toBe(256);
    // Ask about another element with the keyboard.
    await page.getByTestId('matmul-question-row').fill('20');
    expect(await page.getByTestId('matmul-question-answer').textContent()).toMatch(/A\[20\]\[5\] has been loaded 0 times/);
    // The whole dispatch (16 workgroups, traced by a companion): N / TILE = 4 loads of every element.
    await page.waitForFunction(() => /A were loaded 4 times each, those of B 4 times each/.test(document.querySelector('[data-testid=matmul-whole]')?.textContent ?? ''));
    expect(await page.getByTestId('matmul-question-answer').textContent()).toMatch(/The whole dispatch loads it 4 times/);
    await new LabPageObject(page).openDrawer('metrics');
    expect(await page.locator('[data-metric="Global loads per FMA"]').textContent()).toBe('0.125');
    expect(await page.locator('[data-metric="Barriers per tile"]').textContent()).toBe('2.00');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows the bank conflict of the transposed store, and its absence once swizzled', async () => {
    const { page, errors } = await openPage(browser(), '/lab/matmul?v=vec4-2d&m=64&n=64&k=32&step=0');
    await new LabPageObject(page).ready();
    await page.getByRole('button', { name: 'Next tile request ▶' }).click();
    await page.waitForFunction(() => /4-way bank conflict/.test(document.querySelector('[data-testid=matmul-banks-sentence]')?.textContent ?? ''));
    expect(await page.locator('.mm-bank.conflict').count()).toBeGreaterThan(0);

    await page.getByTestId('variant-select').selectOption('fast');
    await page.waitForFunction(() => document.querySelector('[data-testid=lab]')?.getAttribute('data-variant') === 'fast');
    await new LabPageObject(page).ready();
    await page.getByRole('button', { name: 'Next tile request ▶' }).click();
    await page.waitForFunction(() => /store of tileA .* no conflict/.test(document.querySelector('[data-testid=matmul-banks-sentence]')?.textContent ?? ''));
    expect(errors).toEqual([]);
  });

  it('places every variant on the roofline (measured: e2e/i18n.e2e.ts)', async () => {
    const { page, errors } = await openPage(browser(), '/lab/matmul?v=naive&m=64&n=64&k=64');
    // The naive kernel: every element is loaded N = 64 times over the whole dispatch (on the tiles' stage).
    await new LabPageObject(page).showStage('matmul-stage');
    await page.waitForFunction(() => /A were loaded 64 times each, those of B 64 times each/.test(document.querySelector('[data-testid=matmul-whole]')?.textContent ?? ''), undefined, { timeout: 60_000 });
    await new LabPageObject(page).showStage('matmul-roofline');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=matmul-roofline-table] tbody tr').length === 7, undefined, { timeout: 60_000 });
    // Measured on this GPU (its FMA peak and read bandwidth, every variant's rate; axe clean), in
    // Chinese and in English: e2e/i18n.e2e.ts, which measures once for both languages.
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 300_000);

  it('fits sizes it cannot step through, and vec4 kernels to multiples of 4, saying so', async () => {
    const { page, errors } = await openPage(browser(), '/lab/matmul?v=fast&n=30&k=1000');
    await new LabPageObject(page).ready();
    const notices = (await page.getByTestId('lab-notices').textContent()) ?? '';
    expect(notices).toMatch(/simulating 128/);
    expect(notices).toMatch(/multiple of 4; using 32/);
    expect(errors).toEqual([]);
  });

  it('runs its lesson from the first step to the last with the clicker keys, and checks an answer', async () => {
    const { page, errors } = await openPage(browser(), '/lesson/matmul/1');
    await new LabPageObject(page).ready();
    for (let n = 1; n < 8; n++) {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('PageDown');
      await page.waitForFunction((k) => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === String(k), n + 1);
      await new LabPageObject(page).ready();
      // Each step's picture is on the stage: the tiles, or the roofline for the last step.
      const asked = (await page.getByTestId('stage').getAttribute('data-asked')) ?? 'matmul-stage';
      expect(await page.getByTestId('stage').getAttribute('data-panel')).toBe(asked);
      await page.getByTestId(asked === 'matmul-roofline' ? 'matmul-roofline-table' : 'matmul-stage').waitFor();
    }
    // Step 8: the double-buffered kernel completes 9 barriers for K = 64.
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('[data-testid=check-answer]')?.disabled);
    await page.getByTestId('answer').fill('9');
    await page.getByTestId('check-answer').click();
    await page.getByTestId('verdict').waitFor();
    expect(await page.getByTestId('verdict').getAttribute('data-ok')).toBe('yes');
    expect(errors).toEqual([]);
  }, 240_000);

  it('opens its lesson at the first tile, where A[3][5] has been loaded once (the box does not say so until asked)', async () => {
    const { page, errors } = await openPage(browser(), '/lesson/matmul/3');
    await new LabPageObject(page).ready();
    expect(await page.getByTestId('lesson-lab').textContent()).toMatch(/Matrix multiply/);
    expect(await page.getByTestId('lesson-counter').textContent()).toContain('Step 3 of 8');
    await page.getByTestId('matmul-stage').waitFor();
    expect(await page.getByTestId('matmul-question-answer').textContent()).not.toMatch(/A\[3\]\[5\]/);
    await page.getByTestId('matmul-question-row').fill('3');
    expect(await page.getByTestId('matmul-question-answer').textContent()).toMatch(/A\[3\]\[5\] has been loaded 1 time/);
    expect(errors).toEqual([]);
  });
});
