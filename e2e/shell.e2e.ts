import { describe, expect, it } from 'vitest';
import { openPage, useAppPage, useBrowser } from './browser.ts';

describe('app shell with WebGPU (SwiftShader)', () => {
  const browser = useBrowser();
  // Both tests open the start page inside one page (useAppPage), what the last one stored
  // forgotten; the reload stays a reload (the draft surviving it is what the test checks).
  const open = useAppPage(browser);

  it('names the adapter and runs vector add on the GPU, checked against the CPU', async () => {
    const { page, errors } = await open('/');
    await page.locator('[data-testid=device-details] summary').click(); // the device's details are folded away
    await page.getByTestId('adapter-name').waitFor();
    expect((await page.getByTestId('adapter-name').textContent())?.toLowerCase()).toContain('swiftshader');
    await page.getByTestId('size-select').selectOption('16');
    await page.getByTestId('run-vector-add').click();
    await page.getByTestId('check').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('check').textContent()).toContain('All 65,536 elements match the CPU');
    const timing = (await page.getByTestId('timing').textContent()) ?? '';
    expect(timing).toMatch(/GPU time \d+\.\d+ ms \(median of 10/);
    expect(timing).toMatch(/\d+\.\d+ GB\/s/);
    expect(errors).toEqual([]);
  });

  it('shows a WGSL syntax error with line and column, and keeps the edit', async () => {
    const { page, errors } = await open('/');
    await page.locator('[data-testid=device-details] summary').click(); // the device's details are folded away
    await page.getByTestId('adapter-name').waitFor();
    const editor = page.getByTestId('wgsl-editor');
    const original = await editor.inputValue();
    const broken = original.replace('c[i] = a[i] + b[i];', 'c[i] = a[i] + ;');
    expect(broken).not.toBe(original);
    await editor.fill(broken);
    await page.getByTestId('run-vector-add').click();
    await page.getByTestId('run-error').waitFor({ timeout: 60_000 });
    const line = broken.split('\n').findIndex((l) => l.includes('a[i] + ;')) + 1;
    const location = (await page.getByTestId('error-location').first().textContent()) ?? '';
    expect(location).toMatch(new RegExp(`^shaders/basics/vector-add\\.wgsl:${line}:\\d+$`));
    expect(await editor.inputValue()).toBe(broken);
    // The draft survives a reload, and the page is still usable.
    await page.reload();
    await page.locator('[data-testid=device-details] summary').click(); // the device's details are folded away
    await page.getByTestId('adapter-name').waitFor();
    expect(await page.getByTestId('wgsl-editor').inputValue()).toBe(broken);
    expect(errors).toEqual([]);
  });
});

describe('app shell without WebGPU', () => {
  const browser = useBrowser({ webgpu: false });

  it('shows the banner and has no uncaught error', async () => {
    const { page, errors } = await openPage(browser());
    const banner = page.getByTestId('webgpu-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('WebGPU unavailable — simulator only');
    expect(await page.getByTestId('run-vector-add').isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });
});
