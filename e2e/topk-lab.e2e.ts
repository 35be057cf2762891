import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';
import { loadAxe } from './labAxe.ts';

/** The top-k lab: columns fill, the tree merges lists away level by level, the threshold rises. */
describe('top-k lab', () => {
  const browser = useBrowser();
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const open = useAppPage(browser);

  const attr = (page: LabPageObject['page'], id: string, name: string) => page.evaluate(([i, n]) => document.querySelector(`[data-testid=${i}]`)?.getAttribute(n) ?? '', [id, name] as const);

  it('fills the lanes’ lists, then merges them level by level with the panel’s buttons; the threshold only rises', async () => {
    const { page, errors } = await open('/lab/topk?v=seed&n=4096&k=20&dist=random&sem=distinct&step=0');
    const lab = new LabPageObject(page);
    await lab.ready();
    await page.getByTestId('topk-stage').waitFor();
    expect(await attr(lab.page, 'topk-columns', 'data-filled')).toBe('0');

    await page.getByRole('button', { name: 'End of inserts' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=topk-columns]')?.getAttribute('data-filled')) === 128 * 8);
    expect(await page.getByTestId('topk-phase').textContent()).toMatch(/Insert phase/);

    const thresholds: number[] = [];
    for (const level of [1, 4, 7]) {
      await page.getByRole('button', { name: `Level ${level}`, exact: true }).click();
      await page.waitForFunction((l) => document.querySelector('[data-testid=topk-stage]')?.getAttribute('data-level') === String(l), level);
      expect(await page.getByTestId('topk-phase').textContent()).toMatch(new RegExp(`Tree level ${level} of 7`));
      const t = (await page.getByTestId('topk-threshold').textContent()) ?? '';
      thresholds.push(t === '—' ? -Infinity : Number(t));
    }
    expect([...thresholds].sort((a, b) => a - b)).toEqual(thresholds);
    await page.getByTestId('topk-lane').selectOption('100');
    expect(await page.getByTestId('topk-lane-list').textContent()).toMatch(/merged into lane/);
    expect(errors).toEqual([]);
  });

  it('keeps k, the distribution and the semantics in the address, and fits a k it cannot keep', async () => {
    const { page, errors } = await open('/lab/topk?v=fast&k=100&dist=duplicates&sem=all');
    await new LabPageObject(page).ready();
    const notices = (await page.getByTestId('lab-notices').textContent()) ?? '';
    expect(notices).toMatch(/at most 64 values each; using k = 64/);
    await page.getByTestId('sem-select').selectOption('distinct');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('sem') === 'distinct');
    expect(new URL(page.url()).searchParams.get('dist')).toBe('duplicates');
    expect(errors).toEqual([]);
  });

  it('radix: keeps duplicates with a notice, and its stage lists the rounds, the cut and the floor, by keyboard', async () => {
    const { page, errors } = await open('/lab/topk?v=radix&n=10000&k=20&dist=sorted&sem=distinct&step=0');
    const lab = new LabPageObject(page);
    await lab.ready();
    expect((await page.getByTestId('lab-notices').textContent()) ?? '').toMatch(/cannot drop repeats: showing the top k with duplicates kept/);
    await page.getByTestId('topk-stage').waitFor();
    // Workgroup 0 reads one round of 2048 ascending values: all enter, the pool is cut to 20.
    const rounds = page.getByRole('list', { name: 'Pool size after each round' });
    expect(await rounds.textContent()).toMatch(/Round 1 pool holds 2,048, cut: floor raised to -?\d+/);
    expect(await page.getByTestId('topk-threshold').textContent()).toBe('—');
    await page.getByRole('button', { name: 'End', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=topk-stage]')?.getAttribute('data-cuts') === '1');
    expect(await page.getByTestId('topk-threshold').textContent()).toMatch(/^-?\d+$/);
    expect(errors).toEqual([]);
  });

  it('radix-ahead: its own explanation, a short cut during the read and the exact cut at the end, by keyboard', async () => {
    const { page, errors } = await open('/lab/topk?v=radix-ahead&n=10000&k=20&dist=sorted&sem=all&step=0');
    const lab = new LabPageObject(page);
    await lab.ready();
    await expect.poll(async () => (await page.locator('body').textContent()) ?? '').toMatch(/loads a round ahead, a shared floor/);
    // Pass 2's pick is explained with it: a radix select on the distance above the shared floor.
    expect((await page.locator('body').textContent()) ?? '').toMatch(/Pass 2 selects on each value’s distance above that floor/);
    await page.getByTestId('topk-stage').waitFor();
    // Workgroup 0 reads one round of 2048 ascending values: all enter, and a short cut raises the
    // floor to just under the bucket that holds the 20th largest.
    const rounds = page.getByRole('list', { name: 'Pool size after each round' });
    expect(await rounds.textContent()).toMatch(/Round 1 pool holds 2,048, cut: floor raised to -?\d+/);
    await page.getByRole('button', { name: 'End', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await rounds.textContent()) ?? '').toMatch(/final cut to the k largest \(k-th = -?\d+\)/);
    expect(await page.getByTestId('topk-threshold').textContent()).toMatch(/^-?\d+$/);
    expect(errors).toEqual([]);
  });

  it('opens its lesson on the distinct-values step', async () => {
    const { page, errors } = await open('/lesson/topk/4');
    await new LabPageObject(page).ready();
    expect(await page.getByTestId('lesson-counter').textContent()).toContain('Step 4 of 6');
    await page.getByTestId('topk-stage').waitFor();
    expect(await page.getByTestId('topk-lane-list').textContent()).toMatch(/16 of 20 filled/);
    expect(errors).toEqual([]);
  });

  it('runs its lesson to the last step with the clicker keys', async () => {
    const { page, errors } = await open('/lesson/topk/1');
    const lab = new LabPageObject(page);
    await lab.ready();
    for (let n = 1; n < 6; n++) {
      await lab.blur();
      await page.keyboard.press('PageDown');
      await page.waitForFunction((k) => document.querySelector('[data-testid=lesson]')?.getAttribute('data-step') === String(k), n + 1);
      await page.getByTestId('topk-stage').waitFor();
    }
    expect(new URL(page.url()).pathname).toBe('/lesson/topk/6');
    expect(await page.getByTestId('lab').getAttribute('data-variant')).toBe('fast');
    expect(errors).toEqual([]);
  }, 240_000);

  it('has no serious or critical accessibility violation with its stage open (axe-core)', async () => {
    const { page, errors } = await open('/lab/topk?v=seed&n=4096&k=20&step=3000');
    await page.getByTestId('topk-stage').waitFor({ timeout: 60_000 });
    await loadAxe(page);
    const found = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (d: Document, o: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
      return (await axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({ id: v.id, impact: v.impact, at: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
    });
    expect(found.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
