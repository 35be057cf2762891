import { describe, expect, it } from 'vitest';
import { BASE_URL, useAppPage, useBrowser, watchErrors } from './browser.ts';
import { LabPageObject } from './pages.ts';

/** The reduction lab's page object: the shared timeline driving plus what its views expose. */
class ReduceLabPage extends LabPageObject {
  async treeLevel(): Promise<number> {
    await this.onStage('dataflow');
    return Number(await this.page.getByTestId('dataflow-tree').first().getAttribute('data-level'));
  }
  async treeStride(): Promise<string> {
    await this.onStage('dataflow');
    return (await this.page.getByTestId('dataflow-tree').first().getAttribute('data-stride')) ?? '';
  }
  /** Puts `id` on the stage unless it is there. */
  async onStage(id: string): Promise<void> {
    if ((await this.page.getByTestId('stage').getAttribute('data-panel')) !== id) await this.showStage(id);
  }
  async divergentWarps(): Promise<string> {
    await this.onStage('warp-grid');
    return (await this.page.getByTestId('warp-grid').first().getAttribute('data-divergent-warps')) ?? '';
  }
  /** Barrier to barrier until the tree has written `level`. */
  async toLevel(level: number): Promise<void> {
    await this.blur();
    for (let i = 0; i < 40 && (await this.treeLevel()) < level; i++) await this.press("]");
    expect(await this.treeLevel()).toBe(level);
  }
}

// Every test of the file opens its pages as a first visit shows them, in one page (nothing kept
// from the last test); the adapter's test, which changes what the page's GPU reports, has a context
// of its own.
describe('reduction lab page', () => {
  const browser = useBrowser();
  const open = useAppPage(browser);

  describe('reduction lab', () => {
    it('shows neighbored divergence and tree shape, then interleaved, by keyboard; the URL restores the state', async () => {
      const { page, errors } = await open('/lab/reduce?v=neighbored&n=1024&wg=256');
      const lab = new ReduceLabPage(page);
      await lab.ready();
      expect(await page.getByTestId('lab').getAttribute('data-variant')).toBe('neighbored');

      // Second level of the neighbored tree: every 4th word is written.
      await lab.toLevel(2);
      expect(await lab.treeStride()).toBe('4');
      expect(await page.getByTestId('tree-caption').textContent()).toContain('every 4th word');
      // Into the next divergent branch and one instruction on: the warps are split and marked.
      await lab.press('d');
      await lab.press('.');
      expect((await lab.divergentWarps()).length).toBeGreaterThan(0);
      expect(await page.getByTestId('warp-summary').textContent()).toContain('divergent: warp');

      // The URL holds lab, variant, parameters and step; a reload restores the same step.
      // The address catches up with the step once stepping pauses (it is written after a short pause).
      const counter = await lab.stepCounter();
      const shown = Number(/Step (\d+)/.exec(counter)?.[1]) - 1;
      await page.waitForFunction((s) => new URLSearchParams(location.search).get('step') === String(s), shown);
      const url = new URL(page.url());
      expect(url.pathname).toBe('/lab/reduce');
      expect(url.searchParams.get('v')).toBe('neighbored');
      expect(url.searchParams.get('n')).toBe('1024');
      await page.reload();
      await lab.ready();
      await page.waitForFunction((c) => document.querySelector('[data-testid=step-counter]')?.textContent === c, counter);
      expect(await lab.treeStride()).toBe('4');

      // Switch to interleaved by keyboard: focus the variant picker and choose with the arrow keys.
      await page.getByTestId('variant-select').focus();
      await page.getByTestId('variant-select').selectOption('interleaved');
      await page.waitForFunction(() => document.querySelector('[data-testid=lab]')?.getAttribute('data-variant') === 'interleaved');
      await lab.ready();
      await lab.toLevel(2);
      expect(await lab.treeStride()).toBe('1');
      expect(await page.getByTestId('tree-caption').textContent()).toContain('contiguous');
      await lab.press('.', 3);
      expect(await lab.divergentWarps()).toBe('');
      expect(await page.getByTestId('warp-summary').textContent()).toContain('no warp is split');
      expect(errors).toEqual([]);
    });

    it('compares two variants side by side with their metric differences', async () => {
      const { page, errors } = await open('/lab/reduce?v=neighbored&cmp=interleaved&n=1024&wg=256');
      const lab = new ReduceLabPage(page);
      await lab.ready();
      // Two stages side by side: the warps of both, then the trees of both.
      await lab.onStage('warp-grid');
      await page.getByTestId('compare-pane').getByTestId('warp-grid').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('warp-grid').count()).toBe(2);
      await lab.onStage('dataflow');
      await page.getByTestId('compare-pane').getByTestId('dataflow-tree').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('dataflow-tree').count()).toBe(2);
      await lab.openDrawer('metrics');
      const metrics = (await page.getByTestId('metrics').textContent()) ?? '';
      expect(metrics).toContain('Difference');
      expect(metrics).toMatch(/better|worse/);
      // M toggles compare mode off by keyboard.
      await lab.blur();
      await lab.press('m');
      await page.getByTestId('compare-pane').waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    });
  });

  describe('warp grid lane details', () => {
    it('shows a lane’s last memory access on hover and follows the arrow keys', async () => {
      const { page, errors } = await open('/lab/reduce?v=interleaved&n=1024&wg=256&step=300');
      await new LabPageObject(page).showStage('warp-grid');
      const grid = page.getByTestId('warp-grid');
      await grid.waitFor({ timeout: 60_000 });
      const svg = grid.getByTestId('lane-grid');
      // The pointer can only hover what is on screen: bring the grid into view first.
      await svg.scrollIntoViewIfNeeded();
      // Lane 3 of warp 1: its cell in the second row (the grid frames its columns to the panel's
      // width, so the cell is found by its lane, not by a fixed geometry).
      await svg.locator('[data-lane="3"]').nth(1).hover({ force: true });
      await page.getByTestId('lane-detail').filter({ hasText: 'Pointer on Warp 1, lane 3' }).waitFor();
      expect(await page.getByTestId('lane-detail').textContent()).toMatch(/Last memory access \(step \d+\): (read|wrote) \w+\[\d+\] = \d+/);
      await page.mouse.move(0, 0);
      await svg.focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      await page.getByTestId('lane-detail').filter({ hasText: 'Warp 1, lane 1 (invocation 33)' }).waitFor();
      await page.waitForFunction(() => new URLSearchParams(location.search).get('lane') === '1');
      expect(errors).toEqual([]);
    });
  });

  describe('lab addresses it cannot follow', () => {
    it.each([
      ['/lab/reduce?v=nope', 'no variant “nope”'],
      ['/lab/reduce?v=vec4-atomic&type=f32', 'does not run on f32'],
      ['/lab/reduce?g=99', 'workgroup 99 does not exist'],
      ['/lab/reduce?n=1000000', 'simulating 65,536'],
      ['/lab/scan?v=blelloch-padded&wg=1024', 'using 512'],
      ['/lab/reduce?n=abc&step=-1', 'expected a whole number'],
    ])('%s lands on a working lab with a notice', async (path, notice) => {
      const { page, errors } = await open(path);
      await new LabPageObject(page).ready();
      const text = [await page.getByTestId('lab-notices').allTextContents(), await page.getByTestId('notices').allTextContents()].flat().join(' ');
      expect(text).toContain(notice);
      expect(errors).toEqual([]);
    });
  });

  describe('help overlay', () => {
    it('? lists the shortcuts that work on this page and Escape closes it', async () => {
      const { page, errors } = await open('/lab/reduce');
      await page.locator('[data-testid=stage][data-ready=yes]').waitFor({ timeout: 60_000 });
      await page.keyboard.press('?');
      const overlay = page.getByTestId('help-overlay');
      await overlay.waitFor();
      const text = (await overlay.textContent()) ?? '';
      expect(text).toContain('Next barrier');
      expect(text).toContain('Jump to the next divergent branch');
      expect(text).not.toContain('Blank the screen');
      await page.keyboard.press('Escape');
      await overlay.waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    });
  });

  describe('an adapter that runs at most 256 invocations in a workgroup (WebGPU’s default)', () => {
    it('offers 512 and 1024 disabled, saying why, and fits an address asking for 1024 to 256 with a notice', async () => {
      const context = await browser().newContext({ viewport: { width: 1400, height: 1000 } });
      // Whatever SwiftShader grants, the page sees an adapter (and so a device) with the default limit.
      await context.addInitScript(() => {
        const limits = Object.getOwnPropertyDescriptor(GPUAdapter.prototype, 'limits')!;
        Object.defineProperty(GPUAdapter.prototype, 'limits', {
          get(this: GPUAdapter) {
            const real = limits.get!.call(this) as GPUSupportedLimits;
            return new Proxy(real, { get: (t, k) => (k === 'maxComputeInvocationsPerWorkgroup' ? 256 : (Reflect.get(t, k) as unknown)) });
          },
        });
      });
      const page = await context.newPage();
      const errors: string[] = [];
      await watchErrors(page, errors);
      await page.goto(new URL('/lab/reduce?v=interleaved&n=4096&wg=1024', BASE_URL).href);
      const select = page.getByTestId('wg-select');
      await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('[data-testid=wg-select]')?.value === '256', undefined, { timeout: 60_000 });
      await new LabPageObject(page).ready();
      expect(await page.getByTestId('lab-notices').textContent()).toContain('at most 256 invocations');
      const disabled = await select.locator('option:disabled').allTextContents();
      expect(disabled).toHaveLength(2);
      expect(disabled[0]).toContain('512');
      expect(disabled[1]).toContain('1,024');
      expect(disabled.every((d) => d.includes('at most 256'))).toBe(true);
      expect(await select.locator('option:not(:disabled)').allTextContents()).toEqual(['64', '128', '256']);
      expect(errors).toEqual([]);
      await context.close();
    });
  });

  describe('where a lab page opens', () => {
    it('without a step in the address: at the first tree level, already drawn; an explicit step wins', async () => {
      const { page, errors } = await open('/lab/reduce?v=interleaved&n=1024&wg=256');
      const lab = new ReduceLabPage(page);
      await lab.ready();
      expect(Number(/Step (\d+)/.exec(await lab.stepCounter())?.[1])).toBeGreaterThan(1);
      expect(await lab.treeLevel()).toBe(1);
      // The opening step is kept in the address like any other, so a reload shows the same picture.
      await page.waitForFunction(() => Number(new URLSearchParams(location.search).get('step')) > 0);

      const { page: atZero, errors: zeroErrors } = await open('/lab/reduce?v=interleaved&n=1024&wg=256&step=0');
      const zero = new ReduceLabPage(atZero);
      await zero.ready();
      expect(await zero.stepCounter()).toMatch(/Step 1\b/);
      expect(errors).toEqual([]);
      expect(zeroErrors).toEqual([]);
    });
  });
});
