import { describe, expect, it } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';
import { LabPageObject } from './pages.ts';
import { seriousAxeFindings, walkLesson } from './labAxe.ts';

/** The histogram lab's stage: bins filling and lanes queued per bin, read from the trace. */
describe('histogram lab', () => {
  const browser = useBrowser();
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const open = useAppPage(browser);

  it('queues all 32 lanes on one bin for one-value data, by keyboard, and shows the merge of private bins', async () => {
    const { page, errors } = await open('/lab/histogram?v=grid-stride&n=4096&bins=256&dist=one-value&step=0');
    const lab = new LabPageObject(page);
    await lab.ready();
    const stage = page.getByTestId('histogram-stage');
    await stage.waitFor();
    // Keyboard: focus the jump button and press Enter.
    await page.getByTestId('histogram-next-atomic').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=histogram-stage]')?.getAttribute('data-same-address') === '32');
    expect(await stage.getAttribute('data-atomic-space')).toBe('global');
    expect(await page.locator('[data-testid=histogram-bins] tr[data-bin="0"]').getAttribute('data-queue')).toBe('32');
    expect(await page.getByTestId('histogram-now').textContent()).toMatch(/longest queue is 32 lanes/);
    expect(await page.getByTestId('histogram-serialisation').textContent()).toMatch(/32 \/ 32\.00/);
    await new LabPageObject(page).openDrawer('metrics');
    expect(await page.locator('[data-metric="Largest same-address count"]').first().textContent()).toBe('32');

    await page.getByTestId('variant-select').selectOption('privatized');
    await page.waitForFunction(() => document.querySelector('[data-testid=lab]')?.getAttribute('data-variant') === 'privatized');
    await lab.ready();
    await page.getByTestId('histogram-merge').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=histogram-stage]')?.getAttribute('data-atomic-space') === 'global');
    expect(await page.getByTestId('histogram-global-ops').textContent()).toMatch(/^256 /);
    expect(new URL(page.url()).searchParams.get('bins')).toBe('256');
    expect(errors).toEqual([]);
  });

  it('packed counters: one value puts 32 lanes on bin 0, each on its own counter, and no atomics in variant 6', async () => {
    const { page, errors } = await open('/lab/histogram?v=packed-atomic&n=4096&bins=256&dist=one-value&step=0');
    const lab = new LabPageObject(page);
    await lab.ready();
    await page.getByTestId('histogram-stage').waitFor();
    await page.getByTestId('histogram-next-atomic').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=histogram-stage]')?.getAttribute('data-atomic-space') === 'workgroup');
    expect(await page.getByTestId('histogram-stage').getAttribute('data-same-address')).toBe('1');
    const bin0 = page.locator('[data-testid=histogram-bins] tr[data-bin="0"]');
    expect(await bin0.getAttribute('data-queue')).toBe('1');
    expect(await bin0.textContent()).toMatch(/32 lanes, each on its own counter \(no queue\)/);

    await page.getByTestId('variant-select').selectOption('packed');
    await page.waitForFunction(() => document.querySelector('[data-testid=lab]')?.getAttribute('data-variant') === 'packed');
    await lab.ready();
    expect(await page.getByTestId('histogram-packed-note').textContent()).toMatch(/no atomics until the merge/);
    expect(await page.getByTestId('histogram-global-ops').textContent()).toMatch(/^1 /);
    expect(errors).toEqual([]);
  });

  it('variant 8 (batched): one value puts the 32 lanes on bin 0 of 16 interleaved copies, 2 to a word, one atomic per byte', async () => {
    const { page, errors } = await open('/lab/histogram?v=batched&n=4096&bins=256&dist=one-value');
    const lab = new LabPageObject(page);
    await lab.ready();
    await page.getByTestId('histogram-stage').waitFor();
    await page.getByTestId('histogram-next-atomic').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=histogram-stage]')?.getAttribute('data-atomic-space') === 'workgroup');
    expect(await page.getByTestId('histogram-stage').getAttribute('data-same-address')).toBe('2');
    expect(await page.locator('[data-testid=histogram-bins] tr[data-bin="0"]').getAttribute('data-queue')).toBe('2');
    // Lane 3 waits only with lane 19 on copy 3 of bin 0, not with the whole warp.
    expect(await page.locator('[data-testid=histogram-bins] tr[data-bin="0"] .histo-queue').count()).toBe(16);
    expect(await page.locator('[data-testid=histogram-bins] tr[data-bin="0"] .histo-queue[aria-label*="copy 3"]').getAttribute('aria-label')).toMatch(/3, 19\b/);
    // 4096 zero bytes: one workgroup-memory atomic each (no shortcut for 16 equal bytes), merged into one global atomic.
    expect(await page.getByTestId('histogram-global-ops').textContent()).toMatch(/^1 /);
    await lab.openDrawer('metrics');
    expect(await page.locator('[data-metric="Workgroup-memory atomics (workgroup 0)"]').first().textContent()).toBe('4,096');
    expect(errors).toEqual([]);
  });

  it('names a distribution it does not know, and opens its lesson at the merge', async () => {
    const { page, errors } = await open('/lab/histogram?dist=zipf');
    await new LabPageObject(page).ready();
    expect(await page.getByTestId('notices').textContent()).toMatch(/Ignored data “zipf”: expected one of letters, alphabet, uniform, skewed, one-value/);
    const lesson = await open('/lesson/histogram/5');
    await new LabPageObject(lesson.page).ready();
    expect(await lesson.page.getByTestId('lesson-counter').textContent()).toContain('Step 5 of 6');
    // The step talks about the warp grid's 7 active lanes: that is on the stage; the bins are a tab away.
    expect(await lesson.page.getByTestId('stage').getAttribute('data-panel')).toBe('warp-grid');
    await new LabPageObject(lesson.page).showStage('histogram-stage');
    await lesson.page.waitForFunction(() => document.querySelector('[data-testid=histogram-stage]')?.getAttribute('data-atomic-space') === 'global');
    expect(errors).toEqual([]);
    expect(lesson.errors).toEqual([]);
  });

  it('runs its lesson from the first step to the last, and its stage has no serious axe finding', async () => {
    const { page, errors } = await open('/lesson/histogram/1');
    await new LabPageObject(page).ready();
    expect(await page.getByTestId('lesson-counter').textContent()).toContain('of 6');
    await walkLesson(page, 6);
    expect(new URL(page.url()).pathname).toBe('/lesson/histogram/6');
    await page.getByTestId('histogram-stage').waitFor();
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 240_000);
});
