import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';

/** The row-sum lab, added on the lab platform with nothing outside its folders but a registry line. */
describe('row-sum lab', () => {
  const browser = useBrowser();
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const open = useAppPage(browser);

  const metric = async (page: LabPageObject['page'], name: string) => (await page.locator(`[data-metric="${name}"]`).first().textContent())?.trim();

  it('steps the simple kernel into a split warp, then the better one, by keyboard and pickers; the URL holds M and N', async () => {
    const { page, errors } = await open('/lab/rowsum?v=simple&n=512&m=4&step=0');
    const lab = new LabPageObject(page);
    await lab.ready();
    await lab.openDrawer('metrics');
    expect(await page.getByTestId('lab').getAttribute('data-variant')).toBe('simple');
    // Four rows of 512: each of the four workgroups splits its 8 warps 48 times.
    expect(await metric(page, 'divergent_branch')).toBe('192');
    await lab.blur();
    await lab.press('d');
    await lab.press('.');
    await lab.showStage('warp-grid');
    expect((await page.getByTestId('warp-grid').first().getAttribute('data-divergent-warps'))?.length).toBeGreaterThan(0);

    await page.getByTestId('variant-select').focus();
    await page.getByTestId('variant-select').selectOption('better');
    await page.waitForFunction(() => document.querySelector('[data-testid=lab]')?.getAttribute('data-variant') === 'better');
    await lab.ready();
    await page.waitForFunction(() => document.querySelector('[data-metric="divergent_branch"]')?.textContent?.trim() === '24');
    const url = new URL(page.url());
    expect(url.searchParams.get('v')).toBe('better');
    expect(url.searchParams.get('n')).toBe('512');
    expect(url.searchParams.get('m')).toBe('4');

    // The rows picker comes from the lab's parameter spec and writes `m`.
    await page.getByTestId('m-select').selectOption('8');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('m') === '8');
    expect(errors).toEqual([]);
  });

  it('fits an N it cannot sum and too many rows, and says so', async () => {
    const { page, errors } = await open('/lab/rowsum?n=500&m=60000');
    await new LabPageObject(page).ready();
    const notices = (await page.getByTestId('lab-notices').textContent()) ?? '';
    expect(notices).toMatch(/N must be one of 64, 128, 256, 512, 1024, 2048; using 512/);
    expect(notices).toMatch(/simulating 128/);
    expect(errors).toEqual([]);
  });

  it('opens its lesson at the named moment', async () => {
    const { page, errors } = await open('/lesson/rowsum/2');
    await new LabPageObject(page).ready();
    expect(await page.getByTestId('lesson-lab').textContent()).toMatch(/Row sum/);
    expect(await page.getByTestId('lesson-counter').textContent()).toContain('Step 2 of 5');
    expect((await page.getByTestId('warp-grid').first().getAttribute('data-divergent-warps'))?.length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
