/**
 * The program page (`/program`): a post's whole program picked from the examples menu runs in a
 * worker and prints what the H100 printed; its launch opens in the replay and steps, by keyboard,
 * to the `atomicAdd` on its CUDA line with the words it adds on screen; an endless host loop is
 * stopped with the page still answering; the page reads in Chinese.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, useAppPage, useBrowser } from './browser.ts';

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
  // Each test opens its pages as a first visit shows them, in one page (nothing kept from the last test).
  const visit = useAppPage(browser);

  it("runs seed 003's shared-memory histogram from the examples menu and prints what the H100 printed", async () => {
    const { page, errors } = await visit('/program');
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

  it("opens seed 003's histogram launch in the replay and steps by keyboard to the atomicAdd on its CUDA line, its words on screen", async () => {
    const { page, errors } = await visit('/program');
    await page.getByRole('combobox', { name: 'Programs from the posts' }).selectOption('003-histogram-shared');
    await page.getByTestId('program-notice').getByText('Opened 003-histogram-shared.cu.').waitFor();
    const source = (await page.evaluate(() => localStorage.getItem('warpscope.program.draft'))) ?? '';
    const atomicLine = source.split('\n').findIndex((l) => l.includes('atomicAdd(&(histo_private')) + 1;
    expect(atomicLine).toBeGreaterThan(0);
    await page.getByRole('button', { name: '▶ Run' }).click();
    await page.getByTestId('program-status').getByText('exit code 0').waitFor({ timeout: 60_000 });
    // By keyboard: the launch's action is a button reached by Tab; Enter opens it.
    const open = page.getByRole('button', { name: 'Open launch 1 (histo_kernel) in the replay' });
    await open.focus();
    await page.keyboard.press('Enter');
    const replay = page.getByTestId('program-replay');
    await replay.getByRole('heading', { name: /Replay of launch 1: histo_kernel<<<2, 256>>>/ }).waitFor();
    expect(await page.getByTestId('replay-what').textContent()).toContain('the whole launch (2 blocks of 256 threads)');
    await page.locator('[data-testid=replay-stage][data-ready=yes]').waitFor({ timeout: 60_000 });
    // The focus is on the replay's heading, so the timeline's keys step it: S for the next statement.
    const marked = () => page.evaluate(() => document.querySelector('[data-testid=program-replay] .cm-current-step')?.textContent ?? '');
    let reached = false;
    for (let k = 0; k < 60 && !reached; k++) {
      await page.keyboard.press('s');
      const position = (await page.getByTestId('replay-position').textContent()) ?? '';
      reached = position === `CUDA line ${atomicLine}`;
    }
    expect(reached).toBe(true);
    expect((await marked()).trim()).toBe('atomicAdd(&(histo_private[alphabet_position / 4]), 1);');
    // Instruction by instruction (the . key) within the line, to the atomic add itself.
    const narration = async () => (await page.getByTestId('replay-narration').textContent()) ?? '';
    for (let k = 0; k < 30 && !(await narration()).includes('atomically update'); k++) await page.keyboard.press('.');
    expect(await narration()).toMatch(new RegExp(`atomically update .*histo_private.*\\(line ${atomicLine}\\)$`));
    expect(await page.getByTestId('replay-position').textContent()).toBe(`CUDA line ${atomicLine}`);
    // The step's subject (the bins of histo_private being added to) is on screen, inside the stage.
    expect(await page.getByTestId('replay-stage').getAttribute('data-panel')).toBe('shared-memory');
    const boxes = await page.evaluate(() => {
      const stage = document.querySelector('[data-testid=replay-stage]')!.getBoundingClientRect();
      return [...document.querySelectorAll('[data-testid=replay-stage] [data-subject=word]')].map((e) => {
        const r = e.getBoundingClientRect();
        return { inside: r.width > 0 && r.left >= stage.left - 1 && r.right <= stage.right + 1 && r.top >= stage.top - 1 && r.bottom <= stage.bottom + 1 };
      });
    });
    expect(boxes.length).toBeGreaterThan(0);
    expect(boxes.every((b) => b.inside)).toBe(true);
    await page.getByTestId('replay-stage').scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('[data-testid=replay-stage] [data-subject=word]').first().isVisible()).toBe(true);
    // Closing it leaves the page as it was.
    await page.getByTestId('replay-close').click();
    expect(await replay.count()).toBe(0);
    expect(errors).toEqual([]);
  }, 180_000);

  /** The GPU run's checks: the H100's stdout, which GPU ran it, the launch timed on the GPU and open to the replay. */
  async function expectRanOnGpu(page: Page): Promise<void> {
    await page.getByTestId('program-status').getByText('exit code 0').waitFor({ timeout: 60_000 });
    expect(await consoleText(page, 'stdout')).toBe(referenceStdout('003-histogram-shared'));
    expect(await consoleText(page, 'stderr')).toBe('');
    expect(await page.getByTestId('program-executor-used').textContent()).toMatch(/^⚡ Kernels run on the GPU: .*swiftshader.*\.$/i);
    await page.getByRole('columnheader', { name: 'GPU time' }).waitFor();
    const cells = await page.getByTestId('program-timeline').locator('tbody tr').first().locator('td').allTextContents();
    expect(cells[1]).toBe('histo_kernel');
    expect(cells[6]).toMatch(/^\d+(\.\d+)? ms$/);
    expect(cells[7]).toContain('ran');
    await page.getByRole('button', { name: 'Open launch 1 (histo_kernel) in the replay' }).waitFor();
  }

  it("runs seed 003's shared-memory histogram on the GPU, picked with the mouse, and prints what the H100 printed", async () => {
    const { page, errors } = await visit('/program');
    await page.getByRole('combobox', { name: 'Programs from the posts' }).selectOption('003-histogram-shared');
    await page.getByTestId('program-notice').getByText('Opened 003-histogram-shared.cu.').waitFor();
    await page.getByRole('combobox', { name: 'Run on' }).selectOption('gpu');
    await page.getByRole('button', { name: '▶ Run' }).click();
    await expectRanOnGpu(page);
    // The choice is kept: after a reload the GPU is still the one picked.
    await page.reload();
    expect(await page.getByRole('combobox', { name: 'Run on' }).inputValue()).toBe('gpu');
    expect(errors).toEqual([]);
  }, 120_000);

  it("runs seed 003's shared-memory histogram on the GPU by keyboard alone: menu, executor, Run", async () => {
    const { page, errors } = await visit('/program');
    const examples = page.getByRole('combobox', { name: 'Programs from the posts' });
    await examples.focus();
    for (let i = 0; i < 20 && (await examples.inputValue()) !== '003-histogram-shared'; i++) await page.keyboard.press('ArrowDown');
    expect(await examples.inputValue()).toBe('003-histogram-shared');
    await page.getByTestId('program-notice').getByText('Opened 003-histogram-shared.cu.').waitFor();
    const executor = page.getByRole('combobox', { name: 'Run on' });
    await executor.focus();
    for (let i = 0; i < 3 && (await executor.inputValue()) !== 'gpu'; i++) await page.keyboard.press('ArrowDown');
    expect(await executor.inputValue()).toBe('gpu');
    // Tab to Run, and Enter.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('▶ Run');
    await page.keyboard.press('Enter');
    await expectRanOnGpu(page);
    expect(errors).toEqual([]);
  }, 120_000);

  it('arrowing through the examples opens the last one picked, even where an earlier pick loads after it', async () => {
    // A context of its own: no example's file may be in the page's cache yet, so that one can be held back.
    const { page, errors } = await openPage(browser(), '/program');
    const held = /\/assets\/003-convolution-2d-tiled-[^/]*\.js$/;
    await page.route(held, async (route) => {
      await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    const late = page.waitForResponse((r) => held.test(new URL(r.url()).pathname));
    const examples = page.getByRole('combobox', { name: 'Programs from the posts' });
    await examples.focus();
    // Through 003-convolution-2d-tiled (held back) on to 003-histogram, a key at a time.
    for (let i = 0; i < 20 && (await examples.inputValue()) !== '003-histogram'; i++) await page.keyboard.press('ArrowDown');
    expect(await examples.inputValue()).toBe('003-histogram');
    await page.getByTestId('program-notice').getByText('Opened 003-histogram.cu.').waitFor();
    // The held-back example arrives last, and changes nothing.
    await late;
    await page.waitForTimeout(500);
    const editor = (await page.getByTestId('program-editor').textContent()) ?? '';
    expect(editor).toContain('histo_kernel');
    expect(editor).not.toContain('convolution_2D_basic_kernel');
    expect(await page.getByTestId('program-notice').textContent()).toContain('Opened 003-histogram.cu.');
    expect(await examples.inputValue()).toBe('003-histogram');
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('Stop ends a GPU run whose host code loops forever after its launch; the page answers', async () => {
    const { page } = await visit('/program');
    await page.getByRole('combobox', { name: 'Run on' }).selectOption('gpu');
    await replaceSource(page, '#include <cstdio>\n__global__ void k(int *a) { a[threadIdx.x] = 1; }\nint main() {\n  int *d;\n  cudaMalloc(&d, 32 * sizeof(int));\n  k<<<1, 32>>>(d);\n  cudaDeviceSynchronize();\n  printf("launched\\n");\n  long n = 0;\n  while (1) { n++; }\n}\n');
    await page.getByRole('button', { name: '▶ Run' }).click();
    await page.getByTestId('program-console').getByText('launched').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('program-executor-used').textContent()).toContain('Kernels run on the GPU');
    await page.getByRole('combobox', { name: 'Programs from the posts' }).focus();
    await page.getByTestId('program-stop').click();
    await page.getByTestId('program-status').getByText('Stopped by you').waitFor({ timeout: 5_000 });
    expect(await page.getByTestId('program-editor').textContent()).toContain('while (1) { n++; }');
  }, 120_000);

  it('stops an endless host loop; the page answers and the source is kept', async () => {
    const { page } = await visit('/program');
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
    // In Chinese, as the address asks (opened in the app, it applies its ?lang= as a load does).
    const { page } = await visit('/program?lang=zh-CN');
    await page.getByRole('heading', { name: '运行完整的 CUDA 程序' }).waitFor();
    await page.getByRole('button', { name: '▶ 运行' }).waitFor();
    await page.getByRole('button', { name: '■ 停止' }).waitFor();
    expect(await page.locator('[data-testid=program-executor] option[value=gpu]').textContent()).toBe('GPU（WebGPU）');
    const groups = await page.locator('[data-testid=program-examples] optgroup').evaluateAll((els) => els.map((e) => e.getAttribute('label')));
    expect(groups).toContain('参加CUDA On Arm Platform 线上夏令营学习笔记(四)');
    expect(groups).toContain('GPU编程(四): 并行规约优化');
    expect(await page.getByRole('navigation').getByRole('link', { name: '运行程序' }).count()).toBe(1);
    // The replay reads in Chinese too.
    await page.getByRole('combobox', { name: '文章中的程序' }).selectOption('003-histogram-shared');
    // The example loads on its own: Run only once it is in the editor (a busy machine once ran the
    // program shown before it, whose launch is not histo_kernel).
    await page.waitForFunction(() => document.querySelector('[data-testid=program-editor]')?.textContent?.includes('histo_kernel'));
    await page.getByRole('button', { name: '▶ 运行' }).click();
    await page.getByTestId('program-status').getByText('退出码为 0', { exact: false }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: '在回放中打开第 1 次启动（histo_kernel）' }).click();
    await page.getByRole('heading', { name: /第 1 次启动的回放/ }).waitFor();
    await page.getByRole('button', { name: '关闭回放' }).waitFor();
    await page.locator('[data-testid=replay-stage][data-ready=yes]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('replay-what').textContent()).toContain('回放内容');
  });
});

describe('program page without WebGPU', () => {
  const browser = useBrowser({ webgpu: false });

  it('offers only the simulator, and says why the GPU cannot be picked', async () => {
    const { page } = await openPage(browser(), '/program');
    const gpu = page.locator('[data-testid=program-executor] option[value=gpu]');
    expect(await gpu.textContent()).toBe('The GPU (WebGPU is not available in this browser)');
    expect(await gpu.isDisabled()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Run on' }).inputValue()).toBe('sim');
  });
});
