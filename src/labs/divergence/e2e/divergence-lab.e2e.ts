import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from '../../../../e2e/browser.ts';
import { LabPageObject } from '../../../../e2e/pages.ts';

/** The warp divergence lab, added with nothing outside its folders but a registry line. */
describe('warp divergence patterns lab', () => {
  const browser = useBrowser();
  // Both tests open their page as a first visit shows it, in one page (nothing kept from the last test).
  const open = useAppPage(browser);

  const metric = async (page: LabPageObject['page'], name: string) =>
    (await page.locator(`[data-metric="${name}"]`).first().textContent())?.trim();

  it('opens on a split warp for tid % 2, counts one divergent branch per warp, and none for the warp-aligned pattern', async () => {
    const { page, errors } = await open('/lab/divergence?v=even-odd&n=1024&wg=256');
    const lab = new LabPageObject(page);
    await lab.ready();
    expect(await page.getByTestId('lab').getAttribute('data-variant')).toBe('even-odd');
    // The opening moment is the first split warp: the warp grid marks it.
    await lab.showStage('warp-grid');
    expect(
      (await page.getByTestId('warp-grid').first().getAttribute('data-divergent-warps'))?.length,
    ).toBeGreaterThan(0);
    // The code pane shows the CUDA condition the lesson talks about.
    expect(await page.getByTestId('lab').textContent()).toContain('tid % 2');

    await lab.openDrawer('metrics');
    // 1024 elements in 32 warps: every warp splits at the branch once.
    expect(await metric(page, 'divergent_branch')).toBe('32');
    expect(await metric(page, 'Warps launched')).toBe('32');

    await page.getByTestId('variant-select').focus();
    await page.getByTestId('variant-select').selectOption('warp-aligned');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=lab]')?.getAttribute('data-variant') === 'warp-aligned',
    );
    await lab.ready();
    await page.waitForFunction(
      () => document.querySelector('[data-metric="divergent_branch"]')?.textContent?.trim() === '0',
    );
    const url = new URL(page.url());
    expect(url.searchParams.get('v')).toBe('warp-aligned');
    expect(url.searchParams.get('n')).toBe('1024');
    expect(errors).toEqual([]);
  });

  it('is listed on the start page and reads in Chinese', async () => {
    const { page, errors } = await open('/?lang=zh-CN');
    // The start page's lab list (the header's Labs menu holds a hidden copy until opened).
    const link = page.locator('a[href^="/lab/divergence"]:visible').first();
    await link.waitFor();
    expect(await link.textContent()).toContain('线程束分化的模式');
    await link.click();
    await page.waitForFunction(() => location.pathname.endsWith('/lab/divergence'));
    await new LabPageObject(page).ready();
    expect(await page.getByTestId('variant-select').textContent()).toContain('奇偶交错');
    expect(errors).toEqual([]);
  });
});
