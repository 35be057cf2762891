/**
 * What a hostile or unlucky person can do to the home page's editor, in real Chromium with WebGPU
 * on SwiftShader: a kernel that never ends is refused with its line before it reaches the GPU,
 * Cancel gives the GPU work up and the page recovers a device, and a draft too big for
 * localStorage is kept in IndexedDB with a notice (and comes back after a reload).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useAppPage, useBrowser } from './browser.ts';

const GRID_STRIDE_BODY = 'c[i] = a[i] + b[i];';

async function home(page: Page): Promise<string> {
  await page.getByTestId('adapter-name').waitFor({ state: 'attached', timeout: 60_000 }); // in the folded device panel
  return page.getByTestId('wgsl-editor').inputValue();
}

async function runAndCheck(page: Page, log2n: string): Promise<string> {
  await page.getByTestId('size-select').selectOption(log2n);
  const run = page.getByTestId('run-vector-add');
  await page.waitForFunction(() => document.querySelector<HTMLButtonElement>('[data-testid=run-vector-add]')?.disabled === false, undefined, {
    timeout: 60_000,
  });
  await run.click();
  await page.getByTestId('check').waitFor({ timeout: 120_000 });
  return (await page.getByTestId('check').textContent()) ?? '';
}

/**
 * The page's own pace at this moment: the median of `times` round trips to the page, each waiting
 * for one animation frame. A loaded machine slows it as it slows everything the page does.
 */
async function pace(page: Page, times: number): Promise<number> {
  const took: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = Date.now();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
    took.push(Date.now() - t0);
  }
  return took.sort((a, b) => a - b)[times >> 1]!;
}

describe('robustness of the home editor (WebGPU on SwiftShader)', () => {
  const browser = useBrowser();
  // Each test opens the start page inside one page (useAppPage): the app's code and WebGPU device
  // are kept, what it stored (drafts in localStorage and IndexedDB) is forgotten. The reloads of
  // the draft test stay reloads: what comes back after one is what that test is about.
  const open = useAppPage(browser);

  it('refuses a kernel that never ends, with the loop\'s line and column, and the GPU keeps working', async () => {
    const { page, errors } = await open('/');
    const original = await home(page);
    const endless = original.replace(
      GRID_STRIDE_BODY,
      `${GRID_STRIDE_BODY}\n    loop { c[i] = c[i] + 1.0; if (params.n == 7u) { break; } }`,
    );
    const line = endless.split('\n').findIndex((l) => l.trimStart().startsWith('loop {')) + 1;
    const column = endless.split('\n')[line - 1]!.indexOf('loop') + 1;
    const editor = page.getByTestId('wgsl-editor');
    await editor.fill(endless);
    const t0 = Date.now();
    await page.getByTestId('run-vector-add').click();
    await page.getByTestId('run-error').waitFor({ timeout: 60_000 });
    const refusedMs = Date.now() - t0;
    const text = (await page.getByTestId('run-error').textContent()) ?? '';
    expect(text).toContain('Not sent to the GPU: the kernel did not finish on the simulator');
    expect(text).toContain(`in the loop at line ${line}, column ${column}`);
    expect(await page.getByTestId('error-location').first().textContent()).toBe(`shaders/basics/vector-add.wgsl:${line}:${column}`);
    expect(await editor.inputValue()).toBe(endless);
    // Nothing was dispatched: the teaching kernel still runs at once.
    await editor.fill(original);
    const t1 = Date.now();
    expect(await runAndCheck(page, '12')).toContain('All 4,096 elements match the CPU');
    const checkedMs = Date.now() - t1;
    // Refused soon: within 30 s, or within ten times this page's own run of the teaching kernel,
    // simulator and GPU (a loaded machine slows both alike, so it cannot fail this bound alone).
    expect(refusedMs).toBeLessThan(Math.max(30_000, 10 * checkedMs));
    expect(errors).toEqual([]);
  });

  it('stops, with the watchdog, a loop that ends on the simulator\'s small input but not on the real one', async () => {
    const { page, errors } = await open('/');
    const original = await home(page);
    // Endless only when n is above the simulator's check size (4 096).
    const sneaky = original.replace(
      GRID_STRIDE_BODY,
      `${GRID_STRIDE_BODY}\n    if (params.n > 5000u) { loop { c[i] = c[i] + 1.0; if (params.n == 7u) { break; } } }`,
    );
    const line = sneaky.split('\n').findIndex((l) => l.includes('if (params.n > 5000u)')) + 1;
    const column = sneaky.split('\n')[line - 1]!.indexOf('loop') + 1;
    await page.getByTestId('wgsl-editor').fill(sneaky);
    await page.getByTestId('size-select').selectOption('16');
    await page.getByTestId('run-vector-add').click();
    await page.getByTestId('run-error').waitFor({ timeout: 60_000 });
    const text = (await page.getByTestId('run-error').textContent()) ?? '';
    expect(text).toContain('Stopped by the watchdog');
    expect(text).toMatch(new RegExp(`The loop at line ${line}, column ${column} of shaders/basics/vector-add\\.wgsl ran past [\\d,]+ iterations and was stopped by the watchdog\\.`));
    expect(await page.getByTestId('error-location').first().textContent()).toBe(`shaders/basics/vector-add.wgsl:${line}:${column}`);
    expect(errors).toEqual([]);
  });

  it('Cancel gives the GPU work up at once, keeps the edit, and a new device runs the next kernel', async () => {
    const { page, errors } = await open('/');
    const original = await home(page);
    // An edit (so the guarded path runs) at the largest size: seconds of GPU work on SwiftShader.
    const edited = original.replace(GRID_STRIDE_BODY, `${GRID_STRIDE_BODY} // edited`);
    const editor = page.getByTestId('wgsl-editor');
    await editor.fill(edited);
    // The page's idle pace, before the run: the baseline the cancel is measured against.
    const idleMs = await pace(page, 5);
    await page.getByTestId('size-select').selectOption('24');
    await page.getByTestId('run-vector-add').click();
    await page.waitForFunction(
      () => /GPU/.test(document.querySelector('[data-testid=vector-add-phase]')?.textContent ?? ''),
      undefined,
      { timeout: 60_000 },
    );
    // And its pace while the GPU works (one round trip and one frame: the GPU must still be busy
    // when Cancel is pressed).
    const busyMs = await pace(page, 1);
    const t0 = Date.now();
    await page.getByTestId('cancel-vector-add').click();
    await page.getByTestId('vector-add-note').waitFor({ timeout: 60_000 });
    const cancelMs = Date.now() - t0;
    expect(await page.getByTestId('vector-add-note').textContent()).toBe(
      'Cancelled. The GPU device was given up and a new one is being requested; your edit is kept.',
    );
    // At once: within 5 s, or within 20 of this page's own frames, idle before the run (the median
    // of five) or while the GPU worked, whichever was slower. A loaded machine slows the cancel and
    // the page's frames alike, so it cannot fail this bound alone.
    const frameMs = Math.max(idleMs, busyMs);
    console.log(`[measure] cancel: ${cancelMs} ms; the page's frame: ${idleMs} ms idle (median of 5), ${busyMs} ms while the GPU worked`);
    expect(cancelMs).toBeLessThan(Math.max(5_000, 20 * frameMs));
    expect(await page.getByTestId('check').count()).toBe(0);
    expect(await editor.inputValue()).toBe(edited);
    // The page gets a new device and the same edit runs to the end at a small size, guarded.
    expect(await runAndCheck(page, '12')).toContain('All 4,096 elements match the CPU');
    expect(await page.getByTestId('guard-note').textContent()).toMatch(
      /^Your edit was checked first: simulated at n = 4,096 in [\d,]+ warp instructions; its loop was guarded by the watchdog \(a loop would be stopped past [\d,]+ iterations\)\. The timing includes/,
    );
    expect(errors).toEqual([]);
  });

  it('keeps a draft too big for localStorage in IndexedDB, says so, and brings it back after a reload', async () => {
    const { page, errors } = await open('/');
    const original = await home(page);
    const editor = page.getByTestId('wgsl-editor');
    await editor.fill(`${original}\n// small draft\n`);
    await page.waitForFunction(() => localStorage.getItem('warpscope.vector-add.draft')?.includes('small draft') === true);
    const padding = `// ${'x'.repeat(97)}\n`.repeat(60_000); // 6 M characters
    const big = `${original}\n${padding}`;
    // As a paste would: one input event with the whole text (typing 6 M characters takes minutes).
    await editor.evaluate((el, text) => {
      const descriptor = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!;
      descriptor.set!.call(el, text);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, big);
    const notice = page.getByTestId('draft-notice');
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toMatch(
      /^Your edit is kept in this browser's IndexedDB: the draft \(6\.1 M characters\) is too big for this browser's local storage\. It comes back after a reload\.$/,
    );
    await page.reload();
    await home(page);
    await page.waitForFunction((n) => document.querySelector<HTMLTextAreaElement>('[data-testid=wgsl-editor]')?.value.length === n, big.length, {
      timeout: 30_000,
    });
    // Reset forgets it everywhere: after another reload the teaching kernel is back.
    await page.getByRole('button', { name: 'Reset code' }).click();
    await page.waitForFunction(() => localStorage.getItem('warpscope.vector-add.draft.location') === null);
    await page.reload();
    expect(await home(page)).toBe(original);
    expect(errors).toEqual([]);
  });
});
