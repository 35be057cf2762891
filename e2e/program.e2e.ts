/**
 * The program page (`/program`): a post's whole program picked from the examples menu runs in a
 * worker and prints what the H100 printed; an endless host loop is stopped with the page still
 * answering; the page reads in Chinese.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, useBrowser } from './browser.ts';

/** The program's stdout as the H100 printed it (the reference file ends with it; it names its size). */
function referenceStdout(name: string): string {
  const file = readFileSync(new URL(`../docs/runs/2026-11-26-h100-seed-programs/${name}.txt`, import.meta.url));
  const size = Number(/stdout: (\d+) bytes/.exec(file.toString('utf8'))![1]);
  return file.subarray(file.length - size).toString('utf8');
}

const consoleText = (page: Page, stream: 'stdout' | 'stderr') =>
  page.evaluate((s) => [...document.querySelectorAll(`[data-testid=program-console] [data-stream=${s}]`)].map((e) => (e.textContent ?? '').replace(/^stderr|^标准错误/, '')).join(''), stream);

async function replaceSource(page: Page, text: string): Promise<void> {
  await page.getByTestId('program-editor').focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

describe('program page', () => {
  const browser = useBrowser();

  it("runs seed 003's shared-memory histogram from the examples menu and prints what the H100 printed", async () => {
    const { page, errors } = await openPage(browser(), '/program');
    await page.getByRole('combobox', { name: 'Programs from the posts' }).selectOption('003-histogram-shared');
    await page.getByTestId('program-notice').getByText('Opened 003-histogram-shared.cu.').waitFor();
    expect(await page.getByTestId('program-editor').textContent()).toContain('histo_kernel');
    await page.getByRole('button', { name: 'Run', exact: false }).first().click();
    await page.getByTestId('program-status').getByText('exit code 0').waitFor({ timeout: 60_000 });
    expect(await consoleText(page, 'stdout')).toBe(referenceStdout('003-histogram-shared'));
    expect(await consoleText(page, 'stderr')).toBe('');
    const row = page.getByTestId('program-timeline').locator('tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    const cells = await row.first().locator('td').allTextContents();
    expect(cells[1]).toBe('histo_kernel');
    expect(cells[7]).toContain('ran');
    expect(errors).toEqual([]);
  });

  it('stops an endless host loop; the page answers and the source is kept', async () => {
    const { page } = await openPage(browser(), '/program');
    const endless = 'int main() {\n  long n = 0;\n  while (1) { n++; }\n}\n';
    await replaceSource(page, endless);
    await page.getByRole('button', { name: '▶ Run' }).click();
    await page.getByTestId('program-status').getByText('Running').waitFor();
    // The page answers while the program runs: another control works.
    await page.getByRole('combobox', { name: 'Run on' }).focus();
    await page.getByTestId('program-stop').click();
    await page.getByTestId('program-status').getByText('Stopped by you').waitFor({ timeout: 5_000 });
    expect(await page.getByTestId('program-editor').textContent()).toContain('while (1) { n++; }');
    // A program with a compile error is marked at its CUDA line, and a good one runs after the stop.
    await replaceSource(page, 'int main() {\n  int x = ;\n}\n');
    await page.getByRole('button', { name: '▶ Run' }).click();
    await page.getByTestId('program-errors').getByText(/^Line 2, column \d+:/).waitFor();
    await replaceSource(page, '#include <cstdio>\nint main() { printf("after %d\\n", 7); fprintf(stderr, "warned\\n"); return 3; }\n');
    await page.getByRole('button', { name: '▶ Run' }).click();
    await page.getByTestId('program-status').getByText('exit code 3').waitFor({ timeout: 30_000 });
    expect(await consoleText(page, 'stdout')).toBe('after 7\n');
    expect(await consoleText(page, 'stderr')).toBe('warned\n');
    // stderr is tagged in words, not only by colour.
    expect(await page.locator('[data-stream=stderr] .stream-tag').textContent()).toBe('stderr');
    // The draft survives a reload.
    await page.reload();
    expect(await page.getByTestId('program-editor').textContent()).toContain('after %d');
  });

  it('reads in Chinese, the examples titled with the posts’ Chinese titles', async () => {
    const { page } = await openPage(browser(), '/program?lang=zh-CN');
    await page.getByRole('heading', { name: '运行完整的 CUDA 程序' }).waitFor();
    await page.getByRole('button', { name: '▶ 运行' }).waitFor();
    await page.getByRole('button', { name: '■ 停止' }).waitFor();
    const groups = await page.locator('[data-testid=program-examples] optgroup').evaluateAll((els) => els.map((e) => e.getAttribute('label')));
    expect(groups).toContain('参加CUDA On Arm Platform 线上夏令营学习笔记(四)');
    expect(groups).toContain('GPU编程(四): 并行规约优化');
    expect(await page.getByRole('navigation').getByRole('link', { name: '运行程序' }).count()).toBe(1);
  });
});
