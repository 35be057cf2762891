import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';
import { loadAxe } from './labAxe.ts';

/** The merge lab: the merge-path grid fills with co-rank probes read from the trace, by keyboard. */
describe('merge lab', () => {
  const browser = useBrowser();
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const open = useAppPage(browser);

  const attr = (page: LabPageObject['page'], id: string, name: string) => page.evaluate(([i, n]) => document.querySelector(`[data-testid=${i}]`)?.getAttribute(n) ?? '', [id, name] as const);

  it('steps the basic merge probe by probe with the panel’s buttons, and the path grows to all 64 outputs', async () => {
    const { page, errors } = await open('/lab/merge?v=basic&m=24&n=40&input=random&type=i32&step=0');
    const lab = new LabPageObject(page);
    await lab.ready();
    await page.getByTestId('merge-path').waitFor();
    expect(await attr(lab.page, 'merge-grid', 'data-probes')).toBe('0');
    expect(await page.getByTestId('merge-now').textContent()).toMatch(/No co-rank probe by invocation 0 yet/);

    // Follow invocation 3 with the keyboard: pick it, then jump to its probes.
    await page.getByTestId('merge-invocation').focus();
    await page.getByTestId('merge-invocation').selectOption('3');
    await page.getByTestId('merge-next-probe').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /Invocation 3 probes A\[6\]/.test(document.querySelector('[data-testid=merge-now]')?.textContent ?? ''));
    expect(Number(await attr(lab.page, 'merge-grid', 'data-probes'))).toBeGreaterThan(0);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /cross-diagonal 12/.test(document.querySelector('[data-testid=merge-now]')?.textContent ?? '') === true);
    // A word, not a colour, says which way the search went.
    expect(await page.getByTestId('merge-now').textContent()).toMatch(/the search (moves above|stays below) i = \d+/);

    // To the end: every output stored, the path complete, the table counts probes per invocation.
    await lab.blur();
    await lab.press('End');
    await page.waitForFunction(() => document.querySelector('[data-testid=merge-grid]')?.getAttribute('data-path') === '64');
    expect(await page.locator('[data-testid=merge-table] tbody tr').count()).toBe(16);
    expect(errors).toEqual([]);
  });

  it('draws the tile of the tiled merge and keeps its choices in the address', async () => {
    const { page, errors } = await open('/lab/merge?v=tiled&m=40&n=60&input=duplicates&type=f32');
    await new LabPageObject(page).ready();
    await page.getByTestId('merge-tile').waitFor();
    const url = new URL(page.url());
    expect(url.searchParams.get('input')).toBe('duplicates');
    expect(url.searchParams.get('type')).toBe('f32');
    await page.getByTestId('input-select').selectOption('a-empty');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('input') === 'a-empty');
    expect(errors).toEqual([]);
  });

  it('draws the tile of the streamed merge and its whole path, though its outputs overwrite the tile', async () => {
    const { page, errors } = await open('/lab/merge?v=stream&m=24&n=40&input=random&type=i32&step=0');
    const lab = new LabPageObject(page);
    await lab.ready();
    await page.getByTestId('merge-tile').waitFor();
    await lab.blur();
    await lab.press('End');
    await page.waitForFunction(() => document.querySelector('[data-testid=merge-grid]')?.getAttribute('data-path') === '64');
    expect(await page.getByTestId('lab').getAttribute('data-variant')).toBe('stream');
    expect(errors).toEqual([]);
  });

  it('draws the tile of the wide merge and its whole path, from its one search per invocation', async () => {
    const { page, errors } = await open('/lab/merge?v=wide&m=24&n=40&input=duplicates&type=i32');
    const lab = new LabPageObject(page);
    await lab.ready();
    await page.getByTestId('merge-tile').waitFor();
    await lab.blur();
    await lab.press('End');
    await page.waitForFunction(() => document.querySelector('[data-testid=merge-grid]')?.getAttribute('data-path') === '64');
    expect(await page.getByTestId('lab').getAttribute('data-variant')).toBe('wide');
    expect(errors).toEqual([]);
  });

  it('says what it fixed in a bad address', async () => {
    const { page, errors } = await open('/lab/merge?input=zigzag&type=f64');
    await new LabPageObject(page).ready();
    const notices = (await page.getByTestId('lab-notices').textContent()) ?? '';
    expect(notices).toMatch(/no input “zigzag”/);
    expect(notices).toMatch(/not f64; using i32/);
    expect(errors).toEqual([]);
  });

  it('opens its lesson at invocation 3’s last probe', async () => {
    const { page, errors } = await open('/lesson/merge/3');
    await new LabPageObject(page).ready();
    expect(await page.getByTestId('lesson-counter').textContent()).toContain('Step 3 of 7');
    await page.getByTestId('merge-path').waitFor();
    expect(errors).toEqual([]);
  });

  it('runs its lesson to the last step with the clicker keys, and checks “how many elements of A does invocation 3 take”', async () => {
    const { page, errors } = await open('/lesson/merge/1');
    const lab = new LabPageObject(page);
    await lab.ready();
    for (let n = 1; n < 7; n++) {
      await lab.blur();
      await page.keyboard.press('PageDown');
      await page.waitForFunction((k) => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === String(k), n + 1);
      await lab.ready();
    }
    expect(new URL(page.url()).pathname).toBe('/lesson/merge/7');
    const step3 = await open('/lesson/merge/3');
    await new LabPageObject(step3.page).ready();
    await step3.page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('[data-testid=check-answer]')?.disabled);
    await step3.page.getByTestId('answer').fill('99');
    await step3.page.getByTestId('check-answer').click();
    await step3.page.getByTestId('verdict').waitFor();
    expect(await step3.page.getByTestId('verdict').getAttribute('data-ok')).toBe('no');
    // A first miss only points back at the picture; the learner asks for the answer and why.
    await step3.page.getByTestId('show-answer').click();
    await step3.page.waitForFunction(() => /i₁ − i₀ = \d+/.test(document.querySelector('[data-testid=verdict]')?.textContent ?? ''));
    const why = (await step3.page.getByTestId('verdict').textContent()) ?? '';
    const right = /i₁ − i₀ = (\d+)/.exec(why)?.[1];
    expect(right).toBeDefined();
    await step3.page.getByTestId('answer').fill(right!);
    await step3.page.keyboard.press('Enter');
    await step3.page.waitForFunction(() => document.querySelector('[data-testid=verdict]')?.getAttribute('data-ok') === 'yes');
    expect([...errors, ...step3.errors]).toEqual([]);
  }, 240_000);

  it('has no serious or critical accessibility violation with its stage open (axe-core)', async () => {
    const { page, errors } = await open('/lab/merge?v=tiled&m=24&n=40&step=400');
    await page.getByTestId('merge-path').waitFor({ timeout: 60_000 });
    await loadAxe(page);
    const found = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (d: Document, o: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
      return (await axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({ id: v.id, impact: v.impact, at: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
    });
    expect(found.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
