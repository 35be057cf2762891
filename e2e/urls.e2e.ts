import type { Dialog } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useAppPage, useBrowser } from './browser.ts';

describe('malformed and hostile addresses', () => {
  const browser = useBrowser();
  // Each address is opened inside one page (useAppPage), as the app's back and forward buttons
  // open one: the app reads it with the same code as when it starts. The first is a load.
  const open = useAppPage(browser);

  it.each([
    ['/lab/nope', 'notices'],
    ['/lab/reduce?v=%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'notices'],
    ['/lab/reduce?n=-5&step=abc', 'notices'],
    ['/lab/reduce?wg=999999999999', 'notices'],
    ['/lab/reduce?mode=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', 'notices'],
    ['/lesson/../../etc/passwd', 'notices'],
    ['/lesson/reduction/zero', 'notices'],
    ['/lesson/nope/3', 'lesson-missing'],
    ['/nothing/here?x=1', 'notices'],
    ['/lab/scan?v=blelloch&cmp=blelloch&type=f64', 'lab-notices'],
  ])('%s lands on a sane page with a notice, runs no script and throws nothing', async (path, notice) => {
    const dialogs: string[] = [];
    const onDialog = (d: Dialog) => {
      dialogs.push(d.message());
      void d.dismiss();
    };
    const { page, errors } = await open(path);
    page.on('dialog', onDialog);
    onTestFinished(() => void page.off('dialog', onDialog));
    await page.getByTestId(notice).first().waitFor({ timeout: 60_000 });
    expect((await page.getByTestId(notice).first().textContent())?.length).toBeGreaterThan(10);
    // Nothing from the address became markup.
    expect(await page.locator('main script, main img[src=x]').count()).toBe(0);
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });
});
