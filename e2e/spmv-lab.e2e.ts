import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';
import { loadAxe } from './labAxe.ts';

/** axe-core's serious or critical findings on the page as it stands. */
async function axeFindings(page: Page): Promise<string[]> {
  await loadAxe(page);
  const found = await page.evaluate(async () => {
    type V = { id: string; impact: string | null; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (d: Document, o: object) => Promise<{ violations: V[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact}: ${v.id} at ${v.nodes[0]?.target.join(' ')}`);
}

/** Runs the kernel on both executors (Ctrl+Enter in the editor): the GPU's and the simulator's outputs equal the CPU's. */
async function runAndCheck(page: Page): Promise<void> {
  await page.getByTestId('kernel-editor').click();
  await page.keyboard.press('Control+Enter');
  await page.getByTestId('editor-check').waitFor({ timeout: 90_000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=check-gpu]')?.getAttribute('data-ok') === 'yes', undefined, { timeout: 60_000 });
  expect(await page.getByTestId('check-sim').getAttribute('data-ok')).toBe('yes');
}

/** Tabs to the jump button and presses Enter: the stage lands on the first gather of x. */
async function firstGather(page: Page): Promise<void> {
  await page.getByTestId('spmv-next-gather').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=spmv-now]')?.getAttribute('data-array') === 'x');
}

/** The SpMV lab: the seed's matrix in every format, a warp's lanes laid over the storage. */
describe('SpMV lab', () => {
  const browser = useBrowser();
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const open = useAppPage(browser);

  it('draws the seed’s matrix in every format and marks the lanes of a gather, by keyboard; axe finds nothing serious', async () => {
    const { page, errors } = await open('/lab/spmv?v=csr-scalar&mat=seed&n=4&wg=128&step=0');
    const lab = new LabPageObject(page);
    await lab.ready();
    const stage = page.getByTestId('spmv-stage');
    await stage.waitFor();
    for (const f of ['spmv-dense', 'spmv-csr', 'spmv-ell', 'spmv-coo', 'spmv-hybrid', 'spmv-jds', 'spmv-sell']) expect(await page.getByTestId(f).count()).toBe(1);
    expect(await page.getByTestId('spmv-csr').getAttribute('data-active')).toBe('true');
    // ELL of the seed: 12 slots, 5 of them padding.
    expect(await page.getByTestId('spmv-ell').locator('tr').first().locator('td.pad').count()).toBe(5);

    // The jump button, reached by Tab and pressed with Enter, lands on the first gather of x.
    await page.getByTestId('spmv-next-gather').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=spmv-now]')?.getAttribute('data-array') === 'x');
    expect(await page.getByTestId('spmv-now').getAttribute('data-lanes')).toBe('3');
    // Lanes 0 and 3 gather x[0] (column 0 of rows 0 and 3), lane 2 gathers x[1].
    expect(await page.getByTestId('spmv-x').locator('td.touched').count()).toBe(2);
    // One warp instruction back (',' after leaving the button), the lanes read col_index: the
    // three nonzeros they read are marked in the dense matrix and in CSR's arrays.
    await lab.blur();
    await lab.press(',');
    await page.waitForFunction(() => document.querySelector('[data-testid=spmv-now]')?.getAttribute('data-array') !== 'x');
    expect(await page.getByTestId('spmv-now').getAttribute('data-array')).toBe('col_index');
    expect(await page.getByTestId('spmv-dense').locator('td.touched').count()).toBe(3);
    expect(await page.getByTestId('spmv-csr').locator('td.touched').count()).toBe(3);
    // The strip of warp 0: 3, 3 and 1 lanes of the four with rows.
    const strip = page.getByTestId('spmv-strip').locator('button');
    expect(await strip.count()).toBe(3);
    expect(await strip.nth(2).getAttribute('data-idle')).toBe('3');
    expect(await axeFindings(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('switches to the hybrid, whose split holds row 2’s last nonzero, and fits rows to a Laplacian grid with a notice', async () => {
    const { page, errors } = await open('/lab/spmv?v=hybrid&mat=seed&n=4&wg=128&step=0');
    await new LabPageObject(page).ready();
    await page.getByTestId('spmv-stage').waitFor();
    expect(await page.getByTestId('spmv-hybrid').getAttribute('data-active')).toBe('true');
    expect(await page.getByTestId('spmv-hybrid').locator('td.split').count()).toBe(3);

    const other = await open('/lab/spmv?v=ell&mat=laplacian&n=30');
    await new LabPageObject(other.page).ready();
    expect((await other.page.getByTestId('lab-notices').textContent()) ?? '').toMatch(/square grid; using 25 rows/);
    expect(await other.page.getByTestId('spmv-ell').getAttribute('data-active')).toBe('true');
    expect(errors).toEqual([]);
    expect(other.errors).toEqual([]);
  });

  it('runs the merge path on the GPU and the simulator, both equal to the CPU, over several tiles; on the seed one warp gathers all seven nonzeros at once', async () => {
    // 256 power-law rows: about 4 000 items, five tiles of 128 × 7.
    const { page, errors } = await open('/lab/spmv?v=csr-merge&mat=powerlaw&n=256&wg=128&step=0');
    await new LabPageObject(page).ready();
    await page.getByTestId('spmv-stage').waitFor();
    // The tile's values are read by consecutive lanes: a full warp's 128 contiguous bytes touch 4
    // or 5 sectors (a tile starts at any nonzero), the tile's last partial warp fewer; one lane per
    // row (CSR scalar) touches about one sector per lane.
    const sectors = Number.parseFloat((await page.getByTestId('spmv-sectors-values').textContent()) ?? '');
    expect(sectors).toBeGreaterThan(3);
    expect(sectors).toBeLessThanOrEqual(5);
    await runAndCheck(page);

    const seed = await open('/lab/spmv?v=csr-merge&mat=seed&n=4&wg=128&step=0');
    await new LabPageObject(seed.page).ready();
    await seed.page.getByTestId('spmv-stage').waitFor();
    expect(await seed.page.getByTestId('spmv-csr').getAttribute('data-active')).toBe('true');
    await firstGather(seed.page);
    // The tile's products are loaded one nonzero per lane: lanes 0–6, where CSR scalar had 3.
    expect(await seed.page.getByTestId('spmv-now').getAttribute('data-lanes')).toBe('7');
    expect(errors).toEqual([]);
    expect(seed.errors).toEqual([]);
  }, 240_000);

  it('runs CSR adaptive on the GPU and the simulator, both equal to the CPU, with the power law’s long rows binned; on the seed one lane per row, three lanes gather first', async () => {
    // 256 power-law rows, mean 16: groups of 4 lanes, rows over 32 nonzeros summed by whole subgroups.
    const { page, errors } = await open('/lab/spmv?v=csr-adaptive&mat=powerlaw&n=256&wg=128');
    await new LabPageObject(page).ready();
    await page.getByTestId('spmv-stage').waitFor();
    await runAndCheck(page);

    // The seed's mean of 1.75 nonzeros gives groups of one lane: rows 0, 2 and 3 gather x in the
    // first step that does, row 1 is empty.
    const seed = await open('/lab/spmv?v=csr-adaptive&mat=seed&n=4&wg=128');
    await new LabPageObject(seed.page).ready();
    await seed.page.getByTestId('spmv-stage').waitFor();
    expect(await seed.page.getByTestId('spmv-csr').getAttribute('data-active')).toBe('true');
    await firstGather(seed.page);
    expect(await seed.page.getByTestId('spmv-now').getAttribute('data-lanes')).toBe('3');
    expect(errors).toEqual([]);
    expect(seed.errors).toEqual([]);
  }, 240_000);

  it('explains the sliced ELL in English and Chinese, runs it on the GPU and the simulator, both equal to the CPU, with the power law’s long rows cut; on the seed its slice pads and every piece gathers', async () => {
    // 256 power-law rows: some far longer than 8 × the mean, so rows over 128 nonzeros are cut into pieces.
    const { page, errors } = await open('/lab/spmv?v=sell&mat=powerlaw&n=256&wg=128');
    await new LabPageObject(page).ready();
    await page.getByTestId('spmv-stage').waitFor();
    const summary = (await page.getByTestId('variant-summary').textContent()) ?? '';
    expect(summary).toContain('a slice is 32 consecutive rows');
    expect(summary).toMatch(/sorts the rows by length inside windows/);
    expect(summary).toMatch(/cut into equal pieces/);
    expect(summary).toMatch(/inclusive scan over the warp’s lanes/);
    await runAndCheck(page);
    // Cut rows meet in y through atomic adds, one per run of a row's pieces in a warp.
    expect(Number(await page.getByTestId('spmv-atomics').textContent())).toBeGreaterThan(0);

    // The seed: four pieces (rows sorted longest first) in one slice of 32 lanes, 3 slots wide (its
    // longest row): 96 slots for 7 nonzeros, 89 of them padding; all four pieces gather x in the first gather.
    // In Chinese, as the address asks (opened in the app, it applies its ?lang= as a load does).
    const seed = await open('/lab/spmv?v=sell&mat=seed&n=4&wg=128&step=0&lang=zh-CN');
    await new LabPageObject(seed.page).ready();
    await seed.page.getByTestId('spmv-stage').waitFor();
    await seed.page.waitForFunction(() => (document.querySelector('[data-testid=variant-summary]')?.textContent ?? '').includes('一片是连续的 32 行'));
    const sell = seed.page.getByTestId('spmv-sell');
    expect(await sell.getAttribute('data-active')).toBe('true');
    expect(await sell.locator('tr').nth(1).locator('td.pad').count()).toBe(89);
    await firstGather(seed.page);
    expect(await seed.page.getByTestId('spmv-now').getAttribute('data-lanes')).toBe('4');
    expect(errors).toEqual([]);
    expect(seed.errors).toEqual([]);
  }, 240_000);

  it('opens its lesson at a named moment (one lane left in the third iteration); axe finds nothing serious', async () => {
    const { page, errors } = await open('/lesson/spmv/2');
    await new LabPageObject(page).ready();
    expect(await page.getByTestId('lesson-counter').textContent()).toContain('Step 2 of 9');
    await page.getByTestId('spmv-stage').waitFor();
    expect(await page.getByTestId('spmv-now').getAttribute('data-lanes')).toBe('1');
    expect(await axeFindings(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('walks the whole lesson with the clicker keys, the stage on every step; the first check takes 3, hints at a wrong 4 and explains it on the second miss', async () => {
    const { page, errors } = await open('/lesson/spmv/1');
    await new LabPageObject(page).ready();
    await page.getByTestId('check-answer').and(page.locator(':enabled')).waitFor({ timeout: 60_000 });
    await page.getByTestId('answer').fill('4');
    await page.getByTestId('check-answer').click();
    expect(await page.getByTestId('verdict').getAttribute('data-ok')).toBe('no');
    // The first miss points back at the picture without giving the answer away.
    expect(await page.getByTestId('verdict').textContent()).not.toMatch(/3 lanes gather/);
    await page.getByTestId('answer').fill('4');
    await page.getByTestId('check-answer').click();
    await page.waitForFunction(() => /3 lanes gather, not 4/.test(document.querySelector('[data-testid=verdict]')?.textContent ?? ''));
    await page.getByTestId('answer').fill('3');
    await page.getByTestId('check-answer').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=verdict]')?.getAttribute('data-ok') === 'yes');
    for (let n = 2; n <= 9; n++) {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('PageDown');
      await page.waitForFunction((k) => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === String(k), n);
      await new LabPageObject(page).ready();
      await page.getByTestId('spmv-stage').waitFor();
    }
    expect(errors).toEqual([]);
  }, 240_000);
});
