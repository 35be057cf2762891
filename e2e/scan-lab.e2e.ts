import { describe, expect, it } from 'vitest';
import { openPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';

interface SweepState {
  readonly phase: string;
  readonly up: number;
  readonly down: number;
  readonly upRows: number;
  readonly downRows: number;
}

/** Page object for the scan lab: reads the sweep views' data attributes, drives the timeline by keyboard. */
class ScanLabPage extends LabPageObject {
  override async ready(): Promise<void> {
    await this.page.getByTestId('scan-phase').waitFor({ timeout: 60_000 });
  }
  async state(): Promise<SweepState> {
    return this.page.evaluate(() => {
      const attr = (id: string, name: string) => document.querySelector(`[data-testid=${id}]`)?.getAttribute(name) ?? '';
      return {
        phase: attr('scan-phase', 'data-phase'),
        up: Number(attr('up-tree', 'data-level') || -1),
        down: Number(attr('down-tree', 'data-level') || -1),
        upRows: Number(attr('up-tree', 'data-rows') || 0),
        downRows: Number(attr('down-tree', 'data-rows') || 0),
      };
    });
  }
}

describe('scan lab', () => {
  const browser = useBrowser();

  it('steps Blelloch through up-sweep, root clear and down-sweep, drawing the trees level by level', async () => {
    const { page, errors } = await openPage(browser(), '/lab/scan?v=blelloch&n=512&wg=256&step=0');
    const lab = new ScanLabPage(page);
    await lab.ready();
    expect(await page.getByTestId('lab').getAttribute('data-variant')).toBe('blelloch');
    await lab.blur();
    expect((await lab.state()).phase).toBe('load');

    // Barrier to barrier: every level of each sweep is one barrier phase.
    const states: SweepState[] = [await lab.state()];
    for (let i = 0; i < 40 && states[states.length - 1]!.phase !== 'write-out'; i++) {
      await lab.press(']');
      states.push(await lab.state());
    }
    const phases = states.map((s) => s.phase).filter((p, i, all) => p !== all[i - 1]);
    expect(phases).toEqual(['load', 'up-sweep', 'root-clear', 'down-sweep', 'write-out']);
    // The up-sweep tree gains one level per barrier (1 … 9 for 512 elements), then the down-sweep tree does.
    const upLevels = states.filter((s) => s.phase === 'up-sweep').map((s) => s.up);
    expect(upLevels).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The barrier after the last down-sweep level already counts as writing out (no addition is left).
    const downLevels = states.filter((s) => s.phase === 'down-sweep' || s.phase === 'write-out').map((s) => s.down);
    expect(downLevels).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const clear = states.find((s) => s.phase === 'root-clear')!;
    expect(clear.down).toBe(0);
    expect(clear.downRows).toBe(1); // only the cleared root is drawn
    // Rows are drawn as they are reached: more rows on screen as the sweeps go on.
    const upRows = states.filter((s) => s.phase === 'up-sweep').map((s) => s.upRows);
    expect(upRows[upRows.length - 1]).toBeGreaterThan(upRows[0]!);
    const downRows = states.filter((s) => s.phase === 'down-sweep').map((s) => s.downRows);
    expect(downRows[downRows.length - 1]).toBeGreaterThan(downRows[0]!);

    // Back into the down-sweep and on by single instructions: the label follows every step.
    await page.getByRole('button', { name: 'Down-sweep' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=scan-phase]')?.getAttribute('data-phase') === 'down-sweep');
    await lab.blur();
    const before = await lab.stepCounter();
    await lab.press('.', 5);
    expect(await lab.stepCounter()).not.toBe(before);
    expect((await lab.state()).phase).toBe('down-sweep');
    expect(await page.getByTestId('scan-phase').textContent()).toContain('left child takes its parent');

    // The work counter reaches Blelloch's 2(n − 1) for the 512-element tile.
    await lab.press('End');
    const work = page.getByTestId('work-counter');
    expect(await work.getAttribute('data-additions')).toBe('1022');
    expect(await work.textContent()).toContain('= this variant ✓');
    expect(errors).toEqual([]);
  });

  it.each([
    ['single-pass-late-scan', 'Single pass, tile scanned after the look-back'],
    ['single-pass-warp-totals', 'Single pass, warp totals scanned by one warp'],
  ])('runs the vec4 single pass %s, named in the picker as its title says', async (variant, title) => {
    const { page, errors } = await openPage(browser(), `/lab/scan?v=${variant}&n=4096&wg=64&step=0`);
    const lab = new LabPageObject(page);
    await lab.ready();
    expect(await page.getByTestId('lab').getAttribute('data-variant')).toBe(variant);
    expect(await page.locator('body').textContent()).toContain(title);
    await lab.blur();
    const first = await lab.stepCounter();
    await lab.press('End');
    expect(await lab.stepCounter()).not.toBe(first);
    expect(errors).toEqual([]);
  });

  it('shows the bank conflicts that padding removes', async () => {
    const { page, errors } = await openPage(browser(), '/lab/scan?v=blelloch&n=512&wg=256&step=0');
    await new ScanLabPage(page).ready();
    const padded = page.getByTestId('bank-conflicts-blelloch-padded');
    await page.waitForFunction(() => (document.querySelector('[data-testid=bank-conflicts-blelloch-padded]')?.getAttribute('data-conflicts') ?? '') !== '', undefined, {
      timeout: 60_000,
    });
    expect(Number(await padded.getAttribute('data-conflicts'))).toBe(0);
    expect(Number(await page.getByTestId('bank-conflicts-blelloch').getAttribute('data-conflicts'))).toBeGreaterThan(0);
    expect(Number(await page.getByTestId('bank-worst-blelloch').getAttribute('data-wavefronts'))).toBeGreaterThan(1);
    expect(Number(await page.getByTestId('bank-worst-blelloch-padded').getAttribute('data-wavefronts'))).toBe(1);
    // The worst request, by keyboard: the current request column shows its conflict in both variants.
    await page.getByTestId('go-worst').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=bank-current-blelloch]')?.getAttribute('data-wavefronts')) > 1);
    expect(Number(await page.getByTestId('bank-current-blelloch-padded').getAttribute('data-wavefronts'))).toBe(1);
    expect(errors).toEqual([]);
  });

  it('fills the timings table with figures and agreement checks', async () => {
    const { page, errors } = await openPage(browser(), '/lab/scan?v=blelloch');
    await new LabPageObject(page).openDrawer('timings');
    await page.getByTestId('adapter-name').or(page.getByTestId('measure')).first().waitFor();
    // A short sweep (2^10 and 2^12, still several blocks per pass): the software adapter of CI is
    // slow, and the scans' agreement at large n is the GPU tests' work (scan.gpu.test.ts).
    await page.getByLabel('Largest n').selectOption('12');
    await page.getByTestId('measure').click();
    const table = page.getByTestId('timings-table');
    await table.waitFor({ timeout: 120_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=timings]')?.getAttribute('data-state') === 'done', undefined, {
      timeout: 400_000,
      polling: 500,
    });
    const cells = await page.getByTestId('agree-cell').allTextContents();
    expect(cells.length).toBeGreaterThan(0);
    expect(await page.locator('tr:not([data-racy]) [data-testid=agree-cell][data-agree=no]').count()).toBe(0);
    expect(await table.textContent()).toMatch(/\d+\.\d+/);
    expect(errors).toEqual([]);
  }, 480_000);
});
